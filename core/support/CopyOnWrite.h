/// \file
/// A value shared between copies until one of them writes it (copy on
/// write). JobReport keeps its large parts (stage texts and line maps,
/// remarks, pass snapshots) in these: the workspace copies a published
/// report for each figure it measures after the code is shown, and a copy
/// must not cost a copy of megabytes of text (64 ms for a 10 000-statement
/// kernel).
///
/// Reading is as through a const T; push_back and mut() detach first. A value
/// shared with another thread is never written: reports are published as
/// `shared_ptr<const JobReport>`.
#pragma once

#include <cstddef>
#include <memory>
#include <utility>

namespace prism {

template <class T> class CopyOnWrite {
public:
  const T &get() const { return P ? *P : none(); }
  const T &operator*() const { return get(); }
  const T *operator->() const { return &get(); }
  operator const T &() const { return get(); }

  /// The value to write, made this copy's own first.
  T &mut() {
    if (!P)
      P = std::make_shared<T>();
    else if (P.use_count() > 1)
      P = std::make_shared<T>(*P);
    return *P;
  }
  CopyOnWrite &operator=(T V) {
    P = std::make_shared<T>(std::move(V));
    return *this;
  }

  // The container interface reports use.
  auto begin() const { return get().begin(); }
  auto end() const { return get().end(); }
  size_t size() const { return get().size(); }
  bool empty() const { return get().empty(); }
  decltype(auto) operator[](size_t I) const { return get()[I]; }
  template <class V> void push_back(V &&Val) {
    mut().push_back(std::forward<V>(Val));
  }

  /// Whether two copies still share one value (tests).
  bool sharesWith(const CopyOnWrite &O) const { return P && P == O.P; }
  /// Whether two copies hold the same value: shared, or both never set (a
  /// report without remarks is still the report an index was built from).
  bool sameAs(const CopyOnWrite &O) const { return P == O.P; }

private:
  static const T &none() {
    static const T E{};
    return E;
  }
  std::shared_ptr<T> P;
};

} // namespace prism
