// A header-only C++ layer over kvbench/plugin.h: write an engine's adapter as
// kvbench's built-in adapters are written (adapters/adapter.h: an Adapter
// that hands out Sessions, every call returning a Status) and export it with
// one macro at the end of the file:
//
//   KVBENCH_EXPORT_PLUGIN("qdbm",
//       kvbench::plugin::Engine<DepotAdapter>("qdbm-depot", "QDBM Depot hash database"),
//       kvbench::plugin::Engine<VillaAdapter>("qdbm-villa", "QDBM Villa B+ tree"));
//
// The types here mirror adapters/adapter.h's names and contracts (read that
// file's comments; they hold here) but depend only on the C++ standard
// library, so a plugin needs no kvbench sources: only the installed headers.
// Exceptions a plugin's code throws are caught at the boundary and returned
// as KVBENCH_INTERNAL with their what().
//
// An adapter class T must be default-constructible without side effects
// (kvbench creates one to read its options and capabilities), and provide
// what Adapter below declares pure virtual.
//
// The data calls (put, get, remove, batches) are the ones a benchmark times.
// To make them cost no more than the engine's own work, an adapter may name
// its session class:
//
//   class MySession final : public kvbench::plugin::Session {
//     Status Put(Slice key, Slice value) noexcept override;   // noexcept: optional
//     ...
//   };
//   class MyAdapter final : public kvbench::plugin::Adapter {
//    public:
//     using SessionType = MySession;  // NewSession makes only MySessions
//     ...
//   };
//
// Then the exported C functions call MySession's methods directly (no virtual
// call; the compiler can inline them), and a method declared noexcept runs
// without the exception guard. NewSession must then make sessions of exactly
// that class (checked once per session where RTTI is on: Internal otherwise).
// Without SessionType every call goes through Session's virtual table, and
// every call is guarded.
#pragma once

#include <charconv>
#include <cstdint>
#include <cstring>
#include <exception>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <vector>

#include "kvbench/plugin.h"

namespace kvbench::plugin {

using Slice = std::string_view;

// The result of every call that can fail. OK carries no message and costs
// one int and one null pointer: making, returning and destroying it allocates
// nothing and frees nothing, so a call that succeeds pays nothing for the
// message an error would carry. A message is kept only when it is not empty.
class Status {
 public:
  Status() noexcept = default;
  Status(const Status& other) : code_(other.code_), message_(Copy(other.message_)) {}
  Status(Status&& other) noexcept : code_(other.code_), message_(other.message_) {
    other.code_ = KVBENCH_OK;
    other.message_ = nullptr;
  }
  Status& operator=(const Status& other) {
    if (this != &other) *this = Status(other);
    return *this;
  }
  Status& operator=(Status&& other) noexcept {
    if (this != &other) {
      delete message_;
      code_ = other.code_;
      message_ = other.message_;
      other.code_ = KVBENCH_OK;
      other.message_ = nullptr;
    }
    return *this;
  }
  ~Status() { delete message_; }

  static Status OK() noexcept { return Status(); }
  static Status NotFound(std::string m = {}) { return Status(KVBENCH_NOT_FOUND, std::move(m)); }
  static Status NotSupported(std::string m = {}) {
    return Status(KVBENCH_NOT_SUPPORTED, std::move(m));
  }
  static Status InvalidArgument(std::string m) {
    return Status(KVBENCH_INVALID_ARGUMENT, std::move(m));
  }
  static Status IOError(std::string m) { return Status(KVBENCH_IO_ERROR, std::move(m)); }
  static Status Corruption(std::string m) { return Status(KVBENCH_CORRUPTION, std::move(m)); }
  static Status Busy(std::string m) { return Status(KVBENCH_BUSY, std::move(m)); }
  static Status Internal(std::string m) { return Status(KVBENCH_INTERNAL, std::move(m)); }

