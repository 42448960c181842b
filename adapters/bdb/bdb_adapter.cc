// `bdb-hash` and `bdb-btree`: Berkeley DB 5.3 through its C API. One adapter class serves both
// access methods; the DBTYPE it is constructed with (DB_HASH, DB_BTREE) is the only difference,
// so the two registrations at the end share every line of code.
//
// Files: the engine directory is the DB_ENV home. The database is `data.db` in it; in
// transactional mode the write-ahead logs (log.NNNNNNNNNN) sit beside it, and with
// bdb.private_env=false so do the region files (__db.NNN). ListFiles lists the whole directory,
// so every one of them is counted.
//
// Modes (bdb.transactional):
// - false (default, seed 004's setting: a plain DB_HASH with no transactions): the environment
//   is DB_INIT_MPOOL | DB_INIT_CDB | DB_THREAD. Concurrent Data Store locking (many readers or
//   one writer per database, never a deadlock) is there only so sessions on several threads are
//   safe; DB_INIT_LOCK's page locks without transactions would let more writers in, but in 5.3
//   DB->compact deadlocks against itself under them. Batches are emulated (writes apply at once,
//   AbortBatch is NotSupported). Committed data reaches the file at Sync() or Close().
// - true: DB_INIT_LOCK | DB_INIT_TXN | DB_INIT_LOG | DB_RECOVER; page-level locks, so writers
//   run in parallel. A batch is one DB_TXN, an autocommit write is its own transaction
//   (DB_AUTO_COMMIT).
// bdb.sync=commit makes every commit durable at once: the log is flushed at each transaction
// commit, or without transactions DB->sync runs after each autocommitted write and each batch
// commit (seed 004's "store with sync after each record").
//
// Thread-safety: the DB and DB_ENV handles are DB_THREAD, so sessions share them; each session
// keeps its own buffers and transaction. In transactional mode deadlocks between sessions are
// detected at lock request time (DB_LOCK_DEFAULT): a single autocommit operation is retried, a
// batch gets Busy and must be aborted.
#include <db.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>

#include "adapters/bdb/bdb_options.h"
#include "adapters/engine_directory.h"
#include "adapters/registry.h"
#include "adapters/support/batch_state.h"
#include "adapters/support/option_parsing.h"

namespace kvbench {
namespace {

constexpr const char* kDataFile = "data.db";
constexpr int kDeadlockRetries = 100;
constexpr size_t kInitialBufferBytes = 4096;

// Berkeley DB reports detail (which argument was wrong, which file could not be opened) through
// an error callback rather than its return codes. The callback keeps the latest text per thread
// and the next error status built on that thread carries it.
thread_local std::string last_error_detail;

void CaptureErrorDetail(const DB_ENV*, const char*, const char* message) {
  last_error_detail = message;
}

// A Status for Berkeley DB return code `ret` from operation `op` on engine `engine`.
Status BdbStatus(const std::string& engine, const char* op, int ret) {
  if (ret == 0) return Status::OK();
  std::string message = engine + " " + op + ": " + db_strerror(ret);
  if (!last_error_detail.empty()) {
    message += " (" + last_error_detail + ")";
    last_error_detail.clear();
  }
  switch (ret) {
    case DB_NOTFOUND:
    case DB_KEYEMPTY:
      return Status::NotFound(std::move(message));
    case DB_LOCK_DEADLOCK:
    case DB_LOCK_NOTGRANTED:
      return Status::Busy(std::move(message));
    case DB_RUNRECOVERY:
    case DB_VERIFY_BAD:
    case DB_PAGE_NOTFOUND:
      return Status::Corruption(std::move(message));
    case EINVAL:
      return Status::InvalidArgument(std::move(message));
    default:
      // Positive codes are errno values from the operating system.
      return ret > 0 ? Status::IOError(std::move(message)) : Status::Internal(std::move(message));
  }
}

// A DBT describing caller-owned input bytes; Berkeley DB only reads them.
DBT InputDbt(Slice bytes) {
  DBT dbt;
  std::memset(&dbt, 0, sizeof(dbt));
  dbt.data = const_cast<char*>(bytes.data() != nullptr ? bytes.data() : "");
  dbt.size = static_cast<u_int32_t>(bytes.size());
  return dbt;
}

// A DBT that receives output into `buffer` without allocating (DB_DBT_USERMEM): when the buffer
// is too small the call fails with DB_BUFFER_SMALL and dbt.size says how much is needed.
DBT OutputDbt(std::string* buffer) {
  DBT dbt;
  std::memset(&dbt, 0, sizeof(dbt));
  dbt.data = buffer->data();
  dbt.ulen = static_cast<u_int32_t>(buffer->size());
  dbt.flags = DB_DBT_USERMEM;
  return dbt;
}

void GrowTo(std::string* buffer, u_int32_t needed) {
  if (buffer->size() < needed) buffer->resize(std::max<size_t>(needed, buffer->size() * 2));
}

// What sessions share: the open handles and the settings they were opened with.
struct BdbShared {
  std::string name;  // "bdb-hash" or "bdb-btree", for messages
  DBTYPE type;
  BdbSettings settings;
  DB_ENV* env = nullptr;
  DB* db = nullptr;
};

class BdbSession final : public Session {
 public:
  explicit BdbSession(const BdbShared* shared)
      : shared_(shared),
        key_buffer_(kInitialBufferBytes, '\0'),
        value_buffer_(kInitialBufferBytes, '\0') {}

