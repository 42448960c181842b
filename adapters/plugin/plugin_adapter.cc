#include "adapters/plugin/plugin_adapter.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <vector>

#include "adapters/plugin/engine_state.h"
#include "adapters/support/batch_gate.h"
#include "adapters/support/batch_state.h"

namespace kvbench::plugin_host {
namespace {


#define KVBENCH_PLUGIN_GUARD(state) \
  if ((state)->broken()) return (state)->BreachStatus()

// The resolved options as the C array the plugin reads; points into `options`.
std::vector<kvbench_option> CArray(const EngineOptions& options) {
  std::vector<kvbench_option> out;
  out.reserve(options.values().size());
  for (const auto& [name, value] : options.values()) out.push_back({name.c_str(), value.c_str()});
  return out;
}

struct ValueTarget {
  std::string* value;
  bool set = false;
};

int SetValue(void* context, const char* data, size_t size);

int VisitEntry(void* context, const char* key, size_t key_size, const char* value,
               size_t value_size) {
  return static_cast<ScanVisitor*>(context)->Visit(Slice(key, key_size), Slice(value, value_size))
             ? 1
             : 0;
}

void AddFile(void* context, const char* path) {
  static_cast<std::vector<std::string>*>(context)->emplace_back(path);
}

// Copies a value into the caller's string, which the runner reuses: after
// warm-up the bytes fit, and a copy into place skips std::string::assign's
// general path. Out of line, so that the timed calls' own frames stay small
// (it is where a value's bytes are copied, a call to memcpy either way).
[[gnu::noinline]] void CopyValue(const char* data, size_t size, std::string* value) {
  if (size <= value->capacity()) [[likely]] {
    value->resize(size);
    if (size > 0) std::memcpy(value->data(), data, size);
  } else {
    value->assign(data, size);
  }
}

int SetValue(void* context, const char* data, size_t size) {
  auto* target = static_cast<ValueTarget*>(context);
  CopyValue(data, size, target->value);
  target->set = true;
  return 0;
}

// A session of a plugin engine.
//
// Batches: the host keeps each session's batch state itself (BatchState,
// adapters/support/batch_state.h), so a misuse (a second begin, a commit or
// abort with no batch open) gets the words every built-in adapter uses, after
// the engine's name, and never reaches the plugin: the plugin's begin_batch is
// called only with no batch open, commit_batch and abort_batch only with one.
// A commit ends the batch whatever it returns; an abort ends it unless the
// engine answers NOT_SUPPORTED (its batches only group writes: the batch stays
// open until commit).
//
// Writers: on an engine whose capabilities (at open) say no concurrent
// writers, the host keeps the promise of adapters/adapter.h itself, without
// trusting the plugin to: each put and remove, and each batch from begin to
// commit or abort, holds the engine's writer gate exclusively, so one session
// writes at a time (readers are not held). The gate may be released by
// another thread than took it (a session may move between threads between
// calls).
//
// Cost: the data calls are what a benchmark times, so their OK path is one
// test of the session's flag byte (a breach, an engine whose writes take
// turns, an ABI 1.0 plugin: each sends the call out of line), one indirect
// call, and one compare of the status and the message buffer's guard word
// (MessageBuffer::OkAndIntact); building a Status with a message happens only
// on the out-of-line failure path.
class PluginSession final : public Session {
 public:
  PluginSession(std::shared_ptr<EngineState> state, kvbench_session* handle,
                bool serialise_writes)
      : state_(std::move(state)),
        api_(state_->api()),
        handle_(handle),
        put_(api_.put),
        get_ref_(api_.get_ref),
        flags_(static_cast<uint8_t>((serialise_writes ? kSerialiseWrites : 0) |
                                    (api_.get_ref == nullptr ? kNoGetRef : 0))) {
    state_->AttachSession(&flags_);
  }
  ~PluginSession() override {
    api_.close_session(handle_);  // aborts an open batch: the gate is released after it
    if (holds_gate_for_batch()) state_->writer_gate().ExitExclusive();
    state_->DetachSession(&flags_);
  }

  Status Put(Slice key, Slice value) override {
    if (flags() & (kBroken | kSerialiseWrites)) [[unlikely]] return PutOutOfLine(key, value);
    return CallPut(key, value);
  }

  Status Get(Slice key, std::string* value) override {
    if (flags() & (kBroken | kNoGetRef)) [[unlikely]] return GetOutOfLine(key, value);
    // ABI 1.1: one copy, straight from the plugin's bytes into *value.
    ref_data_ = nullptr;
    ref_size_ = 0;
    const kvbench_status code =
        get_ref_(handle_, key.data(), key.size(), &ref_data_, &ref_size_, buffer_.ForCall());
    if (!buffer_.OkAndIntact(code)) [[unlikely]] return Failed(code, "get_ref");
    if (ref_size_ == 0) {
      value->clear();
      return Status::OK();
    }
    return CopyRef(value);
  }

