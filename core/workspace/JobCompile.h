/// \file
/// The Workspace's default JobCompiler: resolves a JobSpec's signature in
/// the current world, reuses one CompilerConfig per distinct set of options
/// (configs own TargetMachines and host facts: built once, never per job),
/// and runs the staged driver through every stage with pass snapshots.
#pragma once

#include "workspace/Workspace.h"

namespace prism {

/// A JobCompiler backed by compile()/compileInferred() (core/cache/Compiler.h).
JobCompiler makeDriverJobCompiler();

} // namespace prism
