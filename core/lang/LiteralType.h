//===- LiteralType.h - The literal type of a primitive type ---*- C++ -*-===//
///
/// \file
/// How a constant of a primitive type prints: the literal type whose
/// spelling (formatLiteral, printLiteral in Lexer.h) it takes.
///
//===----------------------------------------------------------------------===//
#pragma once

#include "lang/AST.h"

namespace prism {

class Type;

/// The literal type of a primitive Type (`Int32`, `Float16`, `Bool`); false
/// for any other type.
bool litTypeOf(const Type *T, ast::LitType &Out);

} // namespace prism