  Status Delete(Slice key) override {
    if (flags() & (kBroken | kSerialiseWrites)) [[unlikely]] return DeleteOutOfLine(key);
    return CallRemove(key);
  }

  Status BeginBatch() override {
    if (broken()) return state_->BreachStatus();
    if (batch_.open()) return Misuse(batch_.Begin());
    return batch_.Begin([&] {
      if (serialise_writes()) state_->writer_gate().EnterExclusive();
      Status s =
          state_->Check(api_.begin_batch(handle_, buffer_.ForCall()), buffer_, "begin_batch");
      if (!s.ok() && serialise_writes()) state_->writer_gate().ExitExclusive();
      return s;
    });
  }
  Status CommitBatch() override {
    if (broken()) return state_->BreachStatus();
    if (!batch_.open()) return Misuse(batch_.Commit());
    Status s = batch_.Commit([&] {
      return state_->Check(api_.commit_batch(handle_, buffer_.ForCall()), buffer_,
                           "commit_batch");
    });
    if (serialise_writes()) state_->writer_gate().ExitExclusive();
    return s;
  }
  Status AbortBatch() override {
    if (broken()) return state_->BreachStatus();
    if (!batch_.open()) return Misuse(batch_.Abort());
    Status s = state_->Check(api_.abort_batch(handle_, buffer_.ForCall()), buffer_, "abort_batch");
    // A non-transactional engine cannot abort: its batch stays open until commit.
    if (!s.IsNotSupported()) {
      batch_.Reset();
      if (serialise_writes()) state_->writer_gate().ExitExclusive();
    }
    return s;
  }

  Status Scan(Slice start, const ScanOptions& options, ScanVisitor* visitor,
              size_t* visited) override {
    if (broken()) return state_->BreachStatus();
    if (api_.scan == nullptr) return Status::NotSupported(state_->name() + ": not ordered");
    const kvbench_scan_options c_options{
        options.direction == ScanDirection::kBackward ? KVBENCH_SCAN_BACKWARD
                                                      : KVBENCH_SCAN_FORWARD,
        options.from_edge, options.keys_only, static_cast<uint64_t>(options.limit)};
    uint64_t count = 0;
    Status s = state_->Check(api_.scan(handle_, start.data(), start.size(), &c_options, &VisitEntry,
                                       visitor, &count, buffer_.ForCall()),
                             buffer_, "scan");
    if (visited != nullptr) *visited = static_cast<size_t>(count);
    return s;
  }

 private:
  // Holds the writer gate for one put or remove outside a batch.
  class WriteTurn {
   public:
    explicit WriteTurn(PluginSession* s) : gate_(&s->state_->writer_gate()) {
      gate_->EnterExclusive();
    }
    ~WriteTurn() { gate_->ExitExclusive(); }
    WriteTurn(const WriteTurn&) = delete;
    WriteTurn& operator=(const WriteTurn&) = delete;

   private:
    BatchGate* gate_;
  };

  uint8_t flags() const { return flags_.load(std::memory_order_relaxed); }
  bool broken() const { return (flags() & kBroken) != 0; }
  bool serialise_writes() const { return (flags() & kSerialiseWrites) != 0; }

  Status CallPut(Slice key, Slice value) {
    const kvbench_status code =
        put_(handle_, key.data(), key.size(), value.data(), value.size(), buffer_.ForCall());
    if (buffer_.OkAndIntact(code)) [[likely]] return Status::OK();
    return Failed(code, "put");
  }
  Status CallRemove(Slice key) {
    const kvbench_status code = api_.remove(handle_, key.data(), key.size(), buffer_.ForCall());
    if (buffer_.OkAndIntact(code)) [[likely]] return Status::OK();
    return Failed(code, "remove");
  }
  // A call that did not return OK with the guard intact: out of line, and
  // needing only the session, so a timed call keeps nothing else in a
  // register across the plugin's function for it.
  [[gnu::noinline, gnu::cold]] Status Failed(kvbench_status code, const char* function) {
    return state_->CheckFailure(code, buffer_, function);
  }

  // Put and Delete after a breach, or holding the writer gate outside a
  // batch on an engine whose writes take turns (inside one, the batch holds
  // it): out of line, so that the calls of an engine with concurrent writers
  // carry none of the gate's code.
  [[gnu::noinline]] Status PutOutOfLine(Slice key, Slice value) {
    if (broken()) return state_->BreachStatus();
    if (batch_.open()) return CallPut(key, value);
    WriteTurn turn(this);
    return CallPut(key, value);
  }
  [[gnu::noinline]] Status DeleteOutOfLine(Slice key) {
    if (broken()) return state_->BreachStatus();
    if (batch_.open()) return CallRemove(key);
    WriteTurn turn(this);
    return CallRemove(key);
  }

