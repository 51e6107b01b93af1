#include "devices/DeviceRegistry.h"

#include "DeviceTestUtil.h"

#include "llvm/Support/FormatVariadic.h"

#include <gtest/gtest.h>

using namespace prism;

TEST(DeviceRegistry, ListsHostBpfCuda) {
  DeviceRegistry R;
  EXPECT_EQ(R.names(), (std::vector<std::string>{"host", "bpf", "cuda"}));
  Device *Host = R.find("host");
  ASSERT_TRUE(Host);
  EXPECT_TRUE(Host->available());
  EXPECT_EQ(Host->target(), "native");
  bool HasCpu = false;
  for (const DeviceProperty &P : Host->properties())
    HasCpu |= P.first == "cpu" && !P.second.empty();
  EXPECT_TRUE(HasCpu);
  EXPECT_EQ(R.find("tpu"), nullptr);
}

TEST(DeviceRegistry, LookupErrorsAreDiagnostics) {
  DeviceRegistry R;
  auto Unknown = R.lookup("tpu");
  ASSERT_FALSE(bool(Unknown));
  EXPECT_NE(test::diagText(Unknown.takeError()).find("known: host, bpf, cuda"),
            std::string::npos);
  auto Cuda = R.lookup("cuda");
  if (Cuda) {
    EXPECT_TRUE(Cuda->available());
  } else {
    Diagnostic D = test::firstDiag(Cuda.takeError());
    EXPECT_EQ(D.Kind, "device-unavailable");
    EXPECT_NE(D.Message.find("the cuda device is unavailable: "),
              std::string::npos);
  }
}

TEST(DeviceRegistry, DevicesJsonShape) {
  DeviceRegistry R;
  llvm::json::Value V(R.json());
  std::string S = llvm::formatv("{0:2}", V).str();
  const llvm::json::Array *Devs = V.getAsObject()->getArray("devices");
  ASSERT_TRUE(Devs) << S;
  ASSERT_EQ(Devs->size(), 3u) << S;
  for (const llvm::json::Value &D : *Devs) {
    const llvm::json::Object *O = D.getAsObject();
    ASSERT_TRUE(O) << S;
    EXPECT_TRUE(O->getString("name")) << S;
    EXPECT_TRUE(O->getString("target")) << S;
    EXPECT_TRUE(O->getString("description")) << S;
    EXPECT_TRUE(O->getObject("properties")) << S;
    auto Avail = O->getBoolean("available");
    ASSERT_TRUE(Avail.has_value()) << S;
    // An unavailable device always says why.
    EXPECT_EQ(!*Avail, O->getString("reason").has_value()) << S;
  }
}

TEST(DeviceRegistry, HostRejectsAnEmptyArtefactWithADiagnostic) {
  DeviceRegistry R;
  std::string Log;
  DeviceArtefact A;
  A.Target = "native";
  A.Entry = "f";
  auto K = R.find("host")->load(A, Log);
  ASSERT_FALSE(bool(K));
  EXPECT_FALSE(test::diagText(K.takeError()).empty());
}
