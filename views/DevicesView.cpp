#include "DevicesView.h"

#include "llvm/ADT/STLExtras.h"

#include <cstdio>

namespace prism::views {

std::optional<cmd::RunOnDevice> RunForm::toCommand(JobId Job,
                                                    std::string &Error) const {
  std::string_view C = Call;
  while (!C.empty() && C.front() == ' ')
    C.remove_prefix(1);
  size_t Open = C.find('(');
  if (C.empty() || Open == 0 || Open == std::string_view::npos ||
      C.find(')') == std::string_view::npos) {
    Error = "write a call, e.g. saxpy!(2f0, rand(Float32, 1024), "
            "zeros(Float32, 1024))";
    return std::nullopt;
  }
  auto B = parseDims(Blocks), T = parseDims(Threads);
  if (!B || !T) {
    Error = "blocks and threads are X[,Y[,Z]] with positive integers";
    return std::nullopt;
  }
  if (Device.empty()) {
    Error = "pick a device";
    return std::nullopt;
  }
  cmd::RunOnDevice R;
  R.Device = Device;
  R.Job = Job;
  R.Call = std::string(C);
  R.Blocks = *B;
  R.Threads = *T;
  R.Seed = uint64_t(Seed < 0 ? 0 : Seed);
  Error.clear();
  return R;
}

RunComparison compareRuns(const std::string &NameA, const RunResult &A,
                          const std::string &NameB, const RunResult &B) {
  RunComparison C;
  if (A.Call != B.Call) {
    C.Detail = NameA + " and " + NameB + " last ran different calls";
    return C;
  }
  if (!A.Ran || !B.Ran) {
    // A device that could not run the call says nothing about the other's
    // results (interp has no bpf packet ABI, a device may be missing).
    const RunResult &Refused = A.Ran ? B : A;
    std::string First = Refused.Summary.substr(0, Refused.Summary.find('\n'));
    size_t E = First.find("error: ");
    C.Detail = (A.Ran ? NameB : NameA) + " could not run this call: " +
               (E == std::string::npos ? First : First.substr(E + 7));
    return C;
  }
  C.Comparable = true;
  if (A.Ok != B.Ok) {
    const RunResult &Failed = A.Ok ? B : A;
    C.Detail = (A.Ok ? NameB : NameA) + " failed where " + (A.Ok ? NameA : NameB) +
               " ran: " + Failed.Summary.substr(0, Failed.Summary.find('\n'));
    return C;
  }
  if (!A.Ok) {
    // Both failed: they agree when they report the same exception.
    auto Kind = [](const std::string &S) {
      std::string First = S.substr(0, S.find('\n'));
      size_t E = First.find("error: ");
      First = E == std::string::npos ? First : First.substr(E + 7);
      return First.substr(0, First.find(" ("));
    };
    std::string KA = Kind(A.Summary), KB = Kind(B.Summary);
    size_t In = KA.find(" in `");
    KA = KA.substr(0, In);
    KB = KB.substr(0, KB.find(" in `"));
    C.Agree = KA == KB;
    C.Detail = C.Agree ? "both failed the same way: " + KA
                       : NameA + ": " + KA + "; " + NameB + ": " + KB;
    return C;
  }
  if (A.Values == B.Values) {
    C.Agree = true;
    C.Detail = "same return value and arrays, bit for bit";
    return C;
  }
  // The first line that differs.
  size_t PA = 0, PB = 0;
  while (PA < A.Values.size() || PB < B.Values.size()) {
    size_t EA = A.Values.find('\n', PA), EB = B.Values.find('\n', PB);
    std::string LA = A.Values.substr(PA, EA - PA), LB = B.Values.substr(PB, EB - PB);
    if (LA != LB) {
      C.Detail = NameA + ": " + LA + "\n" + NameB + ": " + LB;
      break;
    }
    if (EA == std::string::npos || EB == std::string::npos)
      break;
    PA = EA + 1;
    PB = EB + 1;
  }
  return C;
}

static std::optional<RunForm> runLineForm(std::string_view Source,
                                          std::string_view Function,
                                          std::string_view Prefix) {
  size_t Pos = 0;
  while (Pos < Source.size()) {
    size_t End = Source.find('\n', Pos);
    std::string_view Line = Source.substr(
        Pos, End == std::string_view::npos ? std::string_view::npos : End - Pos);
    Pos = End == std::string_view::npos ? Source.size() : End + 1;
    if (!Line.starts_with(Prefix))
      continue;
    Line.remove_prefix(Prefix.size());
    if (!Line.starts_with(std::string(Function) + "("))
      continue;
    // The call ends at its balancing parenthesis; options follow.
    int Depth = 0;
    size_t Close = std::string_view::npos;
    for (size_t I = 0; I < Line.size() && Close == std::string_view::npos; ++I)
      if (Line[I] == '(')
        ++Depth;
      else if (Line[I] == ')' && --Depth == 0)
        Close = I;
    if (Close == std::string_view::npos)
      continue;
    RunForm F;
    F.Call = std::string(Line.substr(0, Close + 1));
    std::string_view Rest = Line.substr(Close + 1);
    auto Option = [&Rest](std::string_view Name) -> std::optional<std::string> {
      size_t P = Rest.find(Name);
      if (P == std::string_view::npos)
        return std::nullopt;
      std::string_view V = Rest.substr(P + Name.size());
      while (!V.empty() && (V.front() == ' ' || V.front() == '='))
        V.remove_prefix(1);
      return std::string(V.substr(0, V.find(' ')));
    };
    if (auto B = Option("--blocks"))
      F.Blocks = *B;
    if (auto T = Option("--threads"))
      F.Threads = *T;
    if (auto D = Option("--device"))
      F.Device = *D;
    return F;
  }
  return std::nullopt;
}

std::optional<RunForm> runHeaderForm(std::string_view Source,
                                     std::string_view Function) {
  // A call that fails on purpose (exceptions.jl's BoundsError) is still
  // the file's own example, better than arguments made up from types.
  if (std::optional<RunForm> F = runLineForm(Source, Function, "# run: "))
    return F;
  return runLineForm(Source, Function, "# run-fails: ");
}

std::string exampleCall(std::string_view Sig, std::string *Unbuildable) {
  size_t Open = Sig.find('(');
  if (Open == std::string_view::npos)
    return std::string(Sig);
  std::string Out(Sig.substr(0, Open + 1));
  std::string_view Args = Sig.substr(Open + 1);
  if (!Args.empty() && Args.back() == ')')
    Args.remove_suffix(1);
  int Depth = 0;
  size_t Begin = 0;
  bool First = true;
  // A BPF program's packet: an Ethernet header announcing IPv4; the length
  // argument after it is that frame's (the bpf device checks it).
  constexpr std::string_view Frame =
      "UInt8[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00, 0x11, 0x22, 0x33, "
      "0x44, 0x55, 0x08, 0x00]";
  bool AfterPacket = false;
  auto Emit = [&](std::string_view T) {
    while (!T.empty() && T.front() == ' ')
      T.remove_prefix(1);
    while (!T.empty() && T.back() == ' ')
      T.remove_suffix(1);
    if (T.empty())
      return;
    if (!First)
      Out += ", ";
    First = false;
    const bool Packet = AfterPacket;
    AfterPacket = false;
    if (T == "Ptr{UInt8}") {
      Out += Frame;
      AfterPacket = true;
    } else if (Packet && (T.starts_with("Int") || T.starts_with("UInt"))) {
      Out += std::string(T) + "(14)";
    } else if (T.starts_with("DeviceArray{")) {
      std::string_view Elt = T.substr(12);
      std::string_view Rank = Elt.substr(Elt.find(',') + 1);
      Elt = Elt.substr(0, Elt.find(','));
      // A square shape for matrices, a long vector otherwise.
      Out += "rand(" + std::string(Elt) +
             (Rank.starts_with("2") ? ", 32, 32)" : ", 1024)");
    } else if (T.starts_with("typeof(") && T.back() == ')') {
      Out += std::string(T.substr(7, T.size() - 8));
    } else if (T == "Float32") {
      Out += "1f0";
    } else if (T == "Float64") {
      Out += "1.0";
    } else if (T == "Bool") {
      Out += "true";
    } else if (T.starts_with("Int") || T.starts_with("UInt")) {
      Out += std::string(T) + "(1)";
    } else {
      Out += "?";
      if (Unbuildable && Unbuildable->empty())
        *Unbuildable = std::string(T);
    }
  };
  for (size_t I = 0; I < Args.size(); ++I) {
    char C = Args[I];
    if (C == '{' || C == '(')
      ++Depth;
    else if (C == '}' || C == ')')
      --Depth;
    else if (C == ',' && Depth == 0) {
      Emit(Args.substr(Begin, I - Begin));
      Begin = I + 1;
    }
  }
  Emit(Args.substr(Begin));
  // A call with a hole would only fail to parse: better none.
  if (Out.find('?') != std::string::npos)
    return {};
  return Out + ")";
}

void DevicesView::draw(ViewContext &Ctx, bool *Open) {
  if (Open && !*Open)
    return;
  if (ImGui::Begin("Devices", Open))
    drawContent(Ctx);
  ImGui::End();
}

void DevicesView::drawContent(ViewContext &Ctx) {
  const GuiSnapshot &Snap = Ctx.Snap;
  const Palette &P = Ctx.Colors;
  if (!Snap.HostSummary.empty())
    ImGui::TextDisabled("%s", Snap.HostSummary.c_str());
  // First, where it is seen: does the device agree with the reference?
  drawComparison(Ctx);
  // Then the form, where the panel opens (the device list below it grows
  // with every run's output and would push it out of sight).
  drawRunForm(Ctx);
  ImGui::Separator();
  if (Snap.Devices.empty()) {
    ImGui::Spacing();
    ImGui::TextWrapped("%s", Snap.CompilerConnected
                                 ? "probing devices…"
                                 : "device probing (host JIT, BPF, CUDA) "
                                   "arrives with the compiler workspace; "
                                   "`prism devices` reports them from the "
                                   "command line.");
  }
  // The Run form's device first, then the one it compares with: their last
  // runs are what the form just did, right below it.
  std::vector<const DeviceEntry *> Order;
  for (const std::string *Name : {&Form.Device, &Form.CompareWith})
    for (const DeviceEntry &D : Snap.Devices)
      if (D.Name == *Name && llvm::find(Order, &D) == Order.end())
        Order.push_back(&D);
  for (const DeviceEntry &D : Snap.Devices)
    if (llvm::find(Order, &D) == Order.end())
      Order.push_back(&D);
  for (const DeviceEntry *Entry : Order) {
    const DeviceEntry &D = *Entry;
    ImGui::PushID(D.Name.c_str());
    ImU32 C = D.State == DeviceState::Available ? P.Ok
              : D.State == DeviceState::Busy    ? P.Busy
                                                : P.Muted;
    ImVec2 Pos = ImGui::GetCursorScreenPos();
    float H = ImGui::GetTextLineHeight();
    ImGui::GetWindowDrawList()->AddCircleFilled(
        ImVec2(Pos.x + H * 0.4f, Pos.y + H * 0.5f), H * 0.28f, C);
    ImGui::Dummy(ImVec2(H * 0.9f, H));
    ImGui::SameLine();
    ImGui::Text("%s", D.Name.c_str());
    ImGui::SameLine();
    ImGui::TextDisabled("%s", deviceStateName(D.State));
    ImGui::Indent(H * 1.2f);
    if (!D.Description.empty())
      ImGui::TextWrapped("%s", D.Description.c_str());
    if (D.State == DeviceState::Unavailable && !D.Reason.empty()) {
      ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(P.Muted));
      ImGui::TextWrapped("%s", D.Reason.c_str());
      ImGui::PopStyleColor();
    }
    if (D.LastRun) {
      const RunResult &R = *D.LastRun;
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(R.Stale ? P.Muted
                                                        : R.Ok  ? P.Ok
                                                                : P.Failed),
                         "%s", R.Ok ? "last run ok" : "last run failed");
      if (R.Ok) { // a run that failed has no time worth showing
        ImGui::SameLine();
        ImGui::TextDisabled("%.3f ms", R.TimeMs);
      }
      if (R.Stale) {
        ImGui::PushStyleColor(ImGuiCol_Text,
                              ImGui::ColorConvertU32ToFloat4(P.Warning));
        ImGui::TextWrapped("stale: the program changed since this run; "
                           "press Run to run the new code");
        ImGui::PopStyleColor();
      }
      ImGui::TextWrapped("%s", R.Call.c_str());
      if (!R.Summary.empty())
        ImGui::TextWrapped("%s", R.Summary.c_str());
      // A stale run's job holds the edited code now, not what ran.
      if (R.Job && !R.Stale) {
        // The run compiled its own job (the device's target and arch):
        // the stage panes show it once it is selected.
        const JobEntry *Sel = Ctx.selectedJob();
        bool Shown = Sel && Snap.jobOf(*R.Job) == Sel;
        if (Shown) {
          ImGui::TextDisabled("its code is the selected job's");
        } else if (ImGui::SmallButton("Show the code that ran")) {
          Ctx.Sink.post(cmd::ShowJob{*R.Job});
        }
        if (ImGui::IsItemHovered())
          ImGui::SetTooltip("%s · %s%s%s -O%u", R.Job->Signature.c_str(),
                            R.Job->Target.c_str(),
                            R.Job->Arch.empty() ? "" : " ", R.Job->Arch.c_str(),
                            R.Job->OptLevel);
      }
      if (!R.Loaded.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(P.Muted));
        ImGui::TextWrapped("loaded: %s", R.Loaded.c_str());
        ImGui::PopStyleColor();
      }
      if (!R.Output.empty() && ImGui::TreeNode("output")) {
        ImGui::PushFont(Ctx.Mono ? Ctx.Mono : ImGui::GetFont());
        ImGui::InputTextMultiline("##out", const_cast<char *>(R.Output.c_str()),
                                  R.Output.size() + 1, ImVec2(-1, 120),
                                  ImGuiInputTextFlags_ReadOnly);
        ImGui::PopFont();
        ImGui::TreePop();
      }
      if (!R.Log.empty() && ImGui::TreeNode("log")) {
        ImGui::PushFont(Ctx.Mono ? Ctx.Mono : ImGui::GetFont());
        ImGui::InputTextMultiline("##log", const_cast<char *>(R.Log.c_str()),
                                  R.Log.size() + 1, ImVec2(-1, 120),
                                  ImGuiInputTextFlags_ReadOnly);
        ImGui::PopFont();
        ImGui::TreePop();
      }
    }
    ImGui::Unindent(H * 1.2f);
    ImGui::PopID();
  }
}

