/// \file
/// A small binary encoding of the values that cross the boundary between
/// Prism and its cuda worker process (CudaWorker.h): host values, launch
/// results and diagnostics. Both ends are the same build, so the format
/// needs no versioning beyond the worker's hello; integers are written in
/// the machine's byte order.
#pragma once

#include "devices/Device.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace prism {

class WireWriter {
public:
  void u8(uint8_t V) { put(&V, 1); }
  void u32(uint32_t V) { put(&V, 4); }
  void u64(uint64_t V) { put(&V, 8); }
  void f64(double V) { put(&V, 8); }
  void str(llvm::StringRef S);
  /// A large range (an array's contents) is borrowed, not copied: it must
  /// stay alive and unchanged until the message is sent.
  void bytes(llvm::ArrayRef<uint8_t> B);
  void dim3(Dim3 D);
  void value(const HostValue &V);
  void values(llvm::ArrayRef<HostValue> Vs);
  void properties(llvm::ArrayRef<DeviceProperty> Ps);
  void loc(const DiagLoc &L);
  void diagnostic(const Diagnostic &D);
  void diagnostics(llvm::ArrayRef<Diagnostic> Ds);
  void launchResult(const LaunchResult &R);

  /// The message in order, as runs of bytes: what was written here, with
  /// the borrowed ranges in their places. A 64 MiB array goes to the
  /// socket from where it lies, without a copy and the page faults of one.
  std::vector<llvm::ArrayRef<uint8_t>> runs() const;
  size_t size() const { return Data.size() + BorrowedBytes; }
  /// The whole message in one buffer (a copy).
  std::vector<uint8_t> flat() const;

  /// Ranges at least this long are borrowed.
  static constexpr size_t BorrowAtLeast = 64 * 1024;

private:
  void put(const void *P, size_t N);
  std::vector<uint8_t> Data;
  struct Borrowed {
    size_t At; ///< where in Data the range belongs
    llvm::ArrayRef<uint8_t> Bytes;
  };
  std::vector<Borrowed> Borrows;
  size_t BorrowedBytes = 0;
};

/// One message as read from a socket, into memory that is not zero-filled
/// first (the read overwrites all of it).
struct WireFrame {
  std::unique_ptr<uint8_t[]> Bytes;
  size_t Size = 0;
  llvm::ArrayRef<uint8_t> view() const { return {Bytes.get(), Size}; }
};

/// Reads what a WireWriter wrote. A short or malformed message sets
/// failed() and yields zeros and empty values from then on, so that a
/// reader checks once at the end instead of after every field.
class WireReader {
public:
  explicit WireReader(llvm::ArrayRef<uint8_t> Data) : Data(Data) {}
  uint8_t u8();
  uint32_t u32();
  uint64_t u64();
  double f64();
  std::string str();
  std::vector<uint8_t> bytes();
  Dim3 dim3();
  HostValue value();
  std::vector<HostValue> values();
  std::vector<DeviceProperty> properties();
  DiagLoc loc();
  Diagnostic diagnostic();
  std::vector<Diagnostic> diagnostics();
  LaunchResult launchResult();

  bool failed() const { return Failed; }
  bool atEnd() const { return Pos == Data.size(); }

private:
  bool take(void *Out, size_t N);
  /// A count that the remaining bytes could hold, at MinBytes each.
  uint64_t count(size_t MinBytes);
  llvm::ArrayRef<uint8_t> Data;
  size_t Pos = 0;
  bool Failed = false;
  unsigned Depth = 0; ///< nesting of values, bounded against hostile input
};

/// Sends W on socket Fd as one frame (its length, then its runs). False
/// when the peer has gone.
bool sendWireFrame(int Fd, const WireWriter &W);
/// Reads one frame from Fd. False at the end of the stream, on an error,
/// or for a length past 16 GiB (a corrupt one must not allocate that).
bool readWireFrame(int Fd, WireFrame &F);

} // namespace prism
