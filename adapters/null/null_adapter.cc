// `null`: does nothing and keeps nothing. Running a workload against it
// measures the harness itself (key generation, timing, histograms), the floor
// under every other engine's figures.
//
// `null.spin_ns` makes every operation busy-wait that long: a known, injected
// cost per operation, so a test can check that `kvbench compare` finds a
// slowdown of a given size (and nothing when there is none).
//
// `null.serial_ns` makes every operation hold one process-wide mutex while it
// busy-waits that long: an engine that serialises its calls (LMDB's writer,
// sqlite, gdbm) with a known cost, so no number of threads can do more than
// 1e9 / serial_ns operations a second. A test checks that the reported ops/s
// never claims more.
#include <chrono>
#include <cstdint>
#include <mutex>

#include "adapters/registry.h"
#include "adapters/support/batch_state.h"
#include "adapters/support/option_parsing.h"

namespace kvbench {
namespace {

struct NullSettings {
  uint64_t spin_ns = 0;
  uint64_t serial_ns = 0;
};

// The lock every session's calls take with null.serial_ns (one per process,
// as an engine's own lock is).
std::mutex& SerialMutex() {
  static std::mutex mutex;
  return mutex;
}

Status ParseNanoseconds(const EngineOptions& options, const char* name, uint64_t* out) {
  // Opened without resolved options (the micro-benchmarks do): 0.
  if (!options.Has(name)) return Status::OK();
  int64_t ns = 0;
  KVBENCH_RETURN_IF_ERROR(options.GetInt64(name, &ns));
  if (ns < 0 || ns > 1'000'000'000) {
    return Status::InvalidArgument(std::string("option '") + name + "': must be 0..1000000000");
  }
  *out = static_cast<uint64_t>(ns);
  return Status::OK();
}

Status ParseNullSettings(const EngineOptions& options, NullSettings* out) {
  KVBENCH_RETURN_IF_ERROR(ParseNanoseconds(options, "null.spin_ns", &out->spin_ns));
  return ParseNanoseconds(options, "null.serial_ns", &out->serial_ns);
}

class NullSession final : public Session {
 public:
  explicit NullSession(const NullSettings& settings) : settings_(settings) {}
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
  // Batches group nothing, but misuse gets every adapter's answer.
  Status BeginBatch() override { return batch_.Begin(); }
  Status CommitBatch() override { return batch_.Commit(); }
  Status AbortBatch() override { return BatchState::AbortNotSupported("null"); }

 private:
  static void SpinFor(uint64_t ns) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::nanoseconds(ns);
    while (std::chrono::steady_clock::now() < until) {
    }
  }
  void Spin() const {
    if (settings_.spin_ns > 0) SpinFor(settings_.spin_ns);
    if (settings_.serial_ns > 0) {
      std::lock_guard lock(SerialMutex());
      SpinFor(settings_.serial_ns);
    }
  }
  const NullSettings settings_;
  BatchState batch_;
};

class NullAdapter final : public Adapter {
 public:
  std::string LibraryVersion() const override { return "-"; }
  std::vector<OptionSpec> OptionSpecs() const override {
    return {{"null.spin_ns", "0",
             "busy-wait this many nanoseconds in every put, get and delete: a known cost per "
             "operation for testing comparisons"},
            {"null.serial_ns", "0",
             "busy-wait this many nanoseconds in every put, get and delete while holding one "
             "lock shared by all sessions: an engine that serialises its calls, for testing "
             "that throughput over threads never exceeds 1e9 / serial_ns"}};
  }
  Status CheckOptions(const EngineOptions& options) const override {
    return CheckSettings(options, ParseNullSettings);
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
    *session = std::make_unique<NullSession>(settings_);
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
