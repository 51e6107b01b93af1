#include "devices/DeviceWire.h"

#include <cerrno>
#include <cstring>
#include <sys/socket.h>
#include <unistd.h>

namespace prism {

void WireWriter::put(const void *P, size_t N) {
  const auto *B = static_cast<const uint8_t *>(P);
  Data.insert(Data.end(), B, B + N);
}

void WireWriter::str(llvm::StringRef S) {
  u64(S.size());
  put(S.data(), S.size());
}

void WireWriter::bytes(llvm::ArrayRef<uint8_t> B) {
  u64(B.size());
  if (B.size() < BorrowAtLeast) {
    put(B.data(), B.size());
    return;
  }
  Borrows.push_back({Data.size(), B});
  BorrowedBytes += B.size();
}

std::vector<llvm::ArrayRef<uint8_t>> WireWriter::runs() const {
  std::vector<llvm::ArrayRef<uint8_t>> Out;
  llvm::ArrayRef<uint8_t> Own(Data);
  size_t From = 0;
  for (const Borrowed &B : Borrows) {
    if (B.At > From)
      Out.push_back(Own.slice(From, B.At - From));
    Out.push_back(B.Bytes);
    From = B.At;
  }
  if (From < Own.size())
    Out.push_back(Own.drop_front(From));
  return Out;
}

std::vector<uint8_t> WireWriter::flat() const {
  std::vector<uint8_t> Out;
  Out.reserve(size());
  for (llvm::ArrayRef<uint8_t> R : runs())
    Out.insert(Out.end(), R.begin(), R.end());
  return Out;
}

void WireWriter::dim3(Dim3 D) {
  u32(D.X);
  u32(D.Y);
  u32(D.Z);
}

void WireWriter::value(const HostValue &V) {
  u8(uint8_t(V.kind()));
  switch (V.kind()) {
  case HostValue::Kind::Nothing:
    return;
  case HostValue::Kind::Scalar:
    u8(uint8_t(V.scalarKind()));
    u64(V.bits());
    return;
  case HostValue::Kind::Tuple:
    values(V.elements());
    return;
  case HostValue::Kind::Array:
    u8(uint8_t(V.scalarKind()));
    u64(V.dims().size());
    for (int64_t D : V.dims())
      u64(uint64_t(D));
    bytes(V.bytes());
    return;
  case HostValue::Kind::Function:
    str(V.functionName());
    return;
  }
}

void WireWriter::values(llvm::ArrayRef<HostValue> Vs) {
  u64(Vs.size());
  for (const HostValue &V : Vs)
    value(V);
}

void WireWriter::properties(llvm::ArrayRef<DeviceProperty> Ps) {
  u64(Ps.size());
  for (const DeviceProperty &P : Ps) {
    str(P.first);
    str(P.second);
  }
}

void WireWriter::loc(const DiagLoc &L) {
  str(L.FileName);
  u32(L.Line);
  u32(L.Col);
  u32(L.EndLine);
  u32(L.EndCol);
}

void WireWriter::diagnostic(const Diagnostic &D) {
  u8(uint8_t(D.Sev));
  str(D.Kind);
  str(D.Message);
  loc(D.Loc);
  u64(D.Notes.size());
  for (const DiagNote &N : D.Notes) {
    str(N.Message);
    loc(N.Loc);
  }
  u64(D.Backtrace.size());
  for (const BacktraceFrame &F : D.Backtrace) {
    str(F.Function);
    loc(F.Loc);
  }
}

void WireWriter::diagnostics(llvm::ArrayRef<Diagnostic> Ds) {
  u64(Ds.size());
  for (const Diagnostic &D : Ds)
    diagnostic(D);
}

void WireWriter::launchResult(const LaunchResult &R) {
  value(R.Return);
  values(R.Args);
  f64(R.TimeMs);
  str(R.TimeSource);
  f64(R.SetupMs);
  str(R.Setup);
  properties(R.Facts);
}

bool WireReader::take(void *Out, size_t N) {
  if (N == 0) // an empty string's or array's data() may be null
    return !Failed;
  if (Failed || Data.size() - Pos < N) {
    Failed = true;
    std::memset(Out, 0, N);
    return false;
  }
  std::memcpy(Out, Data.data() + Pos, N);
  Pos += N;
  return true;
}

uint64_t WireReader::count(size_t MinBytes) {
  uint64_t N = u64();
  if (!Failed && N > (Data.size() - Pos) / std::max<size_t>(MinBytes, 1))
    Failed = true;
  return Failed ? 0 : N;
}

uint8_t WireReader::u8() {
  uint8_t V;
  take(&V, 1);
  return V;
}
uint32_t WireReader::u32() {
  uint32_t V;
  take(&V, 4);
  return V;
}
uint64_t WireReader::u64() {
  uint64_t V;
  take(&V, 8);
  return V;
}
double WireReader::f64() {
  double V;
  take(&V, 8);
  return V;
}

std::string WireReader::str() {
  uint64_t N = count(1);
  std::string S(N, '\0');
  take(S.data(), N);
  return S;
}

std::vector<uint8_t> WireReader::bytes() {
  uint64_t N = count(1);
  if (Failed)
    return {};
  // Constructed from the range: no zero-filling pass over a large array.
  std::vector<uint8_t> B(Data.begin() + Pos, Data.begin() + Pos + N);
  Pos += N;
  return B;
}

Dim3 WireReader::dim3() {
  Dim3 D;
  D.X = u32();
  D.Y = u32();
  D.Z = u32();
  return D;
}

HostValue WireReader::value() {
  if (++Depth > 64)
    Failed = true;
  HostValue V;
  auto Kind = HostValue::Kind(u8());
  auto ScalarOf = [&] {
    uint8_t K = u8();
    if (K > uint8_t(ScalarKind::Float64))
      Failed = true;
    return Failed ? ScalarKind::Int64 : ScalarKind(K);
  };
  if (!Failed)
    switch (Kind) {
    case HostValue::Kind::Nothing:
      break;
    case HostValue::Kind::Scalar: {
      ScalarKind K = ScalarOf();
      V = HostValue::scalar(K, u64());
      break;
    }
    case HostValue::Kind::Tuple:
      V = HostValue::tuple(values());
      break;
    case HostValue::Kind::Array: {
      ScalarKind K = ScalarOf();
      std::vector<int64_t> Dims(count(8));
      uint64_t Elements = 1;
      for (int64_t &D : Dims) {
        D = int64_t(u64());
        // Each dimension is bounded by the message, so the product cannot
        // wrap unless the message is malformed.
        if (D < 0 || uint64_t(D) > Data.size())
          Failed = true;
        else
          Elements *= uint64_t(D);
      }
      std::vector<uint8_t> B = bytes();
      // HostValue::array asserts on a mismatch; a reader must not.
      if (Failed || B.size() != Elements * scalarBytes(K))
        Failed = true;
      else
        V = HostValue::array(K, std::move(Dims), std::move(B));
      break;
    }
    case HostValue::Kind::Function:
      V = HostValue::function(str());
      break;
    default:
      Failed = true;
    }
  --Depth;
  return Failed ? HostValue() : V;
}

std::vector<HostValue> WireReader::values() {
  std::vector<HostValue> Vs(count(1));
  for (HostValue &V : Vs)
    V = value();
  return Vs;
}

std::vector<DeviceProperty> WireReader::properties() {
  std::vector<DeviceProperty> Ps(count(16));
  for (DeviceProperty &P : Ps) {
    P.first = str();
    P.second = str();
  }
  return Ps;
}

DiagLoc WireReader::loc() {
  DiagLoc L;
  L.FileName = str();
  L.Line = u32();
  L.Col = u32();
  L.EndLine = u32();
  L.EndCol = u32();
  return L;
}

Diagnostic WireReader::diagnostic() {
  Diagnostic D;
  uint8_t Sev = u8();
  D.Sev = Sev <= uint8_t(Severity::Note) ? Severity(Sev) : Severity::Error;
  D.Kind = str();
  D.Message = str();
  D.Loc = loc();
  D.Notes.resize(count(8 + 24));
  for (DiagNote &N : D.Notes) {
    N.Message = str();
    N.Loc = loc();
  }
  D.Backtrace.resize(count(8 + 24));
  for (BacktraceFrame &F : D.Backtrace) {
    F.Function = str();
    F.Loc = loc();
  }
  return D;
}

std::vector<Diagnostic> WireReader::diagnostics() {
  std::vector<Diagnostic> Ds(count(16));
  for (Diagnostic &D : Ds)
    D = diagnostic();
  return Ds;
}

LaunchResult WireReader::launchResult() {
  LaunchResult R;
  R.Return = value();
  R.Args = values();
  R.TimeMs = f64();
  R.TimeSource = str();
  R.SetupMs = f64();
  R.Setup = str();
  R.Facts = properties();
  return R;
}

/// Frames larger than this are refused (arrays of a few GiB are not what
/// `prism run` is for, and a corrupt length must not allocate that much).
static constexpr uint64_t MaxFrame = uint64_t(1) << 34;

static bool writeAll(int Fd, const void *P, size_t N) {
  const char *B = static_cast<const char *>(P);
  while (N) {
    // MSG_NOSIGNAL: a dead peer is an error here, not a SIGPIPE.
    ssize_t W = ::send(Fd, B, N, MSG_NOSIGNAL);
    if (W < 0 && errno == EINTR)
      continue;
    if (W <= 0)
      return false;
    B += W;
    N -= size_t(W);
  }
  return true;
}

static bool readAll(int Fd, void *P, size_t N) {
  char *B = static_cast<char *>(P);
  while (N) {
    ssize_t R = ::read(Fd, B, N);
    if (R < 0 && errno == EINTR)
      continue;
    if (R <= 0)
      return false;
    B += R;
    N -= size_t(R);
  }
  return true;
}

bool sendWireFrame(int Fd, const WireWriter &W) {
  uint64_t N = W.size();
  if (!writeAll(Fd, &N, sizeof N))
    return false;
  for (llvm::ArrayRef<uint8_t> Run : W.runs())
    if (!writeAll(Fd, Run.data(), Run.size()))
      return false;
  return true;
}

bool readWireFrame(int Fd, WireFrame &F) {
  uint64_t N = 0;
  if (!readAll(Fd, &N, sizeof N) || N > MaxFrame)
    return false;
  // Not zero-filled: the socket overwrites every byte.
  F.Bytes.reset(new uint8_t[N]);
  F.Size = N;
  return readAll(Fd, F.Bytes.get(), N);
}

} // namespace prism
