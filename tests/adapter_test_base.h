// A fixture base for an adapter's own tests (beyond the conformance suite):
// opens the adapter named by Engine() in a scratch directory with option
// overrides, keeps one session, and closes everything at the end.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>

#include "adapters/registry.h"
#include "tests/scratch_dir.h"

namespace kvbench::test {

template <typename GTestBase>
class AdapterTestBase : public GTestBase {
 protected:
  virtual std::string Engine() const = 0;

  void TearDown() override {
    session_.reset();
    if (adapter_) {
      EXPECT_TRUE(adapter_->Close().ok());
    }
  }

  // (Re)opens the engine on the same directory with `overrides`.
  Status Open(const std::map<std::string, std::string>& overrides) {
    session_.reset();
    if (adapter_) KVBENCH_RETURN_IF_ERROR(adapter_->Close());
    KVBENCH_RETURN_IF_ERROR(AdapterRegistry::Global().Create(Engine(), &adapter_));
    OpenRequest request;
    request.directory = dir_.path();
    KVBENCH_RETURN_IF_ERROR(
        ResolveEngineOptions(Engine(), adapter_->OptionSpecs(), overrides, &request.options));
    KVBENCH_RETURN_IF_ERROR(adapter_->Open(request));
    return adapter_->NewSession(&session_);
  }

  // The stored value, or "<absent>" for NotFound; fails the test on errors.
  std::string Get(const std::string& key) {
    std::string value;
    Status s = session_->Get(key, &value);
    if (s.IsNotFound()) return "<absent>";
    EXPECT_TRUE(s.ok()) << s.ToString();
    return value;
  }

  static std::string Numbered(std::string prefix, int i) {
    return prefix.append(std::to_string(i));
  }

  ScratchDir dir_{"adapter"};
  std::unique_ptr<Adapter> adapter_;
  std::unique_ptr<Session> session_;
};

}  // namespace kvbench::test
