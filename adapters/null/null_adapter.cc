// `null`: does nothing and keeps nothing. Running a workload against it
// measures the harness itself (key generation, timing, histograms), the floor
// under every other engine's figures.
#include "adapters/registry.h"

namespace kvbench {
namespace {

class NullSession final : public Session {
 public:
  Status Put(Slice, Slice) override { return Status::OK(); }
  // Reports every key as present with an empty value, so a get phase does the
  // same harness work as on a real engine.
  Status Get(Slice, std::string* value) override {
    value->clear();
    return Status::OK();
  }
  Status Delete(Slice) override { return Status::OK(); }
  Status BeginBatch() override { return Status::OK(); }
  Status CommitBatch() override { return Status::OK(); }
  Status AbortBatch() override { return Status::NotSupported("null keeps no batches"); }
};

class NullAdapter final : public Adapter {
 public:
  std::string LibraryVersion() const override { return "-"; }
  std::vector<OptionSpec> OptionSpecs() const override { return {}; }
  Status CheckOptions(const EngineOptions&) const override { return Status::OK(); }
  Capabilities capabilities() const override {
    Capabilities c;
    c.stores_data = false;
    c.concurrent_readers = true;
    c.concurrent_writers = true;
    return c;
  }
  Status Open(const OpenRequest&) override { return Status::OK(); }
  Status Close() override { return Status::OK(); }
  Status NewSession(std::unique_ptr<Session>* session) override {
    *session = std::make_unique<NullSession>();
    return Status::OK();
  }
  Status Sync() override { return Status::OK(); }
  Status ListFiles(std::vector<std::string>* paths) const override {
    paths->clear();
    return Status::OK();
  }
};

}  // namespace
}  // namespace kvbench

KVBENCH_REGISTER_ADAPTER(null, "null", "Does nothing; measures the harness itself",
                         [] { return std::make_unique<kvbench::NullAdapter>(); });
