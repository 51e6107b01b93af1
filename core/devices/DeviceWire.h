/// \file
/// A small binary encoding of the values that cross the boundary between
/// Prism and its cuda worker process (CudaWorker.h): host values, launch
/// results and diagnostics. Both ends are the same build, so the format
/// needs no versioning beyond the worker's hello; integers are written in
/// the machine's byte order. An array's contents of 64 KiB or more travel
/// as an attachment after the message: sent from where they lie, and read
/// straight into the vector that becomes the received array's storage.
#pragma once

#include "devices/Device.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace prism {

struct WireFrame;

class WireWriter {
public:
  void u8(uint8_t V) { put(&V, 1); }
  void u32(uint32_t V) { put(&V, 4); }
  void u64(uint64_t V) { put(&V, 8); }
  void f64(double V) { put(&V, 8); }
  void str(llvm::StringRef S);
  /// A range of BorrowAtLeast bytes or more (an array's contents) is not
  /// copied into the message but travels after it as an attachment, sent
  /// from where it lies: it must stay alive and unchanged until then.
  void bytes(llvm::ArrayRef<uint8_t> B);
  void dim3(Dim3 D);
  void value(const HostValue &V);
  void values(llvm::ArrayRef<HostValue> Vs);
  void properties(llvm::ArrayRef<DeviceProperty> Ps);
  void loc(const DiagLoc &L);
  void diagnostic(const Diagnostic &D);
  void diagnostics(llvm::ArrayRef<Diagnostic> Ds);
  void launchResult(const LaunchResult &R);

  /// The message's own bytes, and the attachments that follow them.
  llvm::ArrayRef<uint8_t> inlineBytes() const { return Data; }
  llvm::ArrayRef<llvm::ArrayRef<uint8_t>> attachments() const {
    return Attachments;
  }
  /// The message as a reader receives it (a copy).
  WireFrame frame() const;

  /// Ranges at least this long are attachments.
  static constexpr size_t BorrowAtLeast = 64 * 1024;

private:
  void put(const void *P, size_t N);
  std::vector<uint8_t> Data;
  std::vector<llvm::ArrayRef<uint8_t>> Attachments;
};

/// One message as read from a socket: its own bytes (not zero-filled
/// before the read overwrites them) and its attachments, each read straight
/// into the vector that becomes an array's storage, so that a 64 MiB array
/// is faulted in once on its way into a HostValue, and never copied.
struct WireFrame {
  std::unique_ptr<uint8_t[]> Bytes;
  size_t Size = 0;
  std::vector<std::vector<uint8_t>> Attachments;
  llvm::ArrayRef<uint8_t> view() const { return {Bytes.get(), Size}; }
};

/// Reads what a WireWriter wrote. A short or malformed message sets
/// failed() and yields zeros and empty values from then on, so that a
/// reader checks once at the end instead of after every field.
class WireReader {
public:
  /// A message without attachments.
  explicit WireReader(llvm::ArrayRef<uint8_t> Data) : Data(Data) {}
  /// A frame; its attachments are moved into the arrays read.
  explicit WireReader(WireFrame &F);
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
  bool atEnd() const {
    return Pos == Data.size() && NextAttachment == Attachments.size();
  }

private:
  bool take(void *Out, size_t N);
  /// A count that the remaining bytes could hold, at MinBytes each.
  uint64_t count(size_t MinBytes);
  llvm::ArrayRef<uint8_t> Data;
  llvm::MutableArrayRef<std::vector<uint8_t>> Attachments;
  size_t NextAttachment = 0;
  uint64_t AttachedBytes = 0; ///< in all attachments, bounding dimensions
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