  bool ok() const noexcept { return code_ == KVBENCH_OK; }
  bool IsNotFound() const noexcept { return code_ == KVBENCH_NOT_FOUND; }
  kvbench_status code() const noexcept { return code_; }
  // Empty when the status carries no message; valid while the Status lives.
  const std::string& message() const noexcept {
    static const std::string kEmpty;
    return message_ != nullptr ? *message_ : kEmpty;
  }

 private:
  Status(kvbench_status code, std::string message)
      : code_(code), message_(message.empty() ? nullptr : new std::string(std::move(message))) {}
  static std::string* Copy(const std::string* m) { return m ? new std::string(*m) : nullptr; }

  kvbench_status code_ = KVBENCH_OK;
  std::string* message_ = nullptr;  // owned; null when there is none
};

#define KVBENCH_PLUGIN_RETURN_IF_ERROR(expr)        \
  do {                                              \
    ::kvbench::plugin::Status _kvbench_st = (expr); \
    if (!_kvbench_st.ok()) return _kvbench_st;      \
  } while (0)

struct OptionSpec {
  std::string name;           // namespaced: "myengine.cache_size"
  std::string default_value;  // "" = unset
  std::string help;           // one line: what, and why this default
  bool is_prefix = false;
};

// Resolved options: every OptionSpec's default plus the workload's overrides.
class EngineOptions {
 public:
  EngineOptions() = default;
  EngineOptions(const kvbench_option* options, size_t count) {
    for (size_t i = 0; i < count; ++i) values_[options[i].name] = options[i].value;
  }
  bool Has(std::string_view name) const { return values_.count(std::string(name)) > 0; }
  std::string GetString(std::string_view name) const {
    auto it = values_.find(std::string(name));
    return it == values_.end() ? std::string() : it->second;
  }
  // InvalidArgument "option 'x': ..." when the text is not a whole integer.
  Status GetInt64(std::string_view name, int64_t* out) const {
    const std::string text = GetString(name);
    int64_t v = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size()) {
      return Status::InvalidArgument("option '" + std::string(name) + "': '" + text +
                                     "' is not an integer");
    }
    *out = v;
    return Status::OK();
  }
  // true/false/on/off/yes/no/1/0.
  Status GetBool(std::string_view name, bool* out) const {
    const std::string text = GetString(name);
    if (text == "true" || text == "on" || text == "yes" || text == "1") {
      *out = true;
    } else if (text == "false" || text == "off" || text == "no" || text == "0") {
      *out = false;
    } else {
      return Status::InvalidArgument("option '" + std::string(name) + "': '" + text +
                                     "' is not true or false");
    }
    return Status::OK();
  }
  const std::map<std::string, std::string>& values() const { return values_; }

 private:
  std::map<std::string, std::string> values_;
};

struct Capabilities {
  bool stores_data = true;
  bool ordered = false;
  bool transactional = false;
  bool durable = false;
  bool concurrent_readers = false;
  bool concurrent_writers = false;
  bool reorganize = false;
  size_t max_key_size = 0;
};

enum class FaultPromise {
  kNothing = KVBENCH_PROMISE_NOTHING,
  kConsistent = KVBENCH_PROMISE_CONSISTENT,
  kDurable = KVBENCH_PROMISE_DURABLE
};

struct DurabilityDeclaration {
  FaultPromise process_crash = FaultPromise::kNothing;
  FaultPromise power_loss = FaultPromise::kNothing;
  bool atomic_batches = false;
  std::string basis;  // the option values that decide it; required when durable
};

enum class ScanDirection { kForward, kBackward };

struct ScanOptions {
  ScanDirection direction = ScanDirection::kForward;
  size_t limit = 0;  // 0: no limit
  bool from_edge = false;
  bool keys_only = false;
};

class ScanVisitor {
 public:
  virtual ~ScanVisitor() = default;
  // Bytes valid for the call only; false stops the scan.
  virtual bool Visit(Slice key, Slice value) = 0;
};

