/// \file
/// The devices (host JIT, Linux BPF VM, CUDA): what each is, or why it is
/// unavailable; a Run form taking a call in `prism run`'s syntax with
/// blocks/threads (RunOnDevice); and each device's last result and log.
#pragma once

#include "ViewContext.h"

#include <string>

namespace prism::views {

/// The Run form's fields; toCommand validates them (tested without a window).
struct RunForm {
  std::string Device = "host";
  std::string Call;
  std::string Blocks = "1", Threads = "1";
  int Seed = 0;
  std::optional<cmd::RunOnDevice> toCommand(JobId Job, std::string &Error) const;
};

/// A call to prefill the form from a signature:
/// `saxpy!(Float32, DeviceArray{Float32,1})` → `saxpy!(1f0, rand(Float32, 1024))`.
std::string exampleCall(std::string_view Signature);

class DevicesView {
public:
  void draw(ViewContext &Ctx, bool *Open);
  void drawContent(ViewContext &Ctx);

  RunForm Form;

private:
  void drawRunForm(ViewContext &Ctx);
  std::string FormError;
  std::string PrefilledFor;
};

} // namespace prism::views