void DevicesView::drawRunForm(ViewContext &Ctx) {
  const GuiSnapshot &Snap = Ctx.Snap;
  const JobEntry *J = Ctx.selectedJob();
  if (J && Preset) {
    PrefilledFor = J->Spec.Signature;
    Preset = false;
  }
  if (J && PrefilledFor != J->Spec.Signature) {
    PrefilledFor = J->Spec.Signature;
    std::string_view Sig = J->Spec.Signature;
    std::string_view Fn = Sig.substr(0, Sig.find('('));
    std::optional<RunForm> Header = runHeaderForm(Snap.Source, Fn);
    std::string Unbuildable;
    Form.Call = Header ? Header->Call : exampleCall(Sig, &Unbuildable);
    PrefillNote =
        Unbuildable.empty()
            ? std::string()
            : "No call is filled in for the " + Unbuildable +
                  " argument: write it as a constructor call with its "
                  "fields' values, `" +
                  Unbuildable +
                  "(…)` (numbers, tuples and structs of them; not type "
                  "parameters or arrays).";
    CallHint = std::string(Fn) + "(…)";
    Form.Blocks = Header ? Header->Blocks : "1";
    Form.Threads = Header ? Header->Threads : "1";
    Form.Device = "host";
    // The job's own device when it can run here; the host otherwise.
    const char *Own = J->Spec.Target == "bpf"   ? "bpf"
                      : J->Spec.Target == "ptx" ? "cuda"
                                                : nullptr;
    if (Header && Header->Device != "host")
      Own = Header->Device == "bpf" ? "bpf" : Header->Device == "cuda" ? "cuda" : Own;
    for (const DeviceEntry &X : Snap.Devices)
      if (Own && X.Name == Own && X.State != DeviceState::Unavailable)
        Form.Device = Own;
  }
  ImGui::TextUnformatted("Run");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(90);
  if (ImGui::BeginCombo("##dev", Form.Device.c_str())) {
    for (const char *D : {"host", "bpf", "cuda", "interp"}) {
      const DeviceEntry *E = nullptr;
      for (const DeviceEntry &X : Snap.Devices)
        if (X.Name == D)
          E = &X;
      bool Usable = E && E->State != DeviceState::Unavailable;
      if (ImGui::Selectable(D, Form.Device == D, Usable ? 0 : ImGuiSelectableFlags_Disabled))
        Form.Device = D;
    }
    ImGui::EndCombo();
  }
  if (!PrefillNote.empty() && Form.Call.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text,
                          ImGui::ColorConvertU32ToFloat4(Ctx.Colors.Muted));
    ImGui::TextWrapped("%s", PrefillNote.c_str());
    ImGui::PopStyleColor();
  }
  char Buf[1024];
  std::snprintf(Buf, sizeof Buf, "%s", Form.Call.c_str());
  ImGui::SetNextItemWidth(-1);
  if (ImGui::InputTextWithHint("##call", CallHint.c_str(), Buf, sizeof Buf))
    Form.Call = Buf;
  char B[32], T[32];
  std::snprintf(B, sizeof B, "%s", Form.Blocks.c_str());
  std::snprintf(T, sizeof T, "%s", Form.Threads.c_str());
  ImGui::SetNextItemWidth(70);
  if (ImGui::InputText("blocks", B, sizeof B))
    Form.Blocks = B;
  ImGui::SameLine();
  ImGui::SetNextItemWidth(70);
  if (ImGui::InputText("threads", T, sizeof T))
    Form.Threads = T;
  // Seed and the button on their own line: the panel is often narrow.
  ImGui::SetNextItemWidth(70);
  ImGui::InputInt("seed", &Form.Seed, 0);
  ImGui::SameLine();
  bool CanRun = Snap.CompilerConnected;
  ImGui::BeginDisabled(!CanRun);
  if (ImGui::Button("Run")) {
    if (auto C = Form.toCommand(J ? J->Id : 0, FormError)) {
      std::optional<cmd::RunOnDevice> Ref;
      if (!Form.CompareWith.empty() && Form.CompareWith != C->Device) {
        // The reference runs with its device's defaults: the job's target
        // options belong to the job's own device.
        Ref = *C;
        Ref->Device = Form.CompareWith;
        Ref->Job = 0;
      }
      Ctx.Sink.post(std::move(*C));
      if (Ref)
        Ctx.Sink.post(std::move(*Ref));
    }
  }
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::SetNextItemWidth(110);
  const char *Shown = Form.CompareWith.empty() ? "compare: off" : Form.CompareWith.c_str();
  if (ImGui::BeginCombo("##cmp", Shown)) {
    if (ImGui::Selectable("compare: off", Form.CompareWith.empty()))
      Form.CompareWith.clear();
    for (const char *D : {"interp", "host"})
      if (ImGui::Selectable(D, Form.CompareWith == D))
        Form.CompareWith = D;
    ImGui::EndCombo();
  }
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("also run the call on this device and compare the results");
  if (!CanRun && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip("needs the compiler workspace");
  if (!FormError.empty())
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(Ctx.Colors.Error), "%s",
                       FormError.c_str());
}