// One client thread's view of the engine (adapters/adapter.h, Session).
class Session {
 public:
  virtual ~Session() = default;
  virtual Status Put(Slice key, Slice value) = 0;
  virtual Status Get(Slice key, std::string* value) = 0;
  // Get without a copy where the engine can (ABI 1.1's get_ref): on OK,
  // *value points at the value's bytes, which must stay unchanged until this
  // session's next call. By default Get into `scratch` (a buffer the session
  // keeps between calls) and point there; override it when the engine hands
  // out bytes that stay put that long (a read transaction's page, a
  // session's own cache), or, as a do-nothing engine, to skip the copy.
  virtual Status GetView(Slice key, Slice* value, std::string* scratch) {
    Status s = Get(key, scratch);
    if (s.ok()) *value = *scratch;
    return s;
  }
  virtual Status Delete(Slice key) = 0;
  virtual Status BeginBatch() = 0;
  virtual Status CommitBatch() = 0;
  virtual Status AbortBatch() = 0;
  virtual Status Scan(Slice /*start*/, const ScanOptions& /*options*/, ScanVisitor* /*visitor*/,
                      size_t* /*visited*/) {
    return Status::NotSupported("scan: engine is not ordered");
  }
};

// One opened engine (adapters/adapter.h, Adapter).
class Adapter {
 public:
  virtual ~Adapter() = default;
  virtual std::string LibraryVersion() const = 0;
  virtual std::vector<OptionSpec> OptionSpecs() const = 0;
  virtual Capabilities capabilities() const = 0;
  virtual Status CheckOptions(const EngineOptions& options) const = 0;
  virtual DurabilityDeclaration DeclareDurability(const EngineOptions& /*options*/) const {
    return {};
  }
  virtual Status Open(const std::string& directory, const EngineOptions& options) = 0;
  virtual Status Close() = 0;
  virtual Status NewSession(std::unique_ptr<Session>* session) = 0;
  virtual Status Sync() = 0;
  virtual Status ListFiles(std::vector<std::string>* paths) const = 0;
  virtual Status Reorganize() { return Status::NotSupported("reorganize"); }
  virtual Status CheckIntegrity() { return Status::NotSupported("integrity check"); }
};

namespace internal {

// Copies `text` into the caller's buffer, cut to fit, always NUL-terminated.
inline void WriteMessage(kvbench_message* message, std::string_view text) noexcept {
  if (message == nullptr || message->text == nullptr || message->capacity == 0) return;
  const size_t n = text.size() < message->capacity - 1 ? text.size() : message->capacity - 1;
  std::memcpy(message->text, text.data(), n);
  message->text[n] = '\0';
}

// The status code for kvbench; an error's message goes into its buffer. An
// OK status touches nothing.
inline kvbench_status Report(const Status& s, kvbench_message* message) noexcept {
  if (!s.ok() && !s.message().empty()) WriteMessage(message, s.message());
  return s.code();
}

// Runs `body` (returning Status), turning an exception into KVBENCH_INTERNAL.
template <typename Body>
kvbench_status Guarded(kvbench_message* message, Body&& body) noexcept {
  try {
    return Report(body(), message);
  } catch (const std::exception& e) {
    try {
      WriteMessage(message, std::string("exception: ") + e.what());
    } catch (...) {
      WriteMessage(message, "exception (and no memory to describe it)");
    }
  } catch (...) {
    WriteMessage(message, "unknown exception");
  }
  return KVBENCH_INTERNAL;
}

// Guarded, or, when the compiler proves the body cannot throw (the session's
// method is declared noexcept and the helper calls it directly, see
// SessionType below), the body alone: no handler, no landing pad.
template <bool kCannotThrow, typename Body>
kvbench_status Run(kvbench_message* message, Body&& body) noexcept {
  if constexpr (kCannotThrow) {
    return Report(body(), message);
  } else {
    return Guarded(message, body);
  }
}

// A session handle: the plugin's Session and the buffer Get (and the
// default GetView) copies into.
struct SessionBox {
  std::unique_ptr<Session> session;
  std::string value;
};

// The session class the helper calls: T::SessionType when the adapter names
// one (a final class derived from Session; its calls are direct, and inline
// into the C functions below), else Session (virtual calls).
template <typename T, typename = void>
struct SessionTypeOf {
  using type = Session;
};
template <typename T>
struct SessionTypeOf<T, std::void_t<typename T::SessionType>> {
  using type = typename T::SessionType;
  static_assert(std::is_base_of_v<Session, type> && std::is_final_v<type>,
                "an adapter's SessionType must be a final class derived from "
                "kvbench::plugin::Session");
};

template <typename T>
struct EngineBox {
  T adapter;
};

template <typename T>
const T& Probe() {
  static const T probe;
  return probe;
}

template <typename T>
struct Thunks {
  using S = typename SessionTypeOf<T>::type;
  static constexpr bool kDirect = !std::is_same_v<S, Session>;

