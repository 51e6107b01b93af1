/// \file
/// Lowering: one method's AST to the flat lowered IR (`CodeInfo`), as
/// Julia's `code_lowered` shows it.
#pragma once

#include "lang/AST.h"
#include "lang/IR.h"

#include "llvm/Support/Error.h"

#include <memory>
#include <span>

namespace prism {

/// Lowers a function body. `StaticParams` are the `where` variable names
/// (they lower to IRValue::StaticParam). Errors (e.g. `break` outside a
/// loop, assignment to a field of an immutable struct) are diagnostics.
llvm::Expected<std::shared_ptr<CodeInfo>>
lowerMethod(const ast::FunctionDef &Def, const SourceFileRef &File,
            std::span<const Symbol> StaticParams);

} // namespace prism
