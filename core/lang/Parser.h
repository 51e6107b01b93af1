/// \file
/// The kernel language's parser: source text to `ast::ParsedFile`, with
/// recovery so that several independent errors are all reported.
#pragma once

#include "lang/AST.h"

#include <memory>

namespace prism {

/// Parses a whole file. Never fails: syntax errors are in Result->Diags.
std::shared_ptr<ast::ParsedFile> parseFile(SourceFileRef File);

/// Parses a single expression (used for `SIG` and `CALL` strings on the
/// command line, e.g. `saxpy!(Float32, DeviceArray{Float32,1})`). The
/// returned node is owned by Out; errors are appended to Out.Diags.
ast::Node *parseExpression(ast::ParsedFile &Out);

} // namespace prism
