#include "ImGuiHarness.h"

#include <stb_image_write.h>

#include <algorithm>
#include <cmath>
#include <fstream>

namespace prism::views::test {

static bool exists(const char *Path) { return std::ifstream(Path).good(); }

ImGuiHarness::ImGuiHarness(ImVec2 Display) {
  Ctx = ImGui::CreateContext();
  ImGuiIO &IO = ImGui::GetIO();
  IO.IniFilename = nullptr;
  IO.LogFilename = nullptr;
  IO.DisplaySize = Display;
  IO.DeltaTime = 1.0f / 60.0f;
  // As the OpenGL3 backend does: draw lists may exceed 64k vertices.
  IO.BackendFlags |= ImGuiBackendFlags_RendererHasVtxOffset;
  static const ImWchar Ranges[] = {0x0020, 0x00FF, 0x0370, 0x03FF, 0x2000,
                                   0x206F, 0x2190, 0x21FF, 0x2500, 0x257F,
                                   0x25A0, 0x25FF, 0};
  const char *Sans = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
  const char *MonoPath = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf";
  if (exists(Sans) && exists(MonoPath)) {
    IO.Fonts->AddFontFromFileTTF(Sans, 15.0f, nullptr, Ranges);
    Mono = IO.Fonts->AddFontFromFileTTF(MonoPath, 14.0f, nullptr, Ranges);
  } else {
    IO.Fonts->AddFontDefault();
  }
  IO.Fonts->GetTexDataAsRGBA32(&AtlasPixels, &AtlasW, &AtlasH);
  IO.Fonts->SetTexID((ImTextureID)(intptr_t)1);
}

ImGuiHarness::~ImGuiHarness() { ImGui::DestroyContext(Ctx); }

void ImGuiHarness::frame(const std::function<void()> &Body) {
  ImGui::SetCurrentContext(Ctx);
  ImGui::NewFrame();
  Body();
  ImGui::Render();
}

namespace {
struct Image {
  int W, H;
  std::vector<float> Px; // RGB, linear blend in sRGB space like the GPU path
  void blend(int X, int Y, float R, float G, float B, float A) {
    float *P = &Px[(size_t(Y) * W + X) * 3];
    P[0] = P[0] * (1 - A) + R * A;
    P[1] = P[1] * (1 - A) + G * A;
    P[2] = P[2] * (1 - A) + B * A;
  }
};
} // namespace

bool ImGuiHarness::writePng(const std::string &Path) const {
  ImDrawData *DD = ImGui::GetDrawData();
  if (!DD)
    return false;
  Image Img{int(DD->DisplaySize.x), int(DD->DisplaySize.y), {}};
  Img.Px.assign(size_t(Img.W) * Img.H * 3, 0.0f);
  ImVec4 Clear = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
  for (size_t I = 0; I < Img.Px.size(); I += 3) {
    Img.Px[I] = Clear.x * 0.8f;
    Img.Px[I + 1] = Clear.y * 0.8f;
    Img.Px[I + 2] = Clear.z * 0.8f;
  }
  auto Tex = [&](float U, float V) {
    int X = std::clamp(int(U * AtlasW), 0, AtlasW - 1);
    int Y = std::clamp(int(V * AtlasH), 0, AtlasH - 1);
    return AtlasPixels[(size_t(Y) * AtlasW + X) * 4 + 3] / 255.0f;
  };
  for (int N = 0; N < DD->CmdListsCount; ++N) {
    const ImDrawList *DL = DD->CmdLists[N];
    for (const ImDrawCmd &Cmd : DL->CmdBuffer) {
      if (Cmd.UserCallback)
        continue;
      int CX0 = std::max(0, int(Cmd.ClipRect.x)), CY0 = std::max(0, int(Cmd.ClipRect.y));
      int CX1 = std::min(Img.W, int(std::ceil(Cmd.ClipRect.z)));
      int CY1 = std::min(Img.H, int(std::ceil(Cmd.ClipRect.w)));
      for (unsigned E = 0; E + 2 < Cmd.ElemCount; E += 3) {
        const ImDrawVert *V[3];
        for (int K = 0; K < 3; ++K)
          V[K] = &DL->VtxBuffer[Cmd.VtxOffset +
                                DL->IdxBuffer[Cmd.IdxOffset + E + K]];
        float X0 = V[0]->pos.x, Y0 = V[0]->pos.y, X1 = V[1]->pos.x,
              Y1 = V[1]->pos.y, X2 = V[2]->pos.x, Y2 = V[2]->pos.y;
        float Area = (X1 - X0) * (Y2 - Y0) - (X2 - X0) * (Y1 - Y0);
        if (std::fabs(Area) < 1e-6f)
          continue;
        int BX0 = std::max(CX0, int(std::floor(std::min({X0, X1, X2}))));
        int BY0 = std::max(CY0, int(std::floor(std::min({Y0, Y1, Y2}))));
        int BX1 = std::min(CX1, int(std::ceil(std::max({X0, X1, X2}))));
        int BY1 = std::min(CY1, int(std::ceil(std::max({Y0, Y1, Y2}))));
        for (int Y = BY0; Y < BY1; ++Y)
          for (int X = BX0; X < BX1; ++X) {
            float PX = X + 0.5f, PY = Y + 0.5f;
            float W0 = ((X1 - PX) * (Y2 - PY) - (X2 - PX) * (Y1 - PY)) / Area;
            float W1 = ((X2 - PX) * (Y0 - PY) - (X0 - PX) * (Y2 - PY)) / Area;
            float W2 = 1 - W0 - W1;
            if (W0 < -1e-4f || W1 < -1e-4f || W2 < -1e-4f)
              continue;
            float U = W0 * V[0]->uv.x + W1 * V[1]->uv.x + W2 * V[2]->uv.x;
            float Vv = W0 * V[0]->uv.y + W1 * V[1]->uv.y + W2 * V[2]->uv.y;
            ImVec4 C0 = ImGui::ColorConvertU32ToFloat4(V[0]->col);
            ImVec4 C1 = ImGui::ColorConvertU32ToFloat4(V[1]->col);
            ImVec4 C2 = ImGui::ColorConvertU32ToFloat4(V[2]->col);
            float A = (W0 * C0.w + W1 * C1.w + W2 * C2.w) * Tex(U, Vv);
            if (A <= 0)
              continue;
            Img.blend(X, Y, W0 * C0.x + W1 * C1.x + W2 * C2.x,
                      W0 * C0.y + W1 * C1.y + W2 * C2.y,
                      W0 * C0.z + W1 * C1.z + W2 * C2.z, std::min(A, 1.0f));
          }
      }
    }
  }
  std::vector<unsigned char> Out(size_t(Img.W) * Img.H * 3);
  for (size_t I = 0; I < Out.size(); ++I)
    Out[I] = (unsigned char)std::clamp(int(Img.Px[I] * 255.0f + 0.5f), 0, 255);
  return stbi_write_png(Path.c_str(), Img.W, Img.H, 3, Out.data(), Img.W * 3) != 0;
}

} // namespace prism::views::test