void DevicesView::drawComparison(ViewContext &Ctx) {
  if (Form.CompareWith.empty() || Form.CompareWith == Form.Device)
    return;
  const DeviceEntry *A = nullptr, *B = nullptr;
  for (const DeviceEntry &D : Ctx.Snap.Devices) {
    if (D.Name == Form.Device)
      A = &D;
    if (D.Name == Form.CompareWith)
      B = &D;
  }
  if (!A || !B || !A->LastRun || !B->LastRun)
    return;
  RunComparison C = compareRuns(A->Name, *A->LastRun, B->Name, *B->LastRun);
  const Palette &P = Ctx.Colors;
  bool Stale = A->LastRun->Stale || B->LastRun->Stale;
  ImU32 Col = !C.Comparable || Stale ? P.Muted : C.Agree ? P.Ok : P.Failed;
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(Col), "%s vs %s: %s%s",
                     A->Name.c_str(), B->Name.c_str(),
                     !C.Comparable ? "not comparable"
                     : C.Agree     ? "agree"
                                   : "DIFFER",
                     Stale ? " (stale)" : "");
  if (C.Comparable && A->LastRun->Ok && B->LastRun->Ok)
    ImGui::TextDisabled("%s %.3f ms, %s %.3f ms", A->Name.c_str(),
                        A->LastRun->TimeMs, B->Name.c_str(),
                        B->LastRun->TimeMs);
  ImGui::PushFont(Ctx.Mono ? Ctx.Mono : ImGui::GetFont());
  ImGui::TextWrapped("%s", C.Detail.c_str());
  ImGui::PopFont();
  ImGui::Separator();
}

} // namespace prism::views