  // Get after a breach, or from an ABI 1.0 plugin.
  [[gnu::noinline]] Status GetOutOfLine(Slice key, std::string* value) {
    if (broken()) return state_->BreachStatus();
    return GetThroughSink(key, value);
  }

  // A non-empty value from get_ref: copied into *value, the caller's string,
  // which the runner reuses (CopyValue). Out of line: the copy is a call to
  // memcpy either way.
  [[gnu::noinline]] Status CopyRef(std::string* value) {
    if (ref_data_ == nullptr) [[unlikely]] return NoBytes(ref_size_);
    CopyValue(ref_data_, ref_size_, value);
    return Status::OK();
  }

  // A session's open batch holds the writer gate when writes are serialised.
  bool holds_gate_for_batch() const { return serialise_writes() && batch_.open(); }

  // BatchState's words for a misuse, after the engine's name as every message
  // from a plugin engine is.
  [[gnu::noinline, gnu::cold]] Status Misuse(const Status& words) const {
    return words.WithContext(state_->name());
  }

  [[gnu::noinline, gnu::cold]] Status NoBytes(size_t size) {
    return state_->Breach("get_ref returned OK with no bytes for a " + std::to_string(size) +
                          "-byte value");
  }

  // ABI 1.0's get: the value comes through the sink.
  [[gnu::noinline]] Status GetThroughSink(Slice key, std::string* value) {
    ValueTarget target{value};
    const kvbench_value_sink sink{&target, &SetValue};
    const kvbench_status code = api_.get(handle_, key.data(), key.size(), &sink, buffer_.ForCall());
    if (buffer_.OkAndIntact(code)) [[likely]] {
      if (!target.set) return state_->Breach("get returned OK without passing a value");
      return Status::OK();
    }
    return state_->CheckFailure(code, buffer_, "get");
  }

  std::shared_ptr<EngineState> state_;
  const kvbench_engine_api& api_;
  kvbench_session* handle_;
  // The timed calls' pointers, read from the table once.
  decltype(kvbench_engine_api::put) const put_;
  decltype(kvbench_engine_api::get_ref) const get_ref_;  // NULL: an ABI 1.0 plugin's get
  // SessionFlag bits; kBroken is set by EngineState::Breach from any thread.
  std::atomic<uint8_t> flags_;
  BatchState batch_;
  // Where get_ref puts the value's place and length.
  const char* ref_data_ = nullptr;
  size_t ref_size_ = 0;
  MessageBuffer buffer_;
};

class PluginAdapter final : public Adapter {
 public:
  explicit PluginAdapter(const PluginEngine* engine)
      : engine_(engine),
        state_(std::make_shared<EngineState>(engine)),
        api_(engine->api),
        handle_(api_.create()) {}

  ~PluginAdapter() override {
    if (handle_ != nullptr) api_.destroy(handle_);
  }

  std::string LibraryVersion() const override {
    const char* version = api_.library_version();
    return version != nullptr ? version : "";
  }

  std::vector<OptionSpec> OptionSpecs() const override {
    std::vector<OptionSpec> specs;
    for (size_t i = 0; i < api_.option_spec_count; ++i) {
      const kvbench_option_spec& s = api_.option_specs[i];
      specs.push_back({s.name, s.default_value != nullptr ? s.default_value : "",
                       s.help != nullptr ? s.help : "", s.is_prefix != 0});
    }
    return specs;
  }

  Capabilities capabilities() const override {
    Capabilities c;
    if (handle_ == nullptr) return c;
    kvbench_capabilities p{};
    api_.capabilities(handle_, &p);
    c.stores_data = p.stores_data != 0;
    c.ordered = p.ordered != 0 && api_.scan != nullptr;
    c.transactional = p.transactional != 0;
    c.durable = p.durable != 0;
    c.concurrent_readers = p.concurrent_readers != 0;
    c.concurrent_writers = p.concurrent_writers != 0;
    c.reorganize = p.reorganize != 0 && api_.reorganize != nullptr;
    c.max_key_size = static_cast<size_t>(p.max_key_size);
    return c;
  }

  Status CheckOptions(const EngineOptions& options) const override {
    KVBENCH_RETURN_IF_ERROR(Created());
    const std::vector<kvbench_option> c_options = CArray(options);
    return state_->Check(
        api_.check_options(handle_, c_options.data(), c_options.size(), config_buffer_.ForCall()),
        config_buffer_, "check_options");
  }

