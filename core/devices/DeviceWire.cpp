#include "devices/DeviceWire.h"

#include <algorithm>
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
  if (B.size() < BorrowAtLeast)
    put(B.data(), B.size());
  else
    Attachments.push_back(B);
}

WireFrame WireWriter::frame() const {
  WireFrame F;
  F.Size = Data.size();
  F.Bytes.reset(new uint8_t[F.Size]);
  std::copy(Data.begin(), Data.end(), F.Bytes.get());
  for (llvm::ArrayRef<uint8_t> A : Attachments)
    F.Attachments.emplace_back(A.begin(), A.end());
  return F;
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
  case HostValue::Kind::Type:
    str(V.typeValueName());
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
    u8(F.Inlined);
    u64(F.Repeats);
    u64(F.OmittedAfter);
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

WireReader::WireReader(WireFrame &F)
    : Data(F.view()), Attachments(F.Attachments) {
  for (const std::vector<uint8_t> &A : F.Attachments)
    AttachedBytes += A.size();
}

std::vector<uint8_t> WireReader::bytes() {
  uint64_t N = u64();
  if (!Failed && N >= WireWriter::BorrowAtLeast) {
    if (NextAttachment == Attachments.size() ||
        Attachments[NextAttachment].size() != N) {
      Failed = true;
      return {};
    }
    return std::move(Attachments[NextAttachment++]);
  }
  if (Failed || N > Data.size() - Pos) {
    Failed = true;
    return {};
  }
  // Constructed from the range: no zero-filling pass first.
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
        // The elements must fit in the message, so the product is checked
        // against its size before it could wrap.
        uint64_t Limit = Data.size() + AttachedBytes;
        if (D < 0 || (D && Elements > Limit / uint64_t(D)))
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
    case HostValue::Kind::Type:
      V = HostValue::type(str());
      break;
    default:
      Failed = true;
    }
  --Depth;
  if (Failed)
    return HostValue();
  return V; // moved (a conditional expression would copy an array)
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
  D.Backtrace.resize(count(8 + 24 + 1 + 16));
  for (BacktraceFrame &F : D.Backtrace) {
    F.Function = str();
    F.Loc = loc();
    F.Inlined = u8() != 0;
    F.Repeats = u64();
    F.OmittedAfter = u64();
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

// A frame: the message's length and its attachments' count, their
// lengths, the message, then each attachment.
bool sendWireFrame(int Fd, const WireWriter &W) {
  llvm::ArrayRef<llvm::ArrayRef<uint8_t>> As = W.attachments();
  std::vector<uint64_t> Header = {W.inlineBytes().size(), As.size()};
  for (llvm::ArrayRef<uint8_t> A : As)
    Header.push_back(A.size());
  if (!writeAll(Fd, Header.data(), Header.size() * sizeof(uint64_t)) ||
      !writeAll(Fd, W.inlineBytes().data(), W.inlineBytes().size()))
    return false;
  for (llvm::ArrayRef<uint8_t> A : As)
    if (!writeAll(Fd, A.data(), A.size()))
      return false;
  return true;
}

bool readWireFrame(int Fd, WireFrame &F) {
  uint64_t N = 0, Count = 0;
  if (!readAll(Fd, &N, sizeof N) || !readAll(Fd, &Count, sizeof Count) ||
      N > MaxFrame || Count > MaxFrame / WireWriter::BorrowAtLeast)
    return false;
  std::vector<uint64_t> Sizes(Count);
  if (!readAll(Fd, Sizes.data(), Count * sizeof(uint64_t)))
    return false;
  uint64_t Total = N; // each term is checked before it is added: no wrap
  for (uint64_t S : Sizes)
    if (S < WireWriter::BorrowAtLeast || S > MaxFrame - Total)
      return false;
    else
      Total += S;
  // Not zero-filled: the socket overwrites every byte.
  F.Bytes.reset(new uint8_t[N]);
  F.Size = N;
  if (!readAll(Fd, F.Bytes.get(), N))
    return false;
  F.Attachments.resize(Count);
  for (uint64_t I = 0; I < Count; ++I) {
    F.Attachments[I].resize(Sizes[I]);
    if (!readAll(Fd, F.Attachments[I].data(), Sizes[I]))
      return false;
  }
  return true;
}

} // namespace prism