  ~BdbSession() override {
    if (txn_ != nullptr) txn_->abort(txn_);
  }

  Status Put(Slice key, Slice value) override {
    if (key.size() > UINT32_MAX || value.size() > UINT32_MAX) {
      return Status::InvalidArgument(shared_->name + " put: key or value over 4 GiB");
    }
    DBT k = InputDbt(key), v = InputDbt(value);
    DB* db = shared_->db;
    return Write("put", [&](DB_TXN* txn) { return db->put(db, txn, &k, &v, 0); });
  }

  Status Get(Slice key, std::string* value) override {
    DBT k = InputDbt(key);
    DB* db = shared_->db;
    int ret;
    for (;;) {
      DBT v = OutputDbt(&value_buffer_);
      ret = RetryOutsideBatch([&] { return db->get(db, txn_, &k, &v, 0); });
      if (ret == DB_BUFFER_SMALL) {
        GrowTo(&value_buffer_, v.size);
        continue;
      }
      if (ret == 0) value->assign(value_buffer_.data(), v.size);
      break;
    }
    if (ret == DB_NOTFOUND || ret == DB_KEYEMPTY) return Status::NotFound();
    return BdbStatus(shared_->name, "get", ret);
  }

  Status Delete(Slice key) override {
    DBT k = InputDbt(key);
    DB* db = shared_->db;
    return Write("delete", [&](DB_TXN* txn) { return db->del(db, txn, &k, 0); });
  }

  Status BeginBatch() override {
    return batch_.Begin([&] {
      if (!shared_->settings.transactional) return Status::OK();
      DB_ENV* env = shared_->env;
      return BdbStatus(shared_->name, "begin", env->txn_begin(env, nullptr, &txn_, 0));
    });
  }

  Status CommitBatch() override {
    return batch_.Commit([&] {
      if (txn_ == nullptr) return SyncIfAsked("commit");
      DB_TXN* txn = txn_;
      txn_ = nullptr;  // commit frees the handle even when it fails
      return BdbStatus(shared_->name, "commit", txn->commit(txn, 0));
    });
  }

  // Without transactions an emulated batch stays open until CommitBatch.
  Status AbortBatch() override {
    if (!shared_->settings.transactional) {
      return BatchState::AbortNotSupported(shared_->name + " with bdb.transactional=false");
    }
    return batch_.Abort([&] {
      DB_TXN* txn = txn_;
      txn_ = nullptr;
      return BdbStatus(shared_->name, "abort", txn->abort(txn));
    });
  }

  Status Scan(Slice start, const ScanOptions& options, ScanVisitor* visitor,
              size_t* visited) override;

 private:
  // Runs `op` once inside a batch (a deadlock there must abort the whole transaction), or
  // retries it on deadlock outside one (an autocommitted operation is undone when it loses).
  template <typename Op>
  int RetryOutsideBatch(Op op) {
    int ret = op();
    if (txn_ != nullptr) return ret;
    for (int i = 0; i < kDeadlockRetries && ret == DB_LOCK_DEADLOCK; ++i) ret = op();
    return ret;
  }

  template <typename Op>
  Status Write(const char* what, Op op) {
    int ret = RetryOutsideBatch([&] { return op(txn_); });
    if (ret == DB_NOTFOUND) return Status::NotFound();
    KVBENCH_RETURN_IF_ERROR(BdbStatus(shared_->name, what, ret));
    return batch_.open() ? Status::OK() : SyncIfAsked(what);
  }

