// TEMPLATE: copy this folder to adapters/<yourengine>/, rename, and fill in.
// It compiles and passes `kvbench conformance` as it stands (an ordered
// in-memory table with a handle-level transaction standing in for "your
// engine", as Tokyo Cabinet, QDBM or Kyoto Cabinet have), so you start from
// working code. adapters/template/CMakeLists.txt builds it into a test only
// (template_conformance_test); it is not registered in kvbench.
//
// Checklist (docs/adding-an-adapter.md has the whole story):
//  1. Options: namespaced "<engine>.<name>", defaults = the seeds' settings,
//     one line of help each saying why; ONE parser (ParseTemplateSettings),
//     built from adapters/support/option_parsing.h, called by Open and given
//     to CheckSettings (CheckOptions, one line) and AcceptedSettings
//     (DeclareDurability): write no other option check.
//  2. Capabilities: claim only what the engine really does; the conformance
//     suite exercises every claim (ordered -> scans, transactional -> abort,
//     durable -> reopen, concurrent_readers -> readers beside a writer,
//     concurrent_writers -> writers at once, reorganize -> Reorganize).
//  3. Every call returns a Status; NotFound for a missing key; never throw,
//     never print, never read a clock (the runner times every call).
//  4. Session = one client thread. Keep per-call work to what the engine needs:
//     reuse buffers, prepare statements once.
//  5. Batches: BatchState (adapters/support/batch_state.h) keeps the session's
//     flag and answers misuse in every engine's words (the conformance suite
//     asserts them): write no batch check of your own, only the engine's
//     begin/commit/abort inside its calls. An engine without transactions
//     answers AbortBatch with BatchState::AbortNotSupported. An engine whose
//     transaction belongs to the handle, not the session, keeps other
//     sessions out with BatchGate (adapters/support/batch_gate.h).
//  6. The last line registers the adapter under its name (hyphens allowed).
#include <map>
#include <mutex>
#include <optional>
#include <shared_mutex>

#include "adapters/engine_directory.h"
#include "adapters/registry.h"
#include "adapters/support/batch_gate.h"
#include "adapters/support/batch_state.h"
#include "adapters/support/option_parsing.h"

namespace kvbench {
namespace {

// Stands in for your engine's handle (sqlite3*, TCBDB*, VILLA*...): an
// ordered table whose one transaction belongs to the handle. Its own lock
// makes single calls safe from several threads, readers in parallel.
class TemplateEngine {
 public:
  std::optional<std::string> Get(const std::string& key) const {
    std::shared_lock lock(mutex_);
    auto it = table_.find(key);
    if (it == table_.end()) return std::nullopt;
    return it->second;
  }

  // value nullopt: delete. Returns whether the key was there.
  bool Write(const std::string& key, std::optional<std::string> value) {
    std::unique_lock lock(mutex_);
    auto it = table_.find(key);
    const bool existed = it != table_.end();
    if (in_transaction_ && undo_.count(key) == 0) {
      undo_[key] = existed ? std::optional<std::string>(it->second) : std::nullopt;
    }
    if (value) {
      table_.insert_or_assign(key, std::move(*value));
    } else if (existed) {
      table_.erase(it);
    }
    return existed;
  }

  void Begin() {
    std::unique_lock lock(mutex_);
    in_transaction_ = true;
  }
  void Commit() {
    std::unique_lock lock(mutex_);
    in_transaction_ = false;
    undo_.clear();
  }
  void Rollback() {
    std::unique_lock lock(mutex_);
    for (auto& [key, before] : undo_) {
      if (before) {
        table_.insert_or_assign(key, std::move(*before));
      } else {
        table_.erase(key);
      }
    }
    in_transaction_ = false;
    undo_.clear();
  }

  // Visits entries in unsigned byte order (std::string's order) under the
  // read lock, honouring every ScanOptions field.
  size_t Scan(Slice start, const ScanOptions& options, ScanVisitor* visitor) const {
    std::shared_lock lock(mutex_);
    size_t n = 0;
    auto visit = [&](const auto& entry) {
      ++n;
      return visitor->Visit(entry.first, options.keys_only ? Slice() : Slice(entry.second));
    };
    if (options.direction == ScanDirection::kForward) {
      auto it = options.from_edge ? table_.begin() : table_.lower_bound(std::string(start));
      for (; it != table_.end() && (options.limit == 0 || n < options.limit); ++it) {
        if (!visit(*it)) break;
      }
    } else {
      auto it = options.from_edge ? table_.end() : table_.upper_bound(std::string(start));
      while (it != table_.begin() && (options.limit == 0 || n < options.limit)) {
        --it;
        if (!visit(*it)) break;
      }
    }
    return n;
  }

 private:
  mutable std::shared_mutex mutex_;
  std::map<std::string, std::string> table_;
  bool in_transaction_ = false;
  std::map<std::string, std::optional<std::string>> undo_;  // before-images of the transaction
};

class TemplateSession final : public Session {
 public:
  TemplateSession(TemplateEngine* engine, BatchGate* gate) : engine_(engine), gate_(gate) {}

