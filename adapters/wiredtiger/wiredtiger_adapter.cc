// `wiredtiger-btree` and `wiredtiger-lsm`: WiredTiger 3.2 (Debian's
// libwiredtiger-dev), MongoDB's storage engine, one table `table:kv` of raw
// byte keys and values (key_format=u, value_format=u) in the engine's
// directory, as a B-tree or an LSM tree.
//
// Each Session owns a WT_SESSION and one cursor (a WT_SESSION is
// single-threaded; the connection serves many), so sessions read and write in
// parallel. Outside a batch every operation is its own (autocommit)
// transaction; a batch is one WiredTiger transaction: commit writes it
// atomically, abort rolls it back, and reads inside it see its writes.
//
// Durability: with the log on (the default), a commit is in the log; with
// wiredtiger.sync = commit the log is fsynced at every commit. Sync() flushes
// the log (or, without one, takes a checkpoint). Close takes a checkpoint.
#include <wiredtiger.h>

#include <cstring>

#include "adapters/engine_directory.h"
#include "adapters/registry.h"
#include "adapters/support/batch_state.h"
#include "adapters/support/option_parsing.h"

namespace kvbench {
namespace {

constexpr const char* kTable = "table:kv";

Status WtError(int rc, const std::string& operation) {
  const std::string message = operation + ": " + wiredtiger_strerror(rc);
  if (rc == WT_NOTFOUND) return Status::NotFound();
  if (rc == WT_ROLLBACK || rc == EBUSY) return Status::Busy(message);
  if (rc == EINVAL) return Status::InvalidArgument(message);
  if (rc == WT_PANIC) return Status::Corruption(message);
  return Status::IOError(message);
}

struct WtSettings {
  uint64_t cache_size = 0;
  int64_t checkpoint_s = 0;
  bool log = true;
  bool sync_on_commit = false;
};

Status ParseWtSettings(const EngineOptions& o, WtSettings* out) {
  KVBENCH_RETURN_IF_ERROR(o.GetBytes("wiredtiger.cache_size", &out->cache_size));
  if (out->cache_size < (1 << 20)) {
    return Status::InvalidArgument("option 'wiredtiger.cache_size': at least 1 MiB");
  }
  KVBENCH_RETURN_IF_ERROR(o.GetInt64("wiredtiger.checkpoint_s", &out->checkpoint_s));
  if (out->checkpoint_s < 0 || out->checkpoint_s > 100000) {
    return Status::InvalidArgument("option 'wiredtiger.checkpoint_s': must be 0..100000");
  }
  KVBENCH_RETURN_IF_ERROR(o.GetBool("wiredtiger.log", &out->log));
  const std::string sync = o.GetString("wiredtiger.sync");
  if (sync != "none" && sync != "commit") {
    return Status::InvalidArgument("option 'wiredtiger.sync': '" + sync +
                                   "' is not none or commit");
  }
  out->sync_on_commit = sync == "commit";
  if (out->sync_on_commit && !out->log) {
    return Status::InvalidArgument("option 'wiredtiger.sync': commit needs wiredtiger.log = true");
  }
  return Status::OK();
}

class WtSession final : public Session {
 public:
  WtSession(WT_SESSION* session, WT_CURSOR* cursor) : session_(session), cursor_(cursor) {}
  ~WtSession() override {
    if (batch_.open()) session_->rollback_transaction(session_, nullptr);
    session_->close(session_, nullptr);  // closes the cursor too
  }

  Status Put(Slice key, Slice value) override {
    SetKey(key);
    WT_ITEM v{};
    v.data = value.data();
    v.size = value.size();
    cursor_->set_value(cursor_, &v);
    const int rc = cursor_->insert(cursor_);  // overwrite=true: insert or replace
    return rc == 0 ? Status::OK() : WtError(rc, "put");
  }

  Status Get(Slice key, std::string* value) override {
    SetKey(key);
    int rc = cursor_->search(cursor_);
    if (rc == 0) {
      WT_ITEM v{};
      rc = cursor_->get_value(cursor_, &v);
      if (rc == 0) value->assign(static_cast<const char*>(v.data), v.size);
    }
    cursor_->reset(cursor_);  // release the page (and, outside a batch, the snapshot)
    return rc == 0 ? Status::OK() : WtError(rc, "get");
  }

  Status Delete(Slice key) override {
    SetKey(key);
    const int rc = cursor_->remove(cursor_);
    return rc == 0 ? Status::OK() : WtError(rc, "delete");
  }

