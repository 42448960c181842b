// `null`: does nothing and keeps nothing. Running a workload against it
// measures the harness itself (key generation, timing, histograms), the floor
// under every other engine's figures.
//
// `null.spin_ns` makes every operation busy-wait that long: a known, injected
// cost per operation, so a test can check that `kvbench compare` finds a
// slowdown of a given size (and nothing when there is none).
#include <chrono>
#include <cstdint>

#include "adapters/registry.h"

namespace kvbench {
namespace {

struct NullSettings {
  uint64_t spin_ns = 0;
};

Status ParseNullSettings(const EngineOptions& options, NullSettings* out) {
  int64_t spin = 0;
  // Opened without resolved options (the micro-benchmarks do): no spin.
  if (!options.Has("null.spin_ns")) return Status::OK();
  KVBENCH_RETURN_IF_ERROR(options.GetInt64("null.spin_ns", &spin));
  if (spin < 0 || spin > 1'000'000'000) {
    return Status::InvalidArgument("option 'null.spin_ns': must be 0..1000000000");
  }
  out->spin_ns = static_cast<uint64_t>(spin);
  return Status::OK();
}

class NullSession final : public Session {
 public:
  explicit NullSession(uint64_t spin_ns) : spin_ns_(spin_ns) {}
  Status Put(Slice, Slice) override {
    Spin();
    return Status::OK();
  }
  // Reports every key as present with an empty value, so a get phase does the
  // same harness work as on a real engine.
  Status Get(Slice, std::string* value) override {
    Spin();
    value->clear();
    return Status::OK();
  }
  Status Delete(Slice) override {
    Spin();
    return Status::OK();
  }
  Status BeginBatch() override { return Status::OK(); }
  Status CommitBatch() override { return Status::OK(); }
  Status AbortBatch() override { return Status::NotSupported("null keeps no batches"); }

 private:
  void Spin() const {
    if (spin_ns_ == 0) return;
    const auto until = std::chrono::steady_clock::now() + std::chrono::nanoseconds(spin_ns_);
    while (std::chrono::steady_clock::now() < until) {
    }
  }
  const uint64_t spin_ns_;
};

class NullAdapter final : public Adapter {
 public:
  std::string LibraryVersion() const override { return "-"; }
  std::vector<OptionSpec> OptionSpecs() const override {
    return {{"null.spin_ns", "0",
             "busy-wait this many nanoseconds in every put, get and delete: a known cost per "
             "operation for testing comparisons"}};
  }
  Status CheckOptions(const EngineOptions& options) const override {
    NullSettings ignored;
    return ParseNullSettings(options, &ignored);
  }
  DurabilityDeclaration DeclareDurability(const EngineOptions&) const override {
    return {.basis = "null stores nothing"};
  }

  Capabilities capabilities() const override {
    Capabilities c;
    c.stores_data = false;
    c.concurrent_readers = true;
    c.concurrent_writers = true;
    return c;
  }
  Status Open(const OpenRequest& request) override {
    return ParseNullSettings(request.options, &settings_);
  }
  Status Close() override { return Status::OK(); }
  Status NewSession(std::unique_ptr<Session>* session) override {
    *session = std::make_unique<NullSession>(settings_.spin_ns);
    return Status::OK();
  }
  Status Sync() override { return Status::OK(); }
  Status ListFiles(std::vector<std::string>* paths) const override {
    paths->clear();
    return Status::OK();
  }

 private:
  NullSettings settings_;
};

}  // namespace
}  // namespace kvbench

KVBENCH_REGISTER_ADAPTER(null, "null", "Does nothing; measures the harness itself",
                         [] { return std::make_unique<kvbench::NullAdapter>(); });
