// `gdbm`: GNU dbm 1.23 (Debian's libgdbm-dev), one hash file `data.gdbm` in
// the engine's directory.
//
// A GDBM handle serves one thread at a time, so every call holds the
// adapter's mutex: sessions on several threads take turns (no concurrent
// readers or writers are claimed). GDBM has no transactions: a batch only
// groups writes (the runner is told: transactional = false), AbortBatch is
// NotSupported, and with gdbm.sync = commit the file is synced at the end of
// each batch (or after each write outside one). Unordered: no scans.
#include <gdbm.h>

#include <cstdlib>
#include <mutex>

#include "adapters/engine_directory.h"
#include "adapters/registry.h"
#include "adapters/support/batch_state.h"
#include "adapters/support/option_parsing.h"

namespace kvbench {
namespace {

constexpr const char* kFile = "data.gdbm";

struct GdbmSettings {
  int64_t cache_buckets = 0;
  bool sync_on_commit = false;
};

Status ParseGdbmSettings(const EngineOptions& o, GdbmSettings* out) {
  KVBENCH_RETURN_IF_ERROR(o.GetInt64("gdbm.cache_size", &out->cache_buckets));
  if (out->cache_buckets < 0 || out->cache_buckets > (int64_t{1} << 24)) {
    return Status::InvalidArgument("option 'gdbm.cache_size': must be 0..16777216 buckets");
  }
  const std::string sync = o.GetString("gdbm.sync");
  if (sync != "none" && sync != "commit") {
    return Status::InvalidArgument("option 'gdbm.sync': '" + sync + "' is not none or commit");
  }
  out->sync_on_commit = sync == "commit";
  return Status::OK();
}

Status GdbmError(GDBM_FILE dbf, const std::string& operation) {
  const gdbm_error e = dbf != nullptr ? gdbm_last_errno(dbf) : gdbm_errno;
  const std::string message = operation + ": " + gdbm_strerror(e);
  switch (e) {
    case GDBM_ITEM_NOT_FOUND: return Status::NotFound();
    case GDBM_BAD_MAGIC_NUMBER:
    case GDBM_BAD_FILE_OFFSET:
    case GDBM_BAD_HEADER:
    case GDBM_BAD_BUCKET:
    case GDBM_BAD_AVAIL:
    case GDBM_BAD_DIR_ENTRY:
    case GDBM_FILE_EOF:
      return Status::Corruption(message);
    default:
      return Status::IOError(message);
  }
}

datum Datum(Slice s) {
  datum d;
  d.dptr = const_cast<char*>(s.data());
  d.dsize = static_cast<int>(s.size());
  return d;
}

struct GdbmShared {
  std::mutex mutex;
  GDBM_FILE dbf = nullptr;
  GdbmSettings settings;
};

class GdbmSession final : public Session {
 public:
  explicit GdbmSession(GdbmShared* shared) : shared_(shared) {}

  Status Put(Slice key, Slice value) override {
    if (key.size() > INT32_MAX || value.size() > INT32_MAX) {
      return Status::InvalidArgument("put: gdbm stores keys and values below 2 GiB");
    }
    std::lock_guard lock(shared_->mutex);
    if (gdbm_store(shared_->dbf, Datum(key), Datum(value), GDBM_REPLACE) != 0) {
      return GdbmError(shared_->dbf, "put");
    }
    return SyncUnlessBatched();
  }

  Status Get(Slice key, std::string* value) override {
    std::lock_guard lock(shared_->mutex);
    datum d = gdbm_fetch(shared_->dbf, Datum(key));
    if (d.dptr == nullptr) {
      return gdbm_last_errno(shared_->dbf) == GDBM_ITEM_NOT_FOUND ? Status::NotFound()
                                                                   : GdbmError(shared_->dbf, "get");
    }
    value->assign(d.dptr, static_cast<size_t>(d.dsize));
    std::free(d.dptr);  // gdbm_fetch's copy is the caller's
    return Status::OK();
  }

  Status Delete(Slice key) override {
    std::lock_guard lock(shared_->mutex);
    if (gdbm_delete(shared_->dbf, Datum(key)) != 0) {
      return gdbm_last_errno(shared_->dbf) == GDBM_ITEM_NOT_FOUND
                 ? Status::NotFound()
                 : GdbmError(shared_->dbf, "delete");
    }
    return SyncUnlessBatched();
  }

