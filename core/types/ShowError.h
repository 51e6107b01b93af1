/// \file
/// What Julia's `showerror` prints for a thrown exception, as a template
/// over the exception value's scalar fields. Compiled code passes only the
/// scalars (the host device, through `prism_throw_detail`) and the reference
/// interpreter reads them from the value: both print the same text.
///
///   BoundsError{DeviceArray{Float32, 1}, Tuple{Int64}}
///     BoundsError: attempt to access %{Int64}-element
///       DeviceArray{Float32, 1} at index [%{Int64}]        (one line)
///   InexactError{:trunc, Int8, Int64}
///     InexactError: trunc(Int8, %{Int64})
///   DomainError{Float64, :sqrt}
///     DomainError with %{Float64}:
///     sqrt was called with a negative real argument but ...
///
/// Each `%{T}` stands for the next scalar, of primitive type T.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace prism {

class Type;

struct ShowErrorTemplate {
  std::string Text;
  /// Per placeholder, the Julia field indices from the exception value down
  /// to the scalar (tuples count their elements as fields).
  std::vector<std::vector<unsigned>> Paths;
};

/// The template for an exception of type Exc; none when showerror would
/// print nothing past the type name (a fieldless DivideError) or when a
/// field is not a number (its value would not be in the template).
std::optional<ShowErrorTemplate> showErrorTemplate(Type *Exc);

/// Julia's InexactError text for `To(Value)` that cannot convert exactly:
/// `trunc(Int8, 300)` narrowing an integer (FromBits > ToBits),
/// `check_top_bit(UInt64, -1)` an integer of no more bits changing sign,
/// `Int32(2.5)` any other conversion (IntToInt false).
std::string inexactErrorText(std::string_view To, std::string_view Value,
                             bool IntToInt, unsigned FromBits, unsigned ToBits);

/// Julia's showerror of the UndefVarError a read of local Name throws:
/// "UndefVarError: `y` not defined in local scope".
std::string undefVarErrorText(std::string_view Name);

/// Julia's showerror of a failed typeassert `x::Expected`: "TypeError: in
/// typeassert, expected Int64, got a value of type Float64".
std::string typeAssertErrorText(std::string_view Expected,
                                std::string_view Got);

/// The template of the BoundsError a run-time index into a tuple of type
/// Tuple throws (Index the index's type): "BoundsError: attempt to access
/// Tuple{Int64, Int64} at index [%{Int64}]".
std::string tupleBoundsErrorTemplate(std::string_view Tuple,
                                     std::string_view Index);

/// The most placeholders a template has (a BoundsError of an 8-d array, the
/// largest rank, at four indices: 8 sizes and 4 indices); the host runtime
/// keeps this many values per throw.
inline constexpr unsigned MaxShowErrorValues = 12;

} // namespace prism
