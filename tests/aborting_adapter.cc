// `aborting`: a test-only adapter (linked into runner_test, never into
// kvbench) that stores data like a map and calls abort() on its 200th get, so
// the runner's crash isolation can be tested against a real mid-phase crash.
#include <cstdlib>
#include <map>

#include "adapters/registry.h"

namespace kvbench::test {
namespace {

class AbortingSession final : public Session {
 public:
  explicit AbortingSession(std::map<std::string, std::string>* map) : map_(map) {}
  Status Put(Slice key, Slice value) override {
    (*map_)[std::string(key)] = std::string(value);
    return Status::OK();
  }
  Status Get(Slice key, std::string* value) override {
    if (++gets_ == 200) std::abort();
    auto it = map_->find(std::string(key));
    if (it == map_->end()) return Status::NotFound();
    *value = it->second;
    return Status::OK();
  }
  Status Delete(Slice key) override {
    map_->erase(std::string(key));
    return Status::OK();
  }
  Status BeginBatch() override { return Status::OK(); }
  Status CommitBatch() override { return Status::OK(); }
  Status AbortBatch() override { return Status::NotSupported("aborting adapter"); }

 private:
  std::map<std::string, std::string>* map_;
  int gets_ = 0;
};

class AbortingAdapter final : public Adapter {
 public:
  std::string LibraryVersion() const override { return "test"; }
  std::vector<OptionSpec> OptionSpecs() const override { return {}; }
  Status CheckOptions(const EngineOptions&) const override { return Status::OK(); }
  Capabilities capabilities() const override { return Capabilities{}; }
  Status Open(const OpenRequest&) override { return Status::OK(); }
  Status Close() override { return Status::OK(); }
  Status NewSession(std::unique_ptr<Session>* session) override {
    *session = std::make_unique<AbortingSession>(&map_);
    return Status::OK();
  }
  Status Sync() override { return Status::OK(); }
  Status ListFiles(std::vector<std::string>* paths) const override {
    paths->clear();
    return Status::OK();
  }

 private:
  std::map<std::string, std::string> map_;
};

}  // namespace
}  // namespace kvbench::test

KVBENCH_REGISTER_ADAPTER(aborting, "aborting", "Test adapter: abort() on the 200th get",
                         [] { return std::make_unique<kvbench::test::AbortingAdapter>(); });
