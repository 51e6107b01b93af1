/// \file
/// Signatures a user is likely to want to compile, read off the source: a
/// `function f(a::T, b::U)` whose every argument is annotated becomes
/// `f(T, U)`, the `SIG` syntax of `prism code_*`. Used to prefill the Add
/// job dialog. Pure text scanning, no parser (it must work on source with
/// errors in it, while the user types).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace prism::views {

std::vector<std::string> suggestSignatures(std::string_view Source);

/// Whether two signatures name the same job, spaces aside: a file's
/// `DeviceArray{Float32,1}` and Julia's printing `DeviceArray{Float32, 1}`.
bool sameSignature(std::string_view A, std::string_view B);

} // namespace prism::views