  static const char* LibraryVersion() {
    static const std::string version = Probe<T>().LibraryVersion();
    return version.c_str();
  }

  static kvbench_engine* Create() {
    try {
      return reinterpret_cast<kvbench_engine*>(new EngineBox<T>());
    } catch (...) {
      return nullptr;
    }
  }
  static void Destroy(kvbench_engine* e) {
    auto* box = reinterpret_cast<EngineBox<T>*>(e);
    try {
      (void)box->adapter.Close();
    } catch (...) {
    }
    delete box;
  }
  static T& Of(kvbench_engine* e) { return reinterpret_cast<EngineBox<T>*>(e)->adapter; }
  static const T& Of(const kvbench_engine* e) {
    return reinterpret_cast<const EngineBox<T>*>(e)->adapter;
  }
  static SessionBox* BoxOf(kvbench_session* s) noexcept {
    return reinterpret_cast<SessionBox*>(s);
  }
  // The session as S: NewSession checked its type when S is T::SessionType.
  static S& SessionOf(kvbench_session* s) noexcept {
    return static_cast<S&>(*BoxOf(s)->session.get());
  }

  static void GetCapabilities(const kvbench_engine* e, kvbench_capabilities* out) {
    Capabilities c;
    try {
      c = Of(e).capabilities();
    } catch (...) {
    }
    *out = kvbench_capabilities{c.stores_data,        c.ordered,
                                c.transactional,      c.durable,
                                c.concurrent_readers, c.concurrent_writers,
                                c.reorganize,         static_cast<uint64_t>(c.max_key_size)};
  }
  static kvbench_status CheckOptions(const kvbench_engine* e, const kvbench_option* options,
                                     size_t count, kvbench_message* m) {
    return Guarded(m, [&] { return Of(e).CheckOptions(EngineOptions(options, count)); });
  }
  static void DeclareDurability(const kvbench_engine* e, const kvbench_option* options,
                                size_t count, kvbench_durability* out, kvbench_message* basis) {
    DurabilityDeclaration d;
    try {
      d = Of(e).DeclareDurability(EngineOptions(options, count));
    } catch (...) {
    }
    *out = kvbench_durability{static_cast<int32_t>(d.process_crash),
                              static_cast<int32_t>(d.power_loss), d.atomic_batches};
    WriteMessage(basis, d.basis);
  }
  static kvbench_status Open(kvbench_engine* e, const char* directory,
                             const kvbench_option* options, size_t count, kvbench_message* m) {
    return Guarded(m, [&] { return Of(e).Open(directory, EngineOptions(options, count)); });
  }
  static kvbench_status Close(kvbench_engine* e, kvbench_message* m) {
    return Guarded(m, [&] { return Of(e).Close(); });
  }
  static kvbench_status Sync(kvbench_engine* e, kvbench_message* m) {
    return Guarded(m, [&] { return Of(e).Sync(); });
  }
  static kvbench_status ListFiles(const kvbench_engine* e, kvbench_file_visit visit, void* ctx,
                                  kvbench_message* m) {
    return Guarded(m, [&] {
      std::vector<std::string> paths;
      Status s = Of(e).ListFiles(&paths);
      if (s.ok()) {
        for (const std::string& p : paths) visit(ctx, p.c_str());
      }
      return s;
    });
  }
  static kvbench_status Reorganize(kvbench_engine* e, kvbench_message* m) {
    return Guarded(m, [&] { return Of(e).Reorganize(); });
  }
  static kvbench_status CheckIntegrity(kvbench_engine* e, kvbench_message* m) {
    return Guarded(m, [&] { return Of(e).CheckIntegrity(); });
  }
  static kvbench_status NewSession(kvbench_engine* e, kvbench_session** out, kvbench_message* m) {
    return Guarded(m, [&] {
      auto box = std::make_unique<SessionBox>();
      Status s = Of(e).NewSession(&box->session);
      if (!s.ok()) return s;
      if (box->session == nullptr) return Status::Internal("NewSession returned OK and no session");
      if constexpr (kDirect) {
#if defined(__GXX_RTTI) || defined(_CPPRTTI) || defined(__cpp_rtti)
        // Every later call goes straight to S's methods: it must be an S.
        const Session& made = *box->session;
        if (typeid(made) != typeid(S)) {
          return Status::Internal("NewSession made a session of another class than the "
                                  "adapter's SessionType");
        }
#endif
      }
      *out = reinterpret_cast<kvbench_session*>(box.release());
      return s;
    });
  }
  static void CloseSession(kvbench_session* s) {
    try {
      delete BoxOf(s);
    } catch (...) {
    }
  }