  // Without transactions, bdb.sync=commit flushes the database after each commit point.
  Status SyncIfAsked(const char* what) {
    if (!shared_->settings.sync_on_commit || shared_->settings.transactional) return Status::OK();
    DB* db = shared_->db;
    return BdbStatus(shared_->name, (std::string(what) + " sync").c_str(), db->sync(db, 0));
  }

  // One cursor step into key_buffer_ / value_buffer_, growing them until the entry fits (a failed
  // DBcursor->get leaves the cursor where it was, so the step can be repeated). DB_SET_RANGE
  // reads its search key from key_buffer_, so `start` is copied there before each try.
  int CursorGet(DBC* cursor, u_int32_t flag, Slice start, bool keys_only) {
    for (;;) {
      if (flag == DB_SET_RANGE) {
        GrowTo(&key_buffer_, static_cast<u_int32_t>(start.size()));
        if (!start.empty()) std::memcpy(key_buffer_.data(), start.data(), start.size());
      }
      DBT k = OutputDbt(&key_buffer_), v = OutputDbt(&value_buffer_);
      if (flag == DB_SET_RANGE) k.size = static_cast<u_int32_t>(start.size());
      if (keys_only) v.flags |= DB_DBT_PARTIAL;  // dlen 0: the value is not read at all
      const int ret = cursor->get(cursor, &k, &v, flag);
      if (ret == DB_BUFFER_SMALL) {
        GrowTo(&key_buffer_, k.size);
        GrowTo(&value_buffer_, v.size);
        continue;
      }
      key_size_ = k.size;
      value_size_ = keys_only ? 0 : v.size;
      return ret;
    }
  }

  const BdbShared* shared_;
  DB_TXN* txn_ = nullptr;  // the open batch's transaction (transactional mode only)
  BatchState batch_;
  // Reused across calls so that reads allocate nothing after warm-up.
  std::string key_buffer_, value_buffer_;
  u_int32_t key_size_ = 0, value_size_ = 0;
};

Status BdbSession::Scan(Slice start, const ScanOptions& options, ScanVisitor* visitor,
                        size_t* visited) {
  if (visited != nullptr) *visited = 0;
  if (shared_->type != DB_BTREE) {
    return Status::NotSupported(shared_->name + " scan: a hash database is not ordered");
  }
  DB* db = shared_->db;
  DBC* cursor = nullptr;
  KVBENCH_RETURN_IF_ERROR(BdbStatus(shared_->name, "scan", db->cursor(db, txn_, &cursor, 0)));
  const bool forward = options.direction == ScanDirection::kForward;
  const bool keys_only = options.keys_only;
  int ret;
  if (options.from_edge) {
    ret = CursorGet(cursor, forward ? DB_FIRST : DB_LAST, {}, keys_only);
  } else {
    ret = CursorGet(cursor, DB_SET_RANGE, start, keys_only);  // first key >= start
    if (!forward) {
      if (ret == DB_NOTFOUND) {
        ret = CursorGet(cursor, DB_LAST, {}, keys_only);  // every key is < start
      } else if (ret == 0 && Slice(key_buffer_.data(), key_size_) != start) {
        ret = CursorGet(cursor, DB_PREV, {}, keys_only);  // the last key < start
      }
    }
  }
  const size_t limit = options.limit == 0 ? SIZE_MAX : options.limit;
  size_t n = 0;
  while (ret == 0 && n < limit) {
    ++n;
    if (!visitor->Visit(Slice(key_buffer_.data(), key_size_),
                        Slice(value_buffer_.data(), value_size_))) {
      break;
    }
    if (n < limit) ret = CursorGet(cursor, forward ? DB_NEXT : DB_PREV, {}, keys_only);
  }
  const int close_ret = cursor->close(cursor);
  if (visited != nullptr) *visited = n;
  if (ret != 0 && ret != DB_NOTFOUND) return BdbStatus(shared_->name, "scan", ret);
  return BdbStatus(shared_->name, "scan cursor close", close_ret);
}

class BdbAdapter final : public Adapter {
 public:
  BdbAdapter(DBTYPE type, std::string name) {
    shared_.type = type;
    shared_.name = std::move(name);
    // Before Open, capabilities() reports the defaults: parse them from the specs themselves.
    EngineOptions defaults;
    if (ResolveEngineOptions(shared_.name, OptionSpecs(), {}, &defaults).ok()) {
      ParseBdbSettings(defaults, type, &shared_.settings);
    }
  }
  ~BdbAdapter() override { Close(); }

  std::string LibraryVersion() const override { return db_version(nullptr, nullptr, nullptr); }

