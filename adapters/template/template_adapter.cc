// TEMPLATE: copy this folder to adapters/<yourengine>/, rename, and fill in.
// It compiles as it stands (an in-memory hash table standing in for "your
// engine") so you can start from working code; adapters/CMakeLists.txt builds
// it only as a compile check, it is not registered in kvbench.
//
// Checklist (docs/adding-an-adapter.md has the whole story):
//  1. Options: namespaced "<engine>.<name>", defaults = the seeds' settings,
//     one line of help each saying why.
//  2. Capabilities: claim only what the engine really does; the conformance
//     suite tests every claim (ordered -> scans, transactional -> abort,
//     durable -> reopen).
//  3. Every call returns a Status; NotFound for a missing key; never throw,
//     never print, never read a clock (the runner times every call).
//  4. Session = one client thread. Keep per-call work to what the engine needs:
//     reuse buffers, prepare statements once.
//  5. The last line registers the adapter under its name.
#include <mutex>
#include <unordered_map>

#include "adapters/engine_directory.h"
#include "adapters/registry.h"

namespace kvbench {
namespace {

// Stands in for your engine's handle (sqlite3*, MDB_env*, DB*...).
struct TemplateEngine {
  std::mutex mutex;  // the runner may use sessions on several threads at once
  std::unordered_map<std::string, std::string> table;
};

class TemplateSession final : public Session {
 public:
  explicit TemplateSession(TemplateEngine* engine) : engine_(engine) {}

  Status Put(Slice key, Slice value) override {
    std::lock_guard lock(engine_->mutex);
    engine_->table.insert_or_assign(std::string(key), std::string(value));
    return Status::OK();
  }

  Status Get(Slice key, std::string* value) override {
    std::lock_guard lock(engine_->mutex);
    auto it = engine_->table.find(std::string(key));
    if (it == engine_->table.end()) return Status::NotFound();
    value->assign(it->second);  // copy out: the caller owns *value
    return Status::OK();
  }

  Status Delete(Slice key) override {
    std::lock_guard lock(engine_->mutex);
    return engine_->table.erase(std::string(key)) ? Status::OK() : Status::NotFound();
  }

  // No transactions here: batches only group writes (capabilities say so) and
  // abort is not supported. Map these to your engine's real transaction.
  Status BeginBatch() override { return Status::OK(); }
  Status CommitBatch() override { return Status::OK(); }
  Status AbortBatch() override { return Status::NotSupported("template: no transactions"); }

  // Unordered engine: the default Scan returns NotSupported. An ordered engine
  // overrides Scan and honours ScanOptions (direction, limit, from_edge,
  // keys_only).

 private:
  TemplateEngine* engine_;
};

// Your engine's settings, filled only from the resolved options (the defaults
// live once, in OptionSpecs()).
struct TemplateSettings {
  uint64_t buckets = 0;
};

Status ParseTemplateSettings(const EngineOptions& options, TemplateSettings* out) {
  int64_t buckets = 0;
  KVBENCH_RETURN_IF_ERROR(options.GetInt64("template.buckets", &buckets));
  if (buckets < 1 || buckets > (int64_t{1} << 32)) {
    return Status::InvalidArgument("option 'template.buckets': must be 1..2^32");
  }
  out->buckets = static_cast<uint64_t>(buckets);
  return Status::OK();
}

class TemplateAdapter final : public Adapter {
 public:
  std::string LibraryVersion() const override { return "template-1"; }

  std::vector<OptionSpec> OptionSpecs() const override {
    return {{"template.buckets", "1024", "initial hash buckets; larger avoids rehashing in loads"}};
  }

  DurabilityDeclaration DeclareDurability(const EngineOptions&) const override {
    return {.basis =
                "template: replace with what your engine's documentation promises under its sync "
                "options"};
  }

  Capabilities capabilities() const override {
    Capabilities c;
    c.concurrent_readers = true;  // safe, though serialised by the mutex
    c.concurrent_writers = true;
    return c;
  }

  // One parser of the options, used by CheckOptions() (at plan time, before
  // any engine runs) and by Open(), so both accept exactly the same values.
  Status CheckOptions(const EngineOptions& options) const override {
    TemplateSettings ignored;
    return ParseTemplateSettings(options, &ignored);
  }

  Status Open(const OpenRequest& request) override {
    TemplateSettings settings;
    KVBENCH_RETURN_IF_ERROR(ParseTemplateSettings(request.options, &settings));
    directory_ = request.directory;
    engine_ = std::make_unique<TemplateEngine>();
    engine_->table.reserve(settings.buckets);
    return Status::OK();
  }

  Status Close() override {
    engine_.reset();
    return Status::OK();
  }

  Status NewSession(std::unique_ptr<Session>* session) override {
    if (!engine_) return Status::InvalidArgument("template: not open");
    *session = std::make_unique<TemplateSession>(engine_.get());
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
};

}  // namespace
}  // namespace kvbench

KVBENCH_REGISTER_ADAPTER(template_adapter, "template", "Template adapter (copy me)",
                         [] { return std::make_unique<kvbench::TemplateAdapter>(); });