  // The data calls: with T::SessionType and a noexcept method, each is the
  // method inlined and a status code, nothing more.
  static kvbench_status Put(kvbench_session* s, const char* k, size_t kn, const char* v, size_t vn,
                            kvbench_message* m) {
    S& session = SessionOf(s);
    const Slice key(k, kn), value(v, vn);
    return Run<noexcept(session.Put(key, value))>(m, [&] { return session.Put(key, value); });
  }
  static kvbench_status Get(kvbench_session* s, const char* k, size_t kn,
                            const kvbench_value_sink* sink, kvbench_message* m) {
    SessionBox* box = BoxOf(s);
    S& session = SessionOf(s);
    const Slice key(k, kn);
    std::string* value = &box->value;
    const kvbench_status code =
        Run<noexcept(session.Get(key, value))>(m, [&] { return session.Get(key, value); });
    if (code == KVBENCH_OK && sink->set(sink->context, value->data(), value->size()) != 0) {
      WriteMessage(m, "get: kvbench refused the value");
      return KVBENCH_INTERNAL;
    }
    return code;
  }
  // ABI 1.1: the value's bytes stay in the session (or the engine) until its next call.
  static kvbench_status GetRef(kvbench_session* s, const char* k, size_t kn, const char** v,
                               size_t* vn, kvbench_message* m) {
    SessionBox* box = BoxOf(s);
    S& session = SessionOf(s);
    const Slice key(k, kn);
    std::string* scratch = &box->value;
    Slice view;
    return Run<noexcept(session.GetView(key, &view, scratch))>(m, [&] {
      Status st = session.GetView(key, &view, scratch);
      if (st.ok()) {
        *v = view.data();
        *vn = view.size();
      }
      return st;
    });
  }
  static kvbench_status Remove(kvbench_session* s, const char* k, size_t kn, kvbench_message* m) {
    S& session = SessionOf(s);
    const Slice key(k, kn);
    return Run<noexcept(session.Delete(key))>(m, [&] { return session.Delete(key); });
  }
  static kvbench_status Begin(kvbench_session* s, kvbench_message* m) {
    S& session = SessionOf(s);
    return Run<noexcept(session.BeginBatch())>(m, [&] { return session.BeginBatch(); });
  }
  static kvbench_status Commit(kvbench_session* s, kvbench_message* m) {
    S& session = SessionOf(s);
    return Run<noexcept(session.CommitBatch())>(m, [&] { return session.CommitBatch(); });
  }
  static kvbench_status Abort(kvbench_session* s, kvbench_message* m) {
    S& session = SessionOf(s);
    return Run<noexcept(session.AbortBatch())>(m, [&] { return session.AbortBatch(); });
  }
  static kvbench_status Scan(kvbench_session* s, const char* start, size_t start_size,
                             const kvbench_scan_options* o, kvbench_scan_visit visit, void* ctx,
                             uint64_t* visited, kvbench_message* m) {
    struct Forward final : ScanVisitor {
      kvbench_scan_visit visit;
      void* ctx;
      bool Visit(Slice k, Slice v) override {
        return visit(ctx, k.data(), k.size(), v.data(), v.size()) != 0;
      }
    } forward;
    forward.visit = visit;
    forward.ctx = ctx;
    ScanOptions options;
    options.direction =
        o->direction == KVBENCH_SCAN_BACKWARD ? ScanDirection::kBackward : ScanDirection::kForward;
    options.limit = static_cast<size_t>(o->limit);
    options.from_edge = o->from_edge != 0;
    options.keys_only = o->keys_only != 0;
    return Guarded(m, [&] {
      size_t n = 0;
      Status st = SessionOf(s).Scan(Slice(start, start_size), options, &forward, &n);
      if (visited != nullptr) *visited = n;
      return st;
    });
  }
};

// The C option specs of T, built once from a probe instance.
template <typename T>
const std::vector<kvbench_option_spec>& CSpecs() {
  static const std::vector<OptionSpec> specs = Probe<T>().OptionSpecs();
  static const std::vector<kvbench_option_spec> c_specs = [] {
    std::vector<kvbench_option_spec> out;
    for (const OptionSpec& s : specs) {
      out.push_back({s.name.c_str(), s.default_value.c_str(), s.help.c_str(), s.is_prefix});
    }
    return out;
  }();
  return c_specs;
}

}  // namespace internal

