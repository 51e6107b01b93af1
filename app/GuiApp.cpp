// The desktop window loop: GLFW + OpenGL 3 + Dear ImGui around the views'
// ShellView, driven by the Workspace (through WorkspaceSession), and the
// headless screenshot/benchmark modes used by tests and docs.
#include "Commands.h"

#include "DevicesView.h"
#include "ShellView.h"
#include "ViewModel.h"
#include "WorkspaceSession.h"
#include "devices/CallRunner.h"
#include "support/SourceRead.h"
#include "targets/HostInfo.h"

#include <GLFW/glfw3.h>
#include <cfloat>
#include <cstdio>
#include <cerrno>
#include <sys/stat.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>
#include <stb_image_write.h>

extern "C" unsigned char *stbi_write_png_to_mem(const unsigned char *, int, int,
                                               int, int, int *);

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <vector>

namespace prism::app {

namespace {

std::string examplesDir() {
  return std::string(PRISM_SOURCE_DIR) + "/assets/examples";
}

std::string defaultExample() { return examplesDir() + "/saxpy.jl"; }

/// The jobs an example file asks for in its header: each `# job: SIG` on
/// the first of `# targets: ...`, and the first job on the other targets.
/// Drops a trailing ` --no-kernel` from a job's signature text (a header
/// line's, or --job's); whether there was one.
bool stripNoKernel(std::string &Sig) {
  if (!llvm::StringRef(Sig).endswith(" --no-kernel"))
    return false;
  Sig.resize(Sig.size() - std::strlen(" --no-kernel"));
  return true;
}

std::vector<views::cmd::AddJob> exampleJobs(const std::string &File) {
  std::vector<std::string> Sigs, Targets;
  if (auto Buf = readSourceFile(File)) {
    llvm::StringRef Rest = (*Buf)->getBuffer();
    while (!Rest.empty()) {
      auto [Line, Tail] = Rest.split('\n');
      Rest = Tail;
      if (!Line.startswith("#"))
        break;
      Line = Line.drop_front().trim();
      if (Line.consume_front("job:"))
        Sigs.push_back(Line.trim().str());
      else if (Line.consume_front("targets:") ||
               // A teaching example that fails everywhere (unstable.jl)
               // opens on the targets it fails on.
               (Targets.empty() && Line.consume_front("fails:"))) {
        Targets.clear();
        llvm::SmallVector<llvm::StringRef> Ts;
        Line.split(Ts, ' ', -1, false);
        for (llvm::StringRef T : Ts)
          Targets.push_back(T.str());
      }
    }
  }
  // As `--job` without a header line: a GPU kernel file opens on ptx.
  if (Targets.empty())
    Targets.push_back("ptx");
  std::vector<views::cmd::AddJob> Jobs;
  auto Add = [&](std::string Sig, const std::string &T) {
    // `# job: f(Int) --no-kernel`: a device function even on GPU targets.
    bool NoKernel = stripNoKernel(Sig);
    views::cmd::AddJob A;
    A.Spec.Signature = Sig;
    A.Spec.Target = T;
    A.Spec.Kernel = !NoKernel && T != "native" && T != "bpf";
    Jobs.push_back(std::move(A));
  };
  for (const std::string &Sig : Sigs)
    Add(Sig, Targets.front());
  if (!Sigs.empty())
    for (size_t I = 1; I < Targets.size(); ++I)
      Add(Sigs.front(), Targets[I]);
  return Jobs;
}

/// The job `--job` asks for, as the code_* commands would compile it: the
/// target --target names, else the first the header lists for this
/// signature, else ptx; a kernel on ptx and gcn unless --no-kernel (or the
/// header's `--no-kernel`) says otherwise, a function on native and bpf
/// unless --kernel.
views::cmd::AddJob jobOfOptions(const CommandOptions &O,
                                const std::vector<views::cmd::AddJob> &Header) {
  views::cmd::AddJob Add;
  std::string Sig = O.Job;
  // As in a header line: `--job 'f(Int) --no-kernel'`.
  bool NoKernel = stripNoKernel(Sig) || O.NoKernel;
  const views::cmd::AddJob *Listed = nullptr;
  for (const views::cmd::AddJob &H : Header)
    if (H.Spec.Signature == Sig) {
      Listed = &H;
      break;
    }
  Add.Spec.Signature = Sig;
  Add.Spec.Target = O.TargetGiven ? O.Target
                    : Listed      ? Listed->Spec.Target
                                  : std::string("ptx");
  bool GPU = Add.Spec.Target == "ptx" || Add.Spec.Target == "gcn";
  bool HeaderNoKernel =
      Listed && !Listed->Spec.Kernel &&
      (Listed->Spec.Target == "ptx" || Listed->Spec.Target == "gcn");
  Add.Spec.Kernel = O.Kernel || (GPU && !NoKernel && !HeaderNoKernel);
  Add.Spec.Checks = O.Bounds;
  return Add;
}

/// Writes the back buffer as a PNG. stb's own file writer ignores write
/// errors, so the PNG is encoded in memory and written here: a full disk or
/// a file-size limit is an error with its reason, never a truncated file.
bool writeScreenshot(GLFWwindow *W, const std::string &Path, std::string &Error) {
  int Width = 0, Height = 0;
  glfwGetFramebufferSize(W, &Width, &Height);
  std::vector<unsigned char> Pixels(size_t(Width) * Height * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, Width, Height, GL_RGBA, GL_UNSIGNED_BYTE, Pixels.data());
  // OpenGL's origin is bottom-left; PNG rows go top-down.
  stbi_flip_vertically_on_write(1);
  int Len = 0;
  unsigned char *Png =
      stbi_write_png_to_mem(Pixels.data(), Width * 4, Width, Height, 4, &Len);
  if (!Png) {
    Error = "cannot encode the PNG";
    return false;
  }
  std::FILE *F = std::fopen(Path.c_str(), "wb");
  bool Ok = F && std::fwrite(Png, 1, size_t(Len), F) == size_t(Len);
  int Err = errno;
  if (F && std::fclose(F) != 0 && Ok) {
    Ok = false;
    Err = errno;
  }
  std::free(Png);
  if (!Ok) {
    Error = std::strerror(Err);
    // No truncated PNG left behind; but only a regular file is ours to
    // remove (the path may be a device such as /dev/full).
    struct stat St;
    if (F && ::lstat(Path.c_str(), &St) == 0 && S_ISREG(St.st_mode))
      std::remove(Path.c_str());
  }
  return Ok;
}

/// Loads DejaVu Sans (UI) and DejaVu Sans Mono (code) rasterised at the
/// monitor's scale, with the few non-Latin glyphs the panels use (— ▸ …,
/// box drawing in typed IR, Greek, ℯ). Returns the mono font, or null when the
/// fonts are not installed (ImGui's built-in font, itself monospace, then
/// serves both).
ImFont *loadFonts(float Scale, bool &Baked) {
  static const ImWchar Ranges[] = {0x0020, 0x00FF, 0x0370, 0x03FF, 0x2000,
                                   0x206F, 0x2100, 0x214F, 0x2190, 0x21FF,
                                   0x2200, 0x22FF, 0x2500, 0x257F, 0x25A0,
                                   0x25FF, 0};
  const char *Dirs[] = {"/usr/share/fonts/truetype/dejavu/",
                        "/usr/share/fonts/TTF/", "/usr/share/fonts/dejavu/"};
  std::string Sans, Mono;
  for (const char *D : Dirs) {
    std::string S = std::string(D) + "DejaVuSans.ttf";
    std::string M = std::string(D) + "DejaVuSansMono.ttf";
    if (Sans.empty() && llvm::sys::fs::exists(S))
      Sans = S;
    if (Mono.empty() && llvm::sys::fs::exists(M))
      Mono = M;
  }
  ImGuiIO &IO = ImGui::GetIO();
  ImFontConfig Cfg;
  Cfg.OversampleH = 2;
  Cfg.OversampleV = 1;
  ImFont *MonoFont = nullptr;
  if (!Sans.empty())
    IO.Fonts->AddFontFromFileTTF(Sans.c_str(), std::round(15.0f * Scale), &Cfg,
                                 Ranges);
  if (!Mono.empty())
    MonoFont = IO.Fonts->AddFontFromFileTTF(
        Mono.c_str(), std::round(14.0f * Scale), &Cfg, Ranges);
  if (MonoFont && !Sans.empty()) {
    // DejaVu Sans Mono lacks some letterlike symbols (ℯ, U+212F): merged
    // from DejaVu Sans, which fills only the glyphs the code font lacks.
    static const ImWchar Letterlike[] = {0x2100, 0x214F, 0};
    ImFontConfig Merge = Cfg;
    Merge.MergeMode = true;
    IO.Fonts->AddFontFromFileTTF(Sans.c_str(), std::round(14.0f * Scale),
                                 &Merge, Letterlike);
  }
  Baked = !Sans.empty();
  if (Sans.empty() && Mono.empty()) {
    ImFontConfig Def;
    Def.SizePixels = std::round(13.0f * Scale);
    IO.Fonts->AddFontDefault(&Def);
    Baked = true;
  }
  return MonoFont;
}

std::string iniPath() {
  std::string Dir;
  if (const char *X = std::getenv("XDG_CONFIG_HOME"); X && *X)
    Dir = X;
  else if (const char *H = std::getenv("HOME"); H && *H)
    Dir = std::string(H) + "/.config";
  else
    return {};
  Dir += "/prism";
  if (llvm::sys::fs::create_directories(Dir))
    return {};
  return Dir + "/imgui.ini";
}

views::KeyBindings glfwKeyBindings() {
  views::KeyBindings K;
  K.F = GLFW_KEY_F;
  K.S = GLFW_KEY_S;
  K.R = GLFW_KEY_R;
  K.J = GLFW_KEY_J;
  K.O = GLFW_KEY_O;
  K.Q = GLFW_KEY_Q;
  K.F1 = GLFW_KEY_F1;
  K.F3 = GLFW_KEY_F3;
  K.Equal = GLFW_KEY_EQUAL;
  K.Minus = GLFW_KEY_MINUS;
  return K;
}

/// Whole frames (with the GL rasteriser, which under Xvfb is Mesa's software
/// llvmpipe on the same CPU) and the UI's own CPU time (snapshot, layout and
/// draw lists: NewFrame to Render), which is what Prism controls.
void printFrameStats(const std::vector<double> &FrameMs,
                     const std::vector<double> &UiMs) {
  auto Stats = [](const char *Name, const std::vector<double> &V) {
    std::vector<double> S = V;
    std::sort(S.begin(), S.end());
    double Sum = 0;
    for (double X : S)
      Sum += X;
    auto Pct = [&](double P) {
      return S[std::min(S.size() - 1, size_t(P * (S.size() - 1) + 0.5))];
    };
    llvm::outs() << llvm::format(
        "%s: frames: %zu  median_ms: %.3f  p95_ms: %.3f  max_ms: %.3f  mean_ms: "
        "%.3f  first_ms: %.3f\n",
        Name, S.size(), Pct(0.5), Pct(0.95), S.back(), Sum / S.size(), V.front());
  };
  Stats("frame", FrameMs);
  Stats("ui", UiMs);
}

/// Frames drawn while a compile was in flight and the one that took its
/// result (--bench-edit): none of them may wait for it.
struct BusyFrames {
  unsigned Frames = 0;
  double MaxFrameMs = 0, MaxUiMs = 0;
  /// Each panel's worst draw among those frames.
  std::array<double, size_t(views::Panel::NumPanels)> MaxPanelMs{};
};

} // namespace

int runGui(const CommandOptions &O) {
  std::string File = O.File.empty() ? defaultExample() : O.File;
  glfwSetErrorCallback([](int, const char *) {});
  if (!glfwInit()) {
    // A screenshot was asked for and cannot be made: that is a failure,
    // not a text report.
    if (!O.Screenshot.empty()) {
      llvm::errs() << "prism: error: no display available for --screenshot "
                      "(GLFW could not initialise); run under xvfb-run\n";
      return ExitDevice;
    }
    // The file first: a missing one is the usage error every command gives.
    if (auto Buf = readSourceFile(File); !Buf) {
      llvm::errs() << "prism: cannot read " << File << ": "
                   << Buf.getError().message() << "\n";
      return ExitUsage;
    }
    std::vector<views::cmd::AddJob> Jobs = exampleJobs(File);
    if (Jobs.empty()) {
      llvm::errs() << "prism: no display available (GLFW could not "
                      "initialise); run under xvfb-run for a virtual display. "
                   << File
                   << " has no `# job:` line to report on instead; run `prism "
                      "code_typed "
                   << File << " SIG` for a function's code.\n";
      return ExitDevice;
    }
    llvm::errs() << "prism: no display available (GLFW could not initialise);"
                    " run under xvfb-run for a virtual display. A text report "
                    "of the default job follows.\n\n";
    CommandOptions R = O;
    R.File = File;
    R.Sig = Jobs.front().Spec.Signature;
    R.Target = Jobs.front().Spec.Target;
    return runReport(R);
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  const bool Headless = !O.Screenshot.empty() || O.BenchFrames > 0;
  int WinW = 1600, WinH = 1000;
  if (!Headless)
    if (GLFWmonitor *M = glfwGetPrimaryMonitor()) {
      int X, Y, W, H;
      glfwGetMonitorWorkarea(M, &X, &Y, &W, &H);
      if (W > 0 && H > 0) {
        WinW = std::min(WinW, W);
        WinH = std::min(WinH, H - 40);
      }
    }
  GLFWwindow *Win = glfwCreateWindow(WinW, WinH, "Prism", nullptr, nullptr);
  if (!Win) {
    llvm::errs() << "prism: could not create an OpenGL 3.3 window\n";
    glfwTerminate();
    return ExitDevice;
  }
  glfwMakeContextCurrent(Win);
  glfwSwapInterval(Headless ? 0 : 1);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO &IO = ImGui::GetIO();
  views::ShellView Shell;
  // Layout and settings persist between sessions, but never in headless
  // runs: screenshots and benchmarks must not depend on who ran them before.
  static std::string Ini;
  Ini = Headless ? std::string() : iniPath();
  IO.IniFilename = Ini.empty() ? nullptr : Ini.c_str();
  if (IO.IniFilename)
    Shell.installSettingsHandler();

  float XScale = 1, YScale = 1;
  glfwGetWindowContentScale(Win, &XScale, &YScale);
  float ContentScale = std::clamp(std::max(XScale, YScale), 1.0f, 4.0f);
  bool Baked = false;
  Shell.setMonoFont(loadFonts(ContentScale, Baked));
  Shell.setContentScale(ContentScale, Baked);
  Shell.setKeyBindings(glfwKeyBindings());
  ImGui_ImplGlfw_InitForOpenGL(Win, true);
  ImGui_ImplOpenGL3_Init("#version 330");
  if (ContentScale > 1)
    ImGui::GetStyle().ScaleAllSizes(ContentScale);

  // Headless renders neither leave nor offer an autosave, as they keep no
  // window layout: a screenshot must not depend on who ran before.
  WorkspaceSession Session(File, /*Autosave=*/!Headless);
  if (O.Bounds != CheckBounds::Auto)
    Session.post(views::cmd::SetCheckBounds{O.Bounds});
  // The launch the warp analyses assume, known before the first job
  // compiles (else every ptx job would compile twice): --threads, or the
  // `# run:` line of the first job's function, as the Run form will show.
  std::vector<views::cmd::AddJob> ExampleJobs = exampleJobs(File);
  {
    std::string FirstJob = O.Job;
    if (FirstJob.empty() && !ExampleJobs.empty())
      FirstJob = ExampleJobs.front().Spec.Signature;
    std::string Threads = O.Call.empty() ? std::string() : O.Threads;
    if (Threads.empty() && !FirstJob.empty())
      if (auto Buf = readSourceFile(File))
        if (std::optional<views::RunForm> F = views::runHeaderForm(
                (*Buf)->getBuffer(), std::string_view(FirstJob).substr(
                                         0, FirstJob.find('('))))
          Threads = F->Threads;
    std::array<unsigned, 3> Block = views::launchBlockOf(Threads);
    if (Block != std::array<unsigned, 3>{0, 0, 0}) {
      Session.post(views::cmd::SetLaunchBlock{Block});
      Shell.setPostedBlock(Block);
    }
  }
  if (!O.Job.empty()) {
    views::cmd::AddJob Add = jobOfOptions(O, ExampleJobs);
    Session.post(Add);
    if (O.CompareBounds && *O.CompareBounds != O.Bounds) {
      Add.Spec.Checks = *O.CompareBounds;
      Session.post(Add);
    }
  } else {
    for (views::cmd::AddJob &Add : ExampleJobs) {
      Add.Spec.Checks = O.Bounds;
      Session.post(Add);
    }
  }
  if (!O.Call.empty()) {
    views::cmd::RunOnDevice Run;
    Run.Device = O.Device;
    Run.Call = O.Call;
    auto Grid = parseDim3(O.Blocks), Block = parseDim3(O.Threads);
    if (!Grid || !Block) {
      llvm::errs() << "prism gui: --blocks/--threads take X[,Y[,Z]] with "
                      "positive integers\n";
      return ExitUsage;
    }
    Run.Blocks = {Grid->X, Grid->Y, Grid->Z};
    Run.Threads = {Block->X, Block->Y, Block->Z};
    // The panes show the code that ran, unless --job chose what to show.
    Run.ShowJob = O.Job.empty();
    Session.post(Run);
    // The form shows the launch that ran (and whose block the warp
    // analyses took above), not the file's `# run:` line.
    views::RunForm Form;
    Form.Device = O.Device;
    Form.Call = O.Call;
    // What ran: parseDim3 read an absent --blocks/--threads as 1.
    Form.Blocks = O.Blocks.empty() ? "1" : O.Blocks;
    Form.Threads = O.Threads.empty() ? "1" : O.Threads;
    if (!O.Compare.empty() && O.Compare != O.Device) {
      Form.CompareWith = O.Compare;
      views::cmd::RunOnDevice Ref = Run;
      Ref.ShowJob = false;
      Ref.Device = O.Compare;
      Session.post(Ref);
    }
    Shell.presetRunForm(std::move(Form));
  }
  // Headless renders document the compiled state, not a half-finished one.
  if (Headless)
    Session.waitIdle();
  // The run's job, which its end selects (and adds), compiles too.
  if (Headless && !O.Call.empty()) {
    Session.update();
    Session.waitIdle();
  }
  if (!O.ThenEdit.empty()) {
    auto Buf = readSourceFile(O.ThenEdit);
    if (!Buf) {
      llvm::errs() << "prism gui: cannot read --then-edit file " << O.ThenEdit
                   << ": " << Buf.getError().message() << "\n";
      return ExitUsage;
    }
    // The run's result is read before the edit lands, as a user would see,
    // and the History tab keeps the compile the edit replaces.
    Shell.stats().record(*Session.update());
    Session.post(views::cmd::EditSource{(*Buf)->getBuffer().str()});
    if (Headless)
      Session.waitIdle();
  }

  // --compare-check-bounds: Compare opens once both jobs are there.
  bool WantCompare = !O.Job.empty() && O.CompareBounds &&
                     *O.CompareBounds != O.Bounds;
  if (O.ShowRemarks)
    Shell.pipeline().showRemarks();
  if (O.ShowResources)
    Shell.stats().showResources();
  if (O.ShowCache)
    Shell.stats().showCache();
  if (O.ShowHistory)
    Shell.stats().showHistory();
  if (O.PinLine) {
    // Counted in the file itself: the session may not have read it yet
    // (an interactive start does not wait for the first compile). After
    // --then-edit the pin is on the edited text.
    const std::string &Pinned = O.ThenEdit.empty() ? File : O.ThenEdit;
    auto Buf = readSourceFile(Pinned);
    llvm::StringRef Src = Buf ? (*Buf)->getBuffer() : llvm::StringRef();
    size_t NumLines = Src.count('\n') + (!Src.empty() && Src.back() != '\n');
    if (Buf && O.PinLine > NumLines) {
      llvm::errs() << "prism gui: error: --pin-line " << O.PinLine << ": "
                   << Pinned << " has " << NumLines << " lines\n";
      return ExitUsage;
    }
    Shell.links().pinSource(O.PinLine);
  }
  int Frames = O.Frames > 0 ? O.Frames : 3;
  if (O.BenchFrames > 0)
    Frames = O.BenchFrames;
  std::vector<double> FrameMs, UiMs;
  BusyFrames Busy;
  bool WasBusy = false;
  int RC = ExitOk;
  for (int Frame = 0; !glfwWindowShouldClose(Win); ++Frame) {
    auto Start = std::chrono::steady_clock::now();
    glfwPollEvents();
    views::GuiSnapshotRef Snap = Session.update();
    if (WantCompare && Snap->Jobs.size() >= 2) {
      Shell.jobs().requestCompare(Snap->Jobs[0].Id, Snap->Jobs[1].Id);
      WantCompare = false;
    }
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    // Headless frames are documentation: no hover from wherever the
    // virtual display left its pointer.
    if (Headless)
      ImGui::GetIO().MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
    auto UiStart = std::chrono::steady_clock::now();
    if (O.BenchScroll)
      Shell.scrollStagePanes(uint32_t(Frame) * 37);
    // Every 20 frames a blank line comes or goes at the top: every
    // definition moves, so every job recompiles on the worker while the
    // frames go on (the UI must never wait for a compile).
    if (O.BenchEdit && Frame % 20 == 10) {
      const std::string &Src = Snap->Source;
      Session.post(views::cmd::EditSource{
          Src.rfind("\n", 0) == 0 ? Src.substr(1) : "\n" + Src});
    }
    ImGui::NewFrame();
    Shell.draw(*Snap, Session);
    ImGui::Render();
    // What the first frame asked for (the Run form's launch block when it
    // differs from the one given at start) is part of the documented state.
    if (Headless && Frame == 0)
      Session.waitIdle();
    UiMs.push_back(std::chrono::duration<double, std::milli>(
                       std::chrono::steady_clock::now() - UiStart)
                       .count());
    int W, H;
    glfwGetFramebufferSize(Win, &W, &H);
    glViewport(0, 0, W, H);
    ImVec4 Bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
    glClearColor(Bg.x * 0.8f, Bg.y * 0.8f, Bg.z * 0.8f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    double Ms = std::chrono::duration<double, std::milli>(
                    std::chrono::steady_clock::now() - Start)
                    .count();
    FrameMs.push_back(Ms);
    // The frame that takes the compile's result (the panels index the new
    // code) counts too: it follows the last busy one.
    if ((Snap->Busy || WasBusy) && Frame > 0) {
      ++Busy.Frames;
      Busy.MaxFrameMs = std::max(Busy.MaxFrameMs, Ms);
      Busy.MaxUiMs = std::max(Busy.MaxUiMs, UiMs.back());
      for (size_t P = 0; P < Busy.MaxPanelMs.size(); ++P)
        Busy.MaxPanelMs[P] = std::max(Busy.MaxPanelMs[P], Shell.panelMs()[P]);
    }
    WasBusy = Snap->Busy;
    Shell.setFrameMs(Ms);
    if (Shell.quitRequested())
      glfwSetWindowShouldClose(Win, 1);
    if (Headless && Frame + 1 >= Frames) {
      std::string Why;
      if (!O.Screenshot.empty() && !writeScreenshot(Win, O.Screenshot, Why)) {
        llvm::errs() << "prism: error: cannot write " << O.Screenshot << ": "
                     << Why << "\n";
        RC = ExitDevice;
      }
      break;
    }
    glfwSwapBuffers(Win);
  }
  if (O.ListWindows) {
    for (const std::string &T : views::drawnWindowTitles())
      llvm::outs() << "window: " << T << "\n";
    // And what they showed: each job as the Jobs panel lists it, each
    // device's last run, and the status bar.
    views::GuiSnapshotRef Last = Session.update();
    for (const views::JobEntry &J : Last->Jobs)
      llvm::outs() << "job: " << J.Spec.Signature << " | " << J.Spec.Target
                   << (J.Spec.Kernel ? " kernel" : " function") << " | "
                   << views::jobStatusName(J.Status)
                   << (J.Id == Last->SelectedJob ? " | selected" : "") << "\n";
    for (const views::DeviceEntry &D : Last->Devices)
      if (D.LastRun)
        llvm::outs() << "run: " << D.Name << " | " << D.LastRun->Call << " | "
                     << (D.LastRun->Ok ? "ok" : "failed")
                     << (D.LastRun->Stale ? " stale" : "") << "\n";
    // As the status bar shows it: the selected job, then the message.
    std::string Status = views::statusBarJobText(*Last);
    if (!Status.empty() && !Last->StatusMessage.empty())
      Status += "   |   ";
    llvm::outs() << "status: " << Status << Last->StatusMessage << "\n";
    // Where the Source editor stood, and the correlation each stage pane
    // drew for the hovered or pinned line.
    if (uint32_t Pin = Shell.links().pinnedSource()) {
      auto [First, Last] = Shell.source().shownLines();
      llvm::outs() << "lit: Source | source line " << Pin << " | lines "
                   << First << "-" << Last
                   << (Pin >= First && Pin <= Last ? ", on screen"
                                                   : ", off screen")
                   << "\n";
    }
    for (const views::StagePane *P : Shell.stagePanes()) {
      views::StagePane::LitSummary L = P->litSummary();
      if (!L.Source)
        continue;
      llvm::outs() << "lit: " << P->title() << " | source line " << L.Source
                   << " | " << L.Rows << " rows";
      if (L.Rows)
        llvm::outs() << ", first row " << L.FirstRow
                     << (L.OnScreen ? ", on screen" : ", off screen");
      if (!L.Elsewhere.empty())
        llvm::outs() << " | " << L.Elsewhere;
      llvm::outs() << "\n";
    }
  }
  if (O.BenchFrames > 0 && !FrameMs.empty()) {
    printFrameStats(FrameMs, UiMs);
    if (O.BenchEdit) {
      views::GuiSnapshotRef Last = Session.update();
      size_t Recompiled = 0;
      for (const views::InvalidationEntry &E : Last->Invalidations)
        Recompiled += E.Recompiled.size();
      llvm::outs() << llvm::format(
          "compiling: frames: %u  max_frame_ms: %.3f  max_ui_ms: %.3f  "
          "recompiles: %zu\n",
          Busy.Frames, Busy.MaxFrameMs, Busy.MaxUiMs, Recompiled);
      // The panels' worst draws, slowest first: what a slow frame was.
      std::vector<size_t> Order(Busy.MaxPanelMs.size());
      std::iota(Order.begin(), Order.end(), 0);
      std::stable_sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
        return Busy.MaxPanelMs[A] > Busy.MaxPanelMs[B];
      });
      llvm::outs() << "compiling: max_panel_ms:";
      for (size_t P : Order)
        llvm::outs() << llvm::format("  %s %.3f",
                                     views::panelTitle(views::Panel(P)),
                                     Busy.MaxPanelMs[P]);
      llvm::outs() << "\n";
    }
  }
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(Win);
  glfwTerminate();
  return RC;
}

} // namespace prism::app
