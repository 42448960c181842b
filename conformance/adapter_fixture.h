// The fixture of the "adapter" suite (adapter_cases.cc, capability_cases.cc):
// the engine opened with its default options in a scratch directory, with
// one session, and the checks' helpers.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "adapters/registry.h"
#include "conformance/case_registry.h"
#include "conformance/check.h"
#include "conformance/scratch_directory.h"

namespace kvbench::conformance {

class CollectingVisitor : public ScanVisitor {
 public:
  bool Visit(Slice key, Slice value) override {
    entries.emplace_back(std::string(key), std::string(value));
    return true;
  }
  std::vector<std::pair<std::string, std::string>> entries;
};

// Creates the engine and opens it with its default options in `directory`.
Status OpenWithDefaults(const std::string& engine, const std::string& directory,
                        std::unique_ptr<Adapter>* adapter);

// Ends the case as skipped for an engine that keeps nothing (null).
#define SKIP_UNLESS_STORES_DATA() \
  if (!caps_.stores_data) KVB_SKIP() << engine() << " keeps no data"

class AdapterFixture : public CaseFixture {
 public:
  static constexpr const char* kSuite = "adapter";

  void SetUp() override {
    KVB_ASSERT_TRUE(AdapterRegistry::Global().errors().empty());
    Status s = AdapterRegistry::Global().Create(engine(), &adapter_);
    KVB_ASSERT_TRUE(s.ok()) << s.ToString();
    caps_ = adapter_->capabilities();
    Reopen();
  }

  void TearDown() override {
    CloseSessions();
    if (adapter_ && opened_) {
      Status s = adapter_->Close();
      KVB_EXPECT_TRUE(s.ok()) << s.ToString();
    }
  }

 protected:
  // Drops everything that must go before the adapter closes.
  virtual void CloseSessions() { session_.reset(); }

  // Closes (when open) and opens the adapter on the same directory with its
  // default options, and makes a fresh session.
  void Reopen() {
    CloseSessions();
    if (opened_) {
      opened_ = false;
      Status s = adapter_->Close();
      KVB_ASSERT_TRUE(s.ok()) << "close: " << s.ToString();
    }
    KVB_ASSERT_FALSE(dir_.path().empty()) << "no scratch directory";
    OpenRequest request;
    request.directory = dir_.path();
    Status s = ResolveEngineOptions(engine(), adapter_->OptionSpecs(), {}, &request.options);
    KVB_ASSERT_TRUE(s.ok()) << s.ToString();
    s = adapter_->Open(request);
    KVB_ASSERT_TRUE(s.ok()) << "open: " << s.ToString();
    opened_ = true;
    s = adapter_->NewSession(&session_);
    KVB_ASSERT_TRUE(s.ok()) << "new session: " << s.ToString();
  }

  // Whether the engine is open with a session (a failed Reopen leaves it not).
  bool ready() const { return session_ != nullptr; }

  void Put(const std::string& k, const std::string& v) {
    Status s = session_->Put(k, v);
    KVB_ASSERT_TRUE(s.ok()) << s.ToString();
  }

  // The stored value, or "<absent>" when NotFound; fails on any other status.
  std::string Get(const std::string& k) {
    std::string v;
    Status s = session_->Get(k, &v);
    if (s.IsNotFound()) return "<absent>";
    KVB_EXPECT_TRUE(s.ok()) << s.ToString();
    return v;
  }

  std::vector<std::pair<std::string, std::string>> Scan(const std::string& start,
                                                        const ScanOptions& options) {
    CollectingVisitor visitor;
    size_t visited = 0;
    Status s = session_->Scan(start, options, &visitor, &visited);
    KVB_EXPECT_TRUE(s.ok()) << s.ToString();
    KVB_EXPECT_EQ(visited, visitor.entries.size());
    return visitor.entries;
  }

  ScratchDirectory dir_{"conformance"};
  std::unique_ptr<Adapter> adapter_;
  std::unique_ptr<Session> session_;
  Capabilities caps_;
  bool opened_ = false;
};

}  // namespace kvbench::conformance