  std::vector<OptionSpec> OptionSpecs() const override { return BdbOptionSpecs(shared_.type); }
  Status CheckOptions(const EngineOptions& options) const override {
    return CheckSettings(options, ParseBdbSettings, shared_.type);
  }

  // From Berkeley DB's reference guide: recovery needs the transaction log;
  // DB_TXN_NOSYNC keeps ACI but not D.
  DurabilityDeclaration DeclareDurability(const EngineOptions& options) const override {
    const BdbSettings s = AcceptedSettings(options, ParseBdbSettings, shared_.type);
    DurabilityDeclaration d;
    d.atomic_batches = s.transactional;
    if (!s.transactional) {
      d.basis =
          "bdb.transactional=false: no log to recover from; a crash or power loss during a "
          "write-back can leave pages half-updated (bdb.sync=commit flushes each commit)";
    } else if (!s.sync_on_commit) {
      d.process_crash = FaultPromise::kConsistent;
      d.power_loss = FaultPromise::kConsistent;
      d.basis =
          "bdb.sync=none (DB_TXN_NOSYNC): the log is not flushed at commit; recovery "
          "restores a consistent earlier state";
    } else {
      d.process_crash = FaultPromise::kDurable;
      d.power_loss = FaultPromise::kDurable;
      d.basis = "bdb.transactional=true, bdb.sync=commit: the log is fsynced at every commit";
    }
    return d;
  }

  Capabilities capabilities() const override {
    Capabilities c;
    c.ordered = shared_.type == DB_BTREE;
    c.transactional = shared_.settings.transactional;
    c.durable = true;
    c.concurrent_readers = true;
    // Page-level locks with transactions; Concurrent Data Store admits one writer at a time.
    c.concurrent_writers = shared_.settings.transactional;
    c.reorganize = true;  // DB->compact handles btree and hash databases
    return c;
  }

  Status Open(const OpenRequest& request) override;
  Status Close() override;

  Status NewSession(std::unique_ptr<Session>* session) override {
    if (shared_.db == nullptr) return Status::InvalidArgument(shared_.name + " session: not open");
    *session = std::make_unique<BdbSession>(&shared_);
    return Status::OK();
  }

  Status Sync() override {
    if (shared_.db == nullptr) return Status::OK();
    if (shared_.settings.transactional) {
      // A checkpoint flushes the log and writes every dirty page back, so the data file is
      // current (and logs no longer needed are removed, DB_LOG_AUTO_REMOVE).
      DB_ENV* env = shared_.env;
      return BdbStatus(shared_.name, "sync", env->txn_checkpoint(env, 0, 0, 0));
    }
    DB* db = shared_.db;
    return BdbStatus(shared_.name, "sync", db->sync(db, 0));
  }

  Status ListFiles(std::vector<std::string>* paths) const override {
    return ListRegularFiles(directory_, paths);
  }

  Status Reorganize() override {
    if (shared_.db == nullptr) {
      return Status::InvalidArgument(shared_.name + " reorganize: not open");
    }
    DB* db = shared_.db;
    DB_COMPACT stats;
    std::memset(&stats, 0, sizeof(stats));
    return BdbStatus(shared_.name, "reorganize (DB->compact)",
                     db->compact(db, nullptr, nullptr, nullptr, &stats, DB_FREE_SPACE, nullptr));
  }

 private:
  Status OpenEnvironment(const std::string& directory);
  Status OpenDatabase();