// The C table of adapter class T under engine name `name`. Both strings must
// outlive the plugin (string literals do).
template <typename T>
kvbench_engine_api Engine(const char* name, const char* description) {
  using Th = internal::Thunks<T>;
  const auto& specs = internal::CSpecs<T>();
  kvbench_engine_api api{};
  api.struct_size = sizeof(kvbench_engine_api);
  api.name = name;
  api.description = description;
  api.library_version = &Th::LibraryVersion;
  api.option_specs = specs.data();
  api.option_spec_count = specs.size();
  api.create = &Th::Create;
  api.destroy = &Th::Destroy;
  api.capabilities = &Th::GetCapabilities;
  api.check_options = &Th::CheckOptions;
  api.declare_durability = &Th::DeclareDurability;
  api.open = &Th::Open;
  api.close = &Th::Close;
  api.sync = &Th::Sync;
  api.list_files = &Th::ListFiles;
  api.reorganize = &Th::Reorganize;
  api.check_integrity = &Th::CheckIntegrity;
  api.new_session = &Th::NewSession;
  api.close_session = &Th::CloseSession;
  api.put = &Th::Put;
  api.get = &Th::Get;
  api.remove = &Th::Remove;
  api.begin_batch = &Th::Begin;
  api.commit_batch = &Th::Commit;
  api.abort_batch = &Th::Abort;
  api.scan = &Th::Scan;
  api.get_ref = &Th::GetRef;  // ABI 1.1
  return api;
}

}  // namespace kvbench::plugin

// Exports the plugin: its name, then one kvbench::plugin::Engine<T>(...) per
// engine. Use once per shared object.
#define KVBENCH_EXPORT_PLUGIN(plugin_name, ...)                                           \
  extern "C" KVBENCH_PLUGIN_EXPORT const kvbench_plugin* kvbench_plugin_entry(void) {     \
    static const kvbench_engine_api kvbench_engines[] = {__VA_ARGS__};                    \
    static const kvbench_plugin kvbench_descriptor = {                                    \
        KVBENCH_PLUGIN_ABI_MAJOR, KVBENCH_PLUGIN_ABI_MINOR, plugin_name, kvbench_engines, \
        sizeof(kvbench_engines) / sizeof(kvbench_engines[0])};                            \
    return &kvbench_descriptor;                                                           \
  }
