// The desktop window loop: GLFW + OpenGL 3 + Dear ImGui, and the headless
// screenshot mode used by tests and docs.
#include "Commands.h"

#include "ShellView.h"
#include "targets/HostInfo.h"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>
#include <stb_image_write.h>

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <vector>

namespace prism::app {

static std::string defaultExample() {
  return std::string(PRISM_SOURCE_DIR) + "/assets/examples/saxpy.jl";
}

static bool writeScreenshot(GLFWwindow *W, const std::string &Path) {
  int Width = 0, Height = 0;
  glfwGetFramebufferSize(W, &Width, &Height);
  std::vector<unsigned char> Pixels(size_t(Width) * Height * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, Width, Height, GL_RGBA, GL_UNSIGNED_BYTE, Pixels.data());
  // OpenGL's origin is bottom-left; PNG rows go top-down.
  stbi_flip_vertically_on_write(1);
  return stbi_write_png(Path.c_str(), Width, Height, 4, Pixels.data(),
                        Width * 4) != 0;
}

int runGui(const CommandOptions &O) {
  std::string File = O.File.empty() ? defaultExample() : O.File;
  glfwSetErrorCallback([](int, const char *) {});
  if (!glfwInit()) {
    llvm::errs() << "prism: no display available (GLFW could not initialise);"
                    " run `prism code_typed FILE SIG` for text output, or "
                    "run under xvfb-run for a virtual display\n";
    return ExitDevice;
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  bool Headless = !O.Screenshot.empty() || O.BenchFrames > 0;
  GLFWwindow *Win = glfwCreateWindow(1400, 900, "Prism", nullptr, nullptr);
  if (!Win) {
    llvm::errs() << "prism: could not create an OpenGL 3.3 window\n";
    glfwTerminate();
    return ExitDevice;
  }
  glfwMakeContextCurrent(Win);
  glfwSwapInterval(Headless ? 0 : 1);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;
  ImGui::StyleColorsDark();
  ImGui_ImplGlfw_InitForOpenGL(Win, true);
  ImGui_ImplOpenGL3_Init("#version 330");

  views::ShellSnapshot Snap;
  Snap.FileName = File;
  if (auto Buf = llvm::MemoryBuffer::getFile(File))
    Snap.Source = (*Buf)->getBuffer().str();
  else
    Snap.Source = "(cannot read " + File + ")";
  const HostInfo &H = hostInfo();
  Snap.HostSummary = "host: " + H.Triple + " (" + H.CPU + ")";
  views::ShellView Shell;

  int Frames = O.Frames > 0 ? O.Frames : 3;
  if (O.BenchFrames > 0)
    Frames = O.BenchFrames;
  std::vector<double> FrameMs;
  int RC = ExitOk;
  for (int Frame = 0; !glfwWindowShouldClose(Win); ++Frame) {
    auto Start = std::chrono::steady_clock::now();
    glfwPollEvents();
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
    Shell.draw(Snap);
    ImGui::Render();
    int W, Hgt;
    glfwGetFramebufferSize(Win, &W, &Hgt);
    glViewport(0, 0, W, Hgt);
    glClearColor(0.10f, 0.10f, 0.12f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    FrameMs.push_back(std::chrono::duration<double, std::milli>(
                          std::chrono::steady_clock::now() - Start)
                          .count());
    if (Headless && Frame + 1 >= Frames) {
      if (!O.Screenshot.empty() && !writeScreenshot(Win, O.Screenshot)) {
        llvm::errs() << "prism: cannot write " << O.Screenshot << "\n";
        RC = ExitDevice;
      }
      break;
    }
    glfwSwapBuffers(Win);
  }
  if (O.BenchFrames > 0 && !FrameMs.empty()) {
    std::vector<double> S = FrameMs;
    std::sort(S.begin(), S.end());
    llvm::outs() << "frames: " << S.size() << "  median_ms: " << S[S.size() / 2]
                 << "  p95_ms: " << S[S.size() * 95 / 100]
                 << "  first_ms: " << FrameMs.front() << "\n";
  }
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(Win);
  glfwTerminate();
  return RC;
}

} // namespace prism::app