  DurabilityDeclaration DeclareDurability(const EngineOptions& options) const override {
    DurabilityDeclaration d;
    if (handle_ == nullptr || api_.declare_durability == nullptr) return d;
    const std::vector<kvbench_option> c_options = CArray(options);
    kvbench_durability p{};
    api_.declare_durability(handle_, c_options.data(), c_options.size(), &p,
                            config_buffer_.ForCall());
    if (!config_buffer_.GuardIntact()) {
      config_buffer_.RestoreGuard();
      d.basis = "plugin wrote past its durability basis buffer; nothing is declared";
      return d;
    }
    auto promise = [](int32_t v) {
      return v == KVBENCH_PROMISE_DURABLE      ? FaultPromise::kDurable
             : v == KVBENCH_PROMISE_CONSISTENT ? FaultPromise::kConsistent
                                               : FaultPromise::kNothing;
    };
    d.process_crash = promise(p.process_crash);
    d.power_loss = promise(p.power_loss);
    d.atomic_batches = p.atomic_batches != 0;
    d.basis = config_buffer_.Text();
    return d;
  }

  Status Open(const OpenRequest& request) override {
    KVBENCH_RETURN_IF_ERROR(Created());
    KVBENCH_PLUGIN_GUARD(state_);
    const std::vector<kvbench_option> c_options = CArray(request.options);
    return state_->Check(api_.open(handle_, request.directory.c_str(), c_options.data(),
                                   c_options.size(), config_buffer_.ForCall()),
                         config_buffer_, "open");
  }

  Status Close() override {
    if (handle_ == nullptr) return Status::OK();
    KVBENCH_PLUGIN_GUARD(state_);
    return state_->Check(api_.close(handle_, config_buffer_.ForCall()), config_buffer_, "close");
  }

  Status NewSession(std::unique_ptr<Session>* session) override {
    KVBENCH_RETURN_IF_ERROR(Created());
    KVBENCH_PLUGIN_GUARD(state_);
    // Sessions may be made while others run: a buffer of its own.
    MessageBuffer buffer;
    kvbench_session* handle = nullptr;
    Status s =
        state_->Check(api_.new_session(handle_, &handle, buffer.ForCall()), buffer, "new_session");
    if (s.ok() && handle == nullptr) {
      return state_->Breach("new_session returned OK without a session");
    }
    if (s.ok()) {
      *session =
          std::make_unique<PluginSession>(state_, handle, !capabilities().concurrent_writers);
    }
    return s;
  }

  Status Sync() override {
    KVBENCH_RETURN_IF_ERROR(Created());
    KVBENCH_PLUGIN_GUARD(state_);
    return state_->Check(api_.sync(handle_, config_buffer_.ForCall()), config_buffer_, "sync");
  }

  Status ListFiles(std::vector<std::string>* paths) const override {
    KVBENCH_RETURN_IF_ERROR(Created());
    KVBENCH_PLUGIN_GUARD(state_);
    paths->clear();
    return state_->Check(api_.list_files(handle_, &AddFile, paths, config_buffer_.ForCall()),
                         config_buffer_, "list_files");
  }

  Status Reorganize() override {
    KVBENCH_RETURN_IF_ERROR(Created());
    KVBENCH_PLUGIN_GUARD(state_);
    if (api_.reorganize == nullptr) return Status::NotSupported(state_->name() + ": reorganize");
    return state_->Check(api_.reorganize(handle_, config_buffer_.ForCall()), config_buffer_,
                         "reorganize");
  }

  Status CheckIntegrity() override {
    KVBENCH_RETURN_IF_ERROR(Created());
    KVBENCH_PLUGIN_GUARD(state_);
    if (api_.check_integrity == nullptr) {
      return Status::NotSupported(state_->name() + ": integrity check");
    }
    return state_->Check(api_.check_integrity(handle_, config_buffer_.ForCall()), config_buffer_,
                         "check_integrity");
  }

 private:
  Status Created() const {
    if (handle_ != nullptr) return Status::OK();
    return Status::Internal("plugin engine '" + state_->name() + "': create() returned NULL");
  }

  const PluginEngine* engine_;
  std::shared_ptr<EngineState> state_;
  const kvbench_engine_api& api_;
  kvbench_engine* handle_;
  // Adapter methods run on one thread at a time (adapter.h), so they share one.
  mutable MessageBuffer config_buffer_;
};

}  // namespace

std::unique_ptr<Adapter> NewPluginAdapter(const PluginEngine* engine) {
  return std::make_unique<PluginAdapter>(engine);
}

}  // namespace kvbench::plugin_host