  BdbShared shared_;
  std::string directory_;
};

Status BdbAdapter::OpenEnvironment(const std::string& directory) {
  const BdbSettings& s = shared_.settings;
  const std::string& name = shared_.name;
  if (!s.private_env && !s.transactional) {
    // Region files left by a process that did not close cleanly would be joined as they are;
    // start from fresh ones (DB_RECOVER does the same in transactional mode).
    DB_ENV* stale = nullptr;
    KVBENCH_RETURN_IF_ERROR(BdbStatus(name, "env create", db_env_create(&stale, 0)));
    stale->remove(stale, directory.c_str(), DB_FORCE);  // frees the handle; absent is fine
  }
  KVBENCH_RETURN_IF_ERROR(BdbStatus(name, "env create", db_env_create(&shared_.env, 0)));
  DB_ENV* env = shared_.env;
  env->set_errcall(env, CaptureErrorDetail);
  KVBENCH_RETURN_IF_ERROR(
      BdbStatus(name, "set bdb.cache_size",
                env->set_cachesize(env, static_cast<u_int32_t>(s.cache_size >> 30),
                                   static_cast<u_int32_t>(s.cache_size & ((1u << 30) - 1)), 1)));
  u_int32_t flags = DB_CREATE | DB_INIT_MPOOL | DB_THREAD;
  if (s.private_env) flags |= DB_PRIVATE;
  if (!s.transactional) {
    flags |= DB_INIT_CDB;
  } else {
    KVBENCH_RETURN_IF_ERROR(
        BdbStatus(name, "set lock detection", env->set_lk_detect(env, DB_LOCK_DEFAULT)));
    flags |= DB_INIT_LOCK | DB_INIT_TXN | DB_INIT_LOG | DB_RECOVER;
    if (!s.sync_on_commit) {
      KVBENCH_RETURN_IF_ERROR(
          BdbStatus(name, "set bdb.sync", env->set_flags(env, DB_TXN_NOSYNC, 1)));
    }
    KVBENCH_RETURN_IF_ERROR(
        BdbStatus(name, "set log auto-remove", env->log_set_config(env, DB_LOG_AUTO_REMOVE, 1)));
  }
  return BdbStatus(name, "env open", env->open(env, directory.c_str(), flags, 0));
}

Status BdbAdapter::OpenDatabase() {
  const BdbSettings& s = shared_.settings;
  const std::string& name = shared_.name;
  KVBENCH_RETURN_IF_ERROR(BdbStatus(name, "db create", db_create(&shared_.db, shared_.env, 0)));
  DB* db = shared_.db;
  if (s.page_size != 0) {
    KVBENCH_RETURN_IF_ERROR(
        BdbStatus(name, "set bdb.page_size", db->set_pagesize(db, s.page_size)));
  }
  if (s.hash_ffactor != 0) {
    KVBENCH_RETURN_IF_ERROR(
        BdbStatus(name, "set bdb.hash_ffactor", db->set_h_ffactor(db, s.hash_ffactor)));
  }
  if (s.hash_nelem != 0) {
    KVBENCH_RETURN_IF_ERROR(
        BdbStatus(name, "set bdb.hash_nelem", db->set_h_nelem(db, s.hash_nelem)));
  }
  u_int32_t flags = DB_CREATE | DB_THREAD;
  if (s.transactional) flags |= DB_AUTO_COMMIT;
  return BdbStatus(name, "db open",
                   db->open(db, nullptr, kDataFile, nullptr, shared_.type, flags, 0644));
}

Status BdbAdapter::Open(const OpenRequest& request) {
  if (shared_.db != nullptr) return Status::InvalidArgument(shared_.name + " open: already open");
  BdbSettings settings;
  KVBENCH_RETURN_IF_ERROR(ParseBdbSettings(request.options, shared_.type, &settings));
  shared_.settings = settings;
  last_error_detail.clear();
  Status s = OpenEnvironment(request.directory);
  if (s.ok()) s = OpenDatabase();
  if (!s.ok()) {
    Close();  // releases whatever was created; the open error is the one to report
    return s;
  }
  directory_ = request.directory;
  return Status::OK();
}

Status BdbAdapter::Close() {
  Status result;
  if (shared_.db != nullptr) {
    if (shared_.settings.transactional) {
      // Recovery at the next open then starts from here instead of replaying the whole log.
      DB_ENV* env = shared_.env;
      result = BdbStatus(shared_.name, "close checkpoint", env->txn_checkpoint(env, 0, 0, 0));
    }
    DB* db = shared_.db;
    shared_.db = nullptr;
    Status s = BdbStatus(shared_.name, "db close", db->close(db, 0));  // writes dirty pages back
    if (result.ok()) result = s;
  }
  if (shared_.env != nullptr) {
    DB_ENV* env = shared_.env;
    shared_.env = nullptr;
    Status s = BdbStatus(shared_.name, "env close", env->close(env, 0));
    if (result.ok()) result = s;
  }
  return result;
}

}  // namespace
}  // namespace kvbench

KVBENCH_REGISTER_ADAPTER(bdb_hash, "bdb-hash",
                         "Berkeley DB hash (DB_HASH), seed 004's store; unordered",
                         [] { return std::make_unique<kvbench::BdbAdapter>(DB_HASH, "bdb-hash"); });
KVBENCH_REGISTER_ADAPTER(bdb_btree, "bdb-btree", "Berkeley DB B+tree (DB_BTREE); ordered", [] {
  return std::make_unique<kvbench::BdbAdapter>(DB_BTREE, "bdb-btree");
});