  ~TemplateSession() override {
    if (batch_.open()) (void)AbortBatch();
  }

  Status Put(Slice key, Slice value) override {
    BatchGate::Use use(gate_, batch_.open());
    engine_->Write(std::string(key), std::string(value));
    return Status::OK();
  }

  Status Get(Slice key, std::string* value) override {
    BatchGate::Use use(gate_, batch_.open());
    std::optional<std::string> found = engine_->Get(std::string(key));
    if (!found) return Status::NotFound();
    value->assign(*found);  // copy out: the caller owns *value
    return Status::OK();
  }

  Status Delete(Slice key) override {
    BatchGate::Use use(gate_, batch_.open());
    return engine_->Write(std::string(key), std::nullopt) ? Status::OK() : Status::NotFound();
  }

  // The engine's transaction belongs to the handle: while this session's
  // batch is open, the gate keeps every other session out, so none of their
  // writes joins it (and is rolled back by this abort).
  // The callables run only when the call is not a mistake; a real engine's
  // begin can fail (return its Status: the batch then stays closed).
  Status BeginBatch() override {
    return batch_.Begin([&] {
      gate_->EnterExclusive();
      engine_->Begin();
      return Status::OK();
    });
  }
  Status CommitBatch() override {
    return batch_.Commit([&] {
      engine_->Commit();
      gate_->ExitExclusive();
      return Status::OK();
    });
  }
  Status AbortBatch() override {
    return batch_.Abort([&] {
      engine_->Rollback();
      gate_->ExitExclusive();
      return Status::OK();
    });
  }

  Status Scan(Slice start, const ScanOptions& options, ScanVisitor* visitor,
              size_t* visited) override {
    BatchGate::Use use(gate_, batch_.open());
    const size_t n = engine_->Scan(start, options, visitor);
    if (visited != nullptr) *visited = n;
    return Status::OK();
  }

 private:
  TemplateEngine* engine_;
  BatchGate* gate_;
  BatchState batch_;
};

// Your engine's settings, filled only from the resolved options (the defaults
// live once, in OptionSpecs()).
struct TemplateSettings {
  int64_t max_entries = 0;
};

Status ParseTemplateSettings(const EngineOptions& options, TemplateSettings* out) {
  return ParseIntOption(options, "template.max_entries", 1, int64_t{1} << 40, &out->max_entries);
}

class TemplateAdapter final : public Adapter {
 public:
  std::string LibraryVersion() const override { return "template-2"; }

  std::vector<OptionSpec> OptionSpecs() const override {
    return {{"template.max_entries", "1000000000",
             "entries the table may hold; a real engine's sizing option goes here"}};
  }

  // A promise that depends on the options (a sync setting) reads them with
  //   const TemplateSettings s = AcceptedSettings(options, ParseTemplateSettings);
  DurabilityDeclaration DeclareDurability(const EngineOptions&) const override {
    return {.basis =
                "template: in memory, nothing survives the process (replace with what your "
                "engine's documentation promises under its sync options)"};
  }

  Capabilities capabilities() const override {
    Capabilities c;
    c.ordered = true;
    c.transactional = true;        // abort rolls the handle's transaction back
    c.concurrent_readers = true;   // the shared lock: readers run in parallel
    c.concurrent_writers = false;  // writers take the lock exclusively, one at a time
    return c;
  }

  // One parser of the options, used by CheckOptions() (at plan time, before
  // any engine runs) and by Open(), so both accept exactly the same values.
  Status CheckOptions(const EngineOptions& options) const override {
    return CheckSettings(options, ParseTemplateSettings);
  }

  Status Open(const OpenRequest& request) override {
    TemplateSettings settings;
    KVBENCH_RETURN_IF_ERROR(ParseTemplateSettings(request.options, &settings));
    directory_ = request.directory;
    engine_ = std::make_unique<TemplateEngine>();
    return Status::OK();
  }

  Status Close() override {
    engine_.reset();
    return Status::OK();
  }

  Status NewSession(std::unique_ptr<Session>* session) override {
    if (!engine_) return Status::InvalidArgument("template: not open");
    *session = std::make_unique<TemplateSession>(engine_.get(), &gate_);
    return Status::OK();
  }

  Status Sync() override { return Status::OK(); }

  // An engine that keeps its files in request.directory lists them all:
  Status ListFiles(std::vector<std::string>* paths) const override {
    return ListRegularFiles(directory_, paths);
  }

 private:
  std::string directory_;
  std::unique_ptr<TemplateEngine> engine_;
  BatchGate gate_;
};

}  // namespace
}  // namespace kvbench

KVBENCH_REGISTER_ADAPTER(template_adapter, "template", "Template adapter (copy me)",
                         [] { return std::make_unique<kvbench::TemplateAdapter>(); });
