// `null-plugin`: the null engine (adapters/null) as a plugin, written with
// kvbench/plugin_cpp.h as an engine team would: it does nothing and keeps
// nothing, so bench/plugin_call_bench.cc measures what a call through the
// plugin ABI costs beside the same call on the built-in adapter.
#include "kvbench/plugin_cpp.h"

namespace {

using kvbench::plugin::Slice;
using kvbench::plugin::Status;

class NullPluginSession final : public kvbench::plugin::Session {
 public:
  Status Put(Slice, Slice) noexcept override { return Status::OK(); }
  Status Get(Slice, std::string* value) noexcept override {
    value->clear();
    return Status::OK();
  }
  // The empty value without touching a buffer, as the built-in null's Get.
  Status GetView(Slice, Slice* value, std::string*) noexcept override {
    *value = Slice();
    return Status::OK();
  }
  Status Delete(Slice) noexcept override { return Status::OK(); }
  // Batches group nothing, but a misuse is refused in the words of the
  // built-in null (adapters/support/batch_state.h), for a host that passes
  // it on (kvbench's own host answers it first).
  Status BeginBatch() override {
    if (in_batch_) return Status::InvalidArgument("begin batch: a batch is already open");
    in_batch_ = true;
    return Status::OK();
  }
  Status CommitBatch() override {
    if (!in_batch_) return Status::InvalidArgument("commit batch: no batch open");
    in_batch_ = false;
    return Status::OK();
  }
  Status AbortBatch() override {
    return Status::NotSupported("abort batch: not supported by null-plugin: a batch only groups "
                                "writes");
  }

 private:
  bool in_batch_ = false;
};

class NullPluginAdapter final : public kvbench::plugin::Adapter {
 public:
  // Its sessions are called directly, as the built-in null's are through
  // one virtual call (kvbench/plugin_cpp.h, SessionType).
  using SessionType = NullPluginSession;
  std::string LibraryVersion() const override { return "null-plugin-1"; }
  std::vector<kvbench::plugin::OptionSpec> OptionSpecs() const override { return {}; }
  kvbench::plugin::Capabilities capabilities() const override {
    kvbench::plugin::Capabilities c;
    c.stores_data = false;
    c.concurrent_readers = c.concurrent_writers = true;
    return c;
  }
  Status CheckOptions(const kvbench::plugin::EngineOptions&) const override { return Status::OK(); }
  Status Open(const std::string&, const kvbench::plugin::EngineOptions&) override {
    return Status::OK();
  }
  Status Close() override { return Status::OK(); }
  Status NewSession(std::unique_ptr<kvbench::plugin::Session>* session) override {
    *session = std::make_unique<NullPluginSession>();
    return Status::OK();
  }
  Status Sync() override { return Status::OK(); }
  Status ListFiles(std::vector<std::string>*) const override { return Status::OK(); }
};

}  // namespace

KVBENCH_EXPORT_PLUGIN("null-plugin",
                      kvbench::plugin::Engine<NullPluginAdapter>("null-plugin",
                                                                 "The null engine as a plugin"));