  Status BeginBatch() override {
    return batch_.Begin([&] {
      const int rc = session_->begin_transaction(session_, nullptr);
      return rc == 0 ? Status::OK() : WtError(rc, "begin batch");
    });
  }

  Status CommitBatch() override {
    return batch_.Commit([&] {
      const int rc = session_->commit_transaction(session_, nullptr);
      return rc == 0 ? Status::OK() : WtError(rc, "commit batch");
    });
  }

  Status AbortBatch() override {
    return batch_.Abort([&] {
      const int rc = session_->rollback_transaction(session_, nullptr);
      return rc == 0 ? Status::OK() : WtError(rc, "abort batch");
    });
  }

  Status Scan(Slice start, const ScanOptions& options, ScanVisitor* visitor,
              size_t* visited) override {
    size_t n = 0;
    const bool forward = options.direction == ScanDirection::kForward;
    int rc;
    if (options.from_edge) {
      cursor_->reset(cursor_);
      rc = forward ? cursor_->next(cursor_) : cursor_->prev(cursor_);
    } else {
      SetKey(start);
      int exact = 0;
      rc = cursor_->search_near(cursor_, &exact);
      // search_near lands on the nearest key on either side: step to the
      // first key >= start (forward) or the last key <= start (backward).
      if (rc == 0 && forward && exact < 0) rc = cursor_->next(cursor_);
      if (rc == 0 && !forward && exact > 0) rc = cursor_->prev(cursor_);
    }
    while (rc == 0 && (options.limit == 0 || n < options.limit)) {
      WT_ITEM k{}, v{};
      rc = cursor_->get_key(cursor_, &k);
      if (rc == 0 && !options.keys_only) rc = cursor_->get_value(cursor_, &v);
      if (rc != 0) break;
      ++n;
      if (!visitor->Visit(Slice(static_cast<const char*>(k.data), k.size),
                          Slice(static_cast<const char*>(v.data), v.size))) {
        break;
      }
      rc = forward ? cursor_->next(cursor_) : cursor_->prev(cursor_);
    }
    cursor_->reset(cursor_);
    if (visited != nullptr) *visited = n;
    return rc == 0 || rc == WT_NOTFOUND ? Status::OK() : WtError(rc, "scan");
  }

 private:
  void SetKey(Slice key) {
    key_.data = key.data();
    key_.size = key.size();
    cursor_->set_key(cursor_, &key_);
  }

  WT_SESSION* session_;
  WT_CURSOR* cursor_;
  WT_ITEM key_{};
  BatchState batch_;
};

class WtAdapter final : public Adapter {
 public:
  explicit WtAdapter(bool lsm) : lsm_(lsm) {}
  ~WtAdapter() override { Close(); }

  std::string LibraryVersion() const override { return WIREDTIGER_VERSION_STRING; }

  std::vector<OptionSpec> OptionSpecs() const override {
    return {
        {"wiredtiger.cache_size", "256MiB",
         "the connection's cache (wiredtiger_open cache_size); MongoDB's own default is half "
         "the RAM less 1 GiB"},
        {"wiredtiger.checkpoint_s", "60",
         "seconds between background checkpoints (checkpoint=(wait=N), MongoDB's 60); 0: only "
         "at close"},
        {"wiredtiger.log", "true", "the write-ahead log (journal, as MongoDB runs it)"},
        {"wiredtiger.sync", "none",
         "none: the log is written but not fsynced at commit (transaction_sync off, MongoDB's "
         "default between journal flushes); commit: fsync the log at every commit"},
    };
  }

  Status CheckOptions(const EngineOptions& options) const override {
    return CheckSettings(options, ParseWtSettings);
  }

  // From WiredTiger's documentation of durability (log, transaction_sync,
  // checkpoints).
  DurabilityDeclaration DeclareDurability(const EngineOptions& options) const override {
    const WtSettings s = AcceptedSettings(options, ParseWtSettings);
    DurabilityDeclaration d;
    d.atomic_batches = true;
    d.process_crash = FaultPromise::kConsistent;
    d.power_loss = FaultPromise::kConsistent;
    if (!s.log) {
      d.basis =
          "wiredtiger.log=false: only checkpoints are durable; recovery goes back to the last";
    } else if (!s.sync_on_commit) {
      d.basis = "wiredtiger.sync=none: commits sit in the log buffer until it is flushed";
    } else {
      d.process_crash = FaultPromise::kDurable;
      d.power_loss = FaultPromise::kDurable;
      d.basis = "wiredtiger.sync=commit: the log is fsynced at every commit";
    }
    return d;
  }
  Capabilities capabilities() const override {
    Capabilities c;
    c.ordered = true;
    c.transactional = true;
    c.durable = true;
    c.concurrent_readers = true;
    c.concurrent_writers = true;
    c.reorganize = true;  // session->compact
    return c;
  }