  Status BeginBatch() override { return batch_.Begin(); }
  Status CommitBatch() override {
    KVBENCH_RETURN_IF_ERROR(batch_.Commit());
    if (!shared_->settings.sync_on_commit) return Status::OK();
    std::lock_guard lock(shared_->mutex);
    return gdbm_sync(shared_->dbf) == 0 ? Status::OK() : GdbmError(shared_->dbf, "commit batch");
  }
  Status AbortBatch() override { return BatchState::AbortNotSupported("gdbm"); }

 private:
  Status SyncUnlessBatched() {
    if (batch_.open() || !shared_->settings.sync_on_commit) return Status::OK();
    return gdbm_sync(shared_->dbf) == 0 ? Status::OK() : GdbmError(shared_->dbf, "sync");
  }

  GdbmShared* shared_;
  BatchState batch_;
};

class GdbmAdapter final : public Adapter {
 public:
  ~GdbmAdapter() override { Close(); }
  std::string LibraryVersion() const override { return gdbm_version; }
  std::vector<OptionSpec> OptionSpecs() const override {
    return {
        {"gdbm.cache_size", "0",
         "buckets kept in memory (GDBM_SETCACHESIZE); 0: GDBM's own choice, which grows as "
         "needed"},
        {"gdbm.sync", "none",
         "none: the file is synced by Sync() only; commit: after every commit (each write "
         "outside a batch, each batch)"},
    };
  }
  Status CheckOptions(const EngineOptions& options) const override {
    return CheckSettings(options, ParseGdbmSettings);
  }
  // From the GDBM manual: gdbm_sync writes the file out, but updates are made
  // in place without a log (crash tolerance needs snapshots, not used here).
  DurabilityDeclaration DeclareDurability(const EngineOptions& options) const override {
    const GdbmSettings s = AcceptedSettings(options, ParseGdbmSettings);
    DurabilityDeclaration d;
    d.basis = s.sync_on_commit
                  ? "gdbm.sync=commit: every commit is synced, but a crash during the next update "
                    "can leave the file damaged (no log)"
                  : "gdbm.sync=none: gdbm caches buckets in the process and has no log";
    return d;
  }
  Capabilities capabilities() const override {
    Capabilities c;
    c.durable = true;  // one file, synced at Close
    c.reorganize = true;
    return c;
  }

  Status Open(const OpenRequest& request) override {
    if (shared_.dbf != nullptr) return Status::InvalidArgument("gdbm: already open");
    KVBENCH_RETURN_IF_ERROR(ParseGdbmSettings(request.options, &shared_.settings));
    directory_ = request.directory;
    const std::string path = JoinPath(directory_, kFile);
    shared_.dbf = gdbm_open(path.c_str(), 0, GDBM_WRCREAT, 0644, nullptr);
    if (shared_.dbf == nullptr) return GdbmError(nullptr, "open '" + path + "'");
    if (shared_.settings.cache_buckets > 0) {
      int buckets = static_cast<int>(shared_.settings.cache_buckets);
      if (gdbm_setopt(shared_.dbf, GDBM_SETCACHESIZE, &buckets, sizeof buckets) != 0) {
        Status s = GdbmError(shared_.dbf, "option 'gdbm.cache_size'");
        Close();
        return s;
      }
    }
    return Status::OK();
  }

  Status Close() override {
    if (shared_.dbf == nullptr) return Status::OK();
    const int rc = gdbm_close(shared_.dbf);
    shared_.dbf = nullptr;
    return rc == 0 ? Status::OK() : GdbmError(nullptr, "close");
  }

  Status NewSession(std::unique_ptr<Session>* session) override {
    if (shared_.dbf == nullptr) return Status::InvalidArgument("gdbm: not open");
    *session = std::make_unique<GdbmSession>(&shared_);
    return Status::OK();
  }

  Status Sync() override {
    if (shared_.dbf == nullptr) return Status::OK();
    std::lock_guard lock(shared_.mutex);
    return gdbm_sync(shared_.dbf) == 0 ? Status::OK() : GdbmError(shared_.dbf, "sync");
  }

  Status ListFiles(std::vector<std::string>* paths) const override {
    return ListRegularFiles(directory_, paths);
  }

  Status Reorganize() override {
    if (shared_.dbf == nullptr) return Status::InvalidArgument("gdbm: not open");
    std::lock_guard lock(shared_.mutex);
    return gdbm_reorganize(shared_.dbf) == 0 ? Status::OK()
                                              : GdbmError(shared_.dbf, "reorganize");
  }

 private:
  std::string directory_;
  GdbmShared shared_;
};

}  // namespace
}  // namespace kvbench

KVBENCH_REGISTER_ADAPTER(gdbm, "gdbm", "GNU dbm: on-disk hash (unordered, durable)",
                         [] { return std::make_unique<kvbench::GdbmAdapter>(); });