  Status Open(const OpenRequest& request) override {
    if (conn_ != nullptr) return Status::InvalidArgument("wiredtiger: already open");
    KVBENCH_RETURN_IF_ERROR(ParseWtSettings(request.options, &settings_));
    directory_ = request.directory;
    std::string config = "create,cache_size=" + std::to_string(settings_.cache_size);
    if (settings_.checkpoint_s > 0) {
      config += ",checkpoint=(wait=" + std::to_string(settings_.checkpoint_s) + ")";
    }
    config += settings_.log ? ",log=(enabled=true)" : ",log=(enabled=false)";
    config += settings_.sync_on_commit ? ",transaction_sync=(enabled=true,method=fsync)"
                                       : ",transaction_sync=(enabled=false)";
    int rc = wiredtiger_open(directory_.c_str(), nullptr, config.c_str(), &conn_);
    if (rc != 0) {
      conn_ = nullptr;
      return WtError(rc, "open '" + directory_ + "'");
    }
    rc = conn_->open_session(conn_, nullptr, nullptr, &admin_);
    if (rc == 0) {
      const std::string table = std::string("key_format=u,value_format=u") +
                                (lsm_ ? ",type=lsm" : "");
      rc = admin_->create(admin_, kTable, table.c_str());
    }
    if (rc != 0) {
      Status s = WtError(rc, "create table");
      Close();
      return s;
    }
    return Status::OK();
  }

  Status Close() override {
    if (conn_ == nullptr) return Status::OK();
    const int rc = conn_->close(conn_, nullptr);  // closes sessions, checkpoints
    conn_ = nullptr;
    admin_ = nullptr;
    return rc == 0 ? Status::OK() : WtError(rc, "close");
  }

  Status NewSession(std::unique_ptr<Session>* session) override {
    if (conn_ == nullptr) return Status::InvalidArgument("wiredtiger: not open");
    WT_SESSION* s = nullptr;
    int rc = conn_->open_session(conn_, nullptr, nullptr, &s);
    if (rc != 0) return WtError(rc, "new session");
    WT_CURSOR* c = nullptr;
    rc = s->open_cursor(s, kTable, nullptr, nullptr, &c);
    if (rc != 0) {
      s->close(s, nullptr);
      return WtError(rc, "open cursor");
    }
    *session = std::make_unique<WtSession>(s, c);
    return Status::OK();
  }

  Status Sync() override {
    if (conn_ == nullptr) return Status::OK();
    const int rc = settings_.log ? admin_->log_flush(admin_, "sync=on")
                                 : admin_->checkpoint(admin_, nullptr);
    return rc == 0 ? Status::OK() : WtError(rc, "sync");
  }

  Status ListFiles(std::vector<std::string>* paths) const override {
    return ListRegularFiles(directory_, paths);
  }

  Status Reorganize() override {
    if (conn_ == nullptr) return Status::InvalidArgument("wiredtiger: not open");
    int rc = admin_->checkpoint(admin_, nullptr);
    if (rc == 0) rc = admin_->compact(admin_, kTable, nullptr);
    return rc == 0 ? Status::OK() : WtError(rc, "reorganize");
  }

 private:
  const bool lsm_;
  WtSettings settings_;
  std::string directory_;
  WT_CONNECTION* conn_ = nullptr;
  WT_SESSION* admin_ = nullptr;  // for create, checkpoint, log flush, compact
};

}  // namespace
}  // namespace kvbench

KVBENCH_REGISTER_ADAPTER(wiredtiger_btree, "wiredtiger-btree",
                         "WiredTiger (MongoDB's engine) B-tree table (ordered, transactional)",
                         [] { return std::make_unique<kvbench::WtAdapter>(false); });
KVBENCH_REGISTER_ADAPTER(wiredtiger_lsm, "wiredtiger-lsm",
                         "WiredTiger LSM tree table (ordered, transactional)",
                         [] { return std::make_unique<kvbench::WtAdapter>(true); });
