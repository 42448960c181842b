// `lmdb`: one LMDB environment in the engine's directory (data.mdb, lock.mdb)
// with one unnamed database, MDB_NOSYNC unless lmdb.sync=commit.
//
// Writes. Outside a batch each put or delete is its own write transaction.
// BeginBatch opens a write transaction that the following writes (and reads)
// use until CommitBatch/AbortBatch; the session holds the environment's writer
// lock meanwhile, so other sessions' writes wait (LMDB has one writer).
//
// A full map (MDB_MAP_FULL) is not an error the workload sees: the transaction
// is aborted, the map doubled, and the write retried. A batch cannot be
// resumed after an abort, so a batch that could fill the map keeps a copy of
// its writes (one arena, reused from batch to batch) and replays them into a
// fresh transaction after growing. The copy costs a memcpy per write, about
// 12% of a bulk load's time, so it is kept only when the map's free space at
// the batch's start is below kReplayLogBelow: with the default 64 GiB map
// (address space, not disk) a batch is copied only once the database nears
// 48 GiB, or when lmdb.mapsize is set small.
//
// Keys. LMDB's maximum key size is fixed when liblmdb is compiled (511 bytes
// in Debian's package). Longer keys cannot be stored: Put returns
// InvalidArgument naming the limit; Get and Delete of such a key return
// NotFound (it cannot be present); a Scan may start from one (all stored keys
// are shorter, so its first max_key_size bytes decide the position). Empty
// keys are refused by LMDB and likewise rejected.
#include <climits>
#include <cstring>

#include "adapters/engine_directory.h"
#include "adapters/lmdb/lmdb_environment.h"
#include "adapters/registry.h"
#include "adapters/support/batch_state.h"
#include "adapters/support/option_parsing.h"

namespace kvbench {

// Batches starting with less free map space than this keep a replay log.
constexpr uint64_t kReplayLogBelow = uint64_t{16} << 30;
namespace {

// LMDB takes non-const MDB_vals but does not write through them for input.
MDB_val ToVal(Slice bytes) { return MDB_val{bytes.size(), const_cast<char*>(bytes.data())}; }
Slice FromVal(const MDB_val& val) {
  return Slice(static_cast<const char*>(val.mv_data), val.mv_size);
}

// Visits up to options.limit entries with `cursor`, positioned as the
// contract says: keys >= start forward, keys <= start backward.
Status ScanWithCursor(MDB_cursor* cursor, Slice start, const ScanOptions& options,
                      size_t max_key_size, ScanVisitor* visitor, size_t* visited) {
  const bool forward = options.direction == ScanDirection::kForward;
  // A start longer than any stored key: its prefix of max_key_size bytes has
  // the same keys >= (strictly above it) and <= (itself included) it.
  const bool truncated = start.size() > max_key_size;
  const Slice probe = truncated ? start.substr(0, max_key_size) : start;
  MDB_val key = ToVal(probe), value{0, nullptr};
  int rc;
  if (options.from_edge || (forward && probe.empty())) {
    rc = mdb_cursor_get(cursor, &key, &value, forward ? MDB_FIRST : MDB_LAST);
  } else if (probe.empty()) {
    rc = MDB_NOTFOUND;  // backward from "": no stored key is <= the empty key
  } else {
    rc = mdb_cursor_get(cursor, &key, &value, MDB_SET_RANGE);  // first key >= probe
    if (forward) {
      if (rc == MDB_SUCCESS && truncated && FromVal(key) == probe) {
        rc = mdb_cursor_get(cursor, &key, &value, MDB_NEXT);
      }
    } else if (rc == MDB_NOTFOUND) {
      rc = mdb_cursor_get(cursor, &key, &value, MDB_LAST);
    } else if (rc == MDB_SUCCESS && FromVal(key) != probe) {
      rc = mdb_cursor_get(cursor, &key, &value, MDB_PREV);
    }
  }
  const size_t limit = options.limit == 0 ? SIZE_MAX : options.limit;
  const MDB_cursor_op step = forward ? MDB_NEXT : MDB_PREV;
  size_t n = 0;
  while (rc == MDB_SUCCESS && n < limit) {
    ++n;
    if (!visitor->Visit(FromVal(key), options.keys_only ? Slice() : FromVal(value))) break;
    rc = mdb_cursor_get(cursor, &key, &value, step);
  }
  if (visited != nullptr) *visited = n;
  if (rc != MDB_SUCCESS && rc != MDB_NOTFOUND) return LmdbError(rc, "scan");
  return Status::OK();
}

class LmdbSession final : public Session {
 public:
  explicit LmdbSession(LmdbEnvironment* env)
      : env_(env), put_flags_(env->settings().append ? MDB_APPEND : 0) {}

  ~LmdbSession() override {
    if (batch_.open()) EndBatch();
    env_->DetachReader(&reader_);
  }

  Status Attach() { return env_->AttachReader(&reader_); }

  Status Put(Slice key, Slice value) override {
    if (key.empty()) return Status::InvalidArgument("put: LMDB does not store empty keys");
    if (key.size() > env_->max_key_size()) {
      return Status::InvalidArgument("put: key of " + std::to_string(key.size()) +
                                     " bytes is longer than LMDB's maximum key size, " +
                                     std::to_string(env_->max_key_size()) +
                                     " bytes (fixed when liblmdb was compiled)");
    }
    return Write(Op{true, key, value}, "put");
  }

  Status Get(Slice key, std::string* value) override {
    if (key.empty() || key.size() > env_->max_key_size()) return Status::NotFound();
    MDB_val k = ToVal(key), v;
    int rc;
    if (batch_.open()) {
      if (batch_txn_ == nullptr) return BrokenBatch("get");
      rc = mdb_get(batch_txn_, env_->dbi(), &k, &v);
    } else {
      std::lock_guard lock(reader_.mutex);
      if (reader_.txn == nullptr) return Status::Internal("get: lmdb is closed");
      rc = mdb_txn_renew(reader_.txn);
      if (rc != MDB_SUCCESS) return LmdbError(rc, "get: renew read transaction");
      rc = mdb_get(reader_.txn, env_->dbi(), &k, &v);
      // The bytes live in the map only while the transaction does: copy first.
      if (rc == MDB_SUCCESS) value->assign(static_cast<const char*>(v.mv_data), v.mv_size);
      mdb_txn_reset(reader_.txn);
      if (rc == MDB_NOTFOUND) return Status::NotFound();
      if (rc != MDB_SUCCESS) return LmdbError(rc, "get");
      return Status::OK();
    }
    if (rc == MDB_NOTFOUND) return Status::NotFound();
    if (rc != MDB_SUCCESS) return LmdbError(rc, "get");
    value->assign(static_cast<const char*>(v.mv_data), v.mv_size);
    return Status::OK();
  }

  Status Delete(Slice key) override {
    if (key.empty() || key.size() > env_->max_key_size()) return Status::NotFound();
    return Write(Op{false, key, Slice()}, "delete");
  }

  Status BeginBatch() override {
    return batch_.Begin([&] {
      writer_lock_ = std::unique_lock(env_->writer_mutex());
      if (!env_->is_open()) {
        writer_lock_.unlock();
        return Status::Internal("begin batch: lmdb is closed");
      }
      const int rc = mdb_txn_begin(env_->env(), nullptr, 0, &batch_txn_);
      if (rc != MDB_SUCCESS) {
        batch_txn_ = nullptr;
        writer_lock_.unlock();
        return LmdbError(rc, "begin batch");
      }
      log_batch_ = env_->FreeMapBytes() < kReplayLogBelow;
      env_->set_batch_open(true);
      return Status::OK();
    });
  }

  Status CommitBatch() override {
    KVBENCH_RETURN_IF_ERROR(batch_.Commit());
    if (batch_txn_ == nullptr) {
      EndBatch();
      return BrokenBatch("commit batch");
    }
    int rc = mdb_txn_commit(batch_txn_);  // frees the transaction, even on failure
    batch_txn_ = nullptr;
    Status s;
    while (rc == MDB_MAP_FULL) {
      if (!log_batch_) {
        s = UnloggedBatchFull("commit batch");
        break;
      }
      s = GrowAndReplay("commit batch", &rc);
      if (!s.ok()) break;
      if (rc == MDB_SUCCESS || rc == MDB_NOTFOUND) {
        rc = mdb_txn_commit(batch_txn_);
        batch_txn_ = nullptr;
      }
    }
    if (s.ok() && rc != MDB_SUCCESS) s = LmdbError(rc, "commit batch");
    EndBatch();
    return s;
  }

  Status AbortBatch() override {
    KVBENCH_RETURN_IF_ERROR(batch_.Abort());
    EndBatch();
    return Status::OK();
  }

  Status Scan(Slice start, const ScanOptions& options, ScanVisitor* visitor,
              size_t* visited) override {
    if (visited != nullptr) *visited = 0;
    const size_t max_key = env_->max_key_size();
    if (batch_.open()) {
      if (batch_txn_ == nullptr) return BrokenBatch("scan");
      MDB_cursor* cursor = nullptr;
      const int rc = mdb_cursor_open(batch_txn_, env_->dbi(), &cursor);
      if (rc != MDB_SUCCESS) return LmdbError(rc, "scan: open cursor");
      Status s = ScanWithCursor(cursor, start, options, max_key, visitor, visited);
      mdb_cursor_close(cursor);
      return s;
    }
    std::lock_guard lock(reader_.mutex);
    if (reader_.txn == nullptr) return Status::Internal("scan: lmdb is closed");
    int rc = mdb_txn_renew(reader_.txn);
    if (rc != MDB_SUCCESS) return LmdbError(rc, "scan: renew read transaction");
    rc = mdb_cursor_renew(reader_.txn, reader_.cursor);
    Status s = rc == MDB_SUCCESS
                   ? ScanWithCursor(reader_.cursor, start, options, max_key, visitor, visited)
                   : LmdbError(rc, "scan: renew cursor");
    mdb_txn_reset(reader_.txn);
    return s;
  }

 private:
  struct Op {
    bool is_put;
    Slice key;
    Slice value;
  };
  // A batch's write as kept for replay: offsets into batch_bytes_.
  struct LoggedOp {
    bool is_put;
    size_t key_offset, key_size, value_size;  // the value follows the key
  };

  int Apply(MDB_txn* txn, const Op& op) const {
    MDB_val k = ToVal(op.key);
    if (!op.is_put) return mdb_del(txn, env_->dbi(), &k, nullptr);
    MDB_val v = ToVal(op.value);
    return mdb_put(txn, env_->dbi(), &k, &v, put_flags_);
  }

  Status Result(int rc, const char* operation) const {
    if (rc == MDB_SUCCESS) return Status::OK();
    if (rc == MDB_NOTFOUND) return Status::NotFound();
    if (rc == MDB_KEYEXIST && put_flags_ == MDB_APPEND) {
      return LmdbError(rc, std::string(operation) + " (lmdb.append needs keys in ascending order)");
    }
    return LmdbError(rc, operation);
  }

  Status Write(const Op& op, const char* operation) {
    if (batch_.open()) return WriteInBatch(op, operation);
    std::lock_guard writer(env_->writer_mutex());
    if (!env_->is_open()) return Status::Internal(std::string(operation) + ": lmdb is closed");
    int rc;
    for (;;) {
      MDB_txn* txn = nullptr;
      rc = mdb_txn_begin(env_->env(), nullptr, 0, &txn);
      if (rc != MDB_SUCCESS) return LmdbError(rc, std::string(operation) + ": begin");
      rc = Apply(txn, op);
      if (rc == MDB_SUCCESS) {
        rc = mdb_txn_commit(txn);
      } else {
        mdb_txn_abort(txn);
      }
      if (rc != MDB_MAP_FULL) break;
      KVBENCH_RETURN_IF_ERROR(env_->GrowMap(operation));
    }
    return Result(rc, operation);
  }

  Status WriteInBatch(const Op& op, const char* operation) {
    if (batch_txn_ == nullptr) return BrokenBatch(operation);
    if (log_batch_) {
      const size_t offset = batch_bytes_.size();
      batch_bytes_.append(op.key).append(op.value);
      batch_log_.push_back(LoggedOp{op.is_put, offset, op.key.size(), op.value.size()});
    }
    int rc = Apply(batch_txn_, op);
    if (rc == MDB_MAP_FULL) {
      mdb_txn_abort(batch_txn_);
      batch_txn_ = nullptr;
      if (!log_batch_) return UnloggedBatchFull(operation);
      do {
        KVBENCH_RETURN_IF_ERROR(GrowAndReplay(operation, &rc));
      } while (rc == MDB_MAP_FULL);
    }
    return Result(rc, operation);
  }

  // With no batch transaction open: grows the map, begins a new transaction
  // and replays the logged writes into it. *rc is the last write's code
  // (MDB_NOTFOUND for a delete of an absent key), or MDB_MAP_FULL when the
  // map is still too small (the transaction is then ended again).
  Status GrowAndReplay(const char* operation, int* rc) {
    KVBENCH_RETURN_IF_ERROR(env_->GrowMap(operation));
    int code = mdb_txn_begin(env_->env(), nullptr, 0, &batch_txn_);
    if (code != MDB_SUCCESS) {
      batch_txn_ = nullptr;
      return LmdbError(code, std::string(operation) + ": begin after growing the map");
    }
    for (const LoggedOp& logged : batch_log_) {
      const Slice key(batch_bytes_.data() + logged.key_offset, logged.key_size);
      const Slice value(key.data() + key.size(), logged.value_size);
      code = Apply(batch_txn_, Op{logged.is_put, key, value});
      if (code != MDB_SUCCESS && code != MDB_NOTFOUND) break;
    }
    if (code != MDB_SUCCESS && code != MDB_NOTFOUND) {
      mdb_txn_abort(batch_txn_);
      batch_txn_ = nullptr;
      if (code != MDB_MAP_FULL) return LmdbError(code, std::string(operation) + ": replay");
    }
    *rc = code;
    return Status::OK();
  }

  // A batch that started with kReplayLogBelow or more free and still filled
  // the map has no log to replay: its writes are lost, and it says why.
  Status UnloggedBatchFull(const char* operation) {
    return Status::IOError(std::string(operation) +
                           ": one batch filled the LMDB map's free space (more than " +
                           std::to_string(kReplayLogBelow >> 30) +
                           " GiB at its start); set lmdb.mapsize larger");
  }

  // After a failure ended the batch's transaction, its writes are lost.
  static Status BrokenBatch(const char* operation) {
    return Status::Internal(std::string(operation) +
                            ": the batch failed earlier and was discarded; abort it");
  }

  void EndBatch() {
    if (batch_txn_ != nullptr) mdb_txn_abort(batch_txn_);
    batch_txn_ = nullptr;
    batch_bytes_.clear();
    batch_log_.clear();
    batch_.Reset();
    env_->set_batch_open(false);
    if (writer_lock_.owns_lock()) writer_lock_.unlock();
  }

  LmdbEnvironment* env_;
  const unsigned put_flags_;
  LmdbReader reader_;
  BatchState batch_;
  MDB_txn* batch_txn_ = nullptr;  // null inside a batch only after a failure
  // Held from BeginBatch to the batch's end. LMDB already requires a write
  // transaction to end on the thread that began it; so does this lock.
  std::unique_lock<std::mutex> writer_lock_;
  bool log_batch_ = false;    // this batch keeps a replay log (little free map space)
  std::string batch_bytes_;  // every logged key and value, back to back
  std::vector<LoggedOp> batch_log_;
};

class LmdbAdapter final : public Adapter {
 public:
  std::string LibraryVersion() const override { return mdb_version(nullptr, nullptr, nullptr); }
  std::vector<OptionSpec> OptionSpecs() const override { return LmdbOptionSpecs(); }
  Status CheckOptions(const EngineOptions& options) const override {
    return CheckSettings(options, ParseLmdbSettings);
  }

  // From lmdb.h's words on MDB_NOSYNC and MDB_NOMETASYNC.
  DurabilityDeclaration DeclareDurability(const EngineOptions& options) const override {
    const LmdbSettings s = AcceptedSettings(options, ParseLmdbSettings);
    DurabilityDeclaration d;
    d.atomic_batches = true;
    d.process_crash = FaultPromise::kDurable;  // a commit is in the OS's buffers (or the map)
    if (!s.sync_on_commit) {
      d.basis =
          "lmdb.sync=none (MDB_NOSYNC): a system crash can undo the last commits or corrupt "
          "the database";
    } else if (s.no_meta_sync) {
      d.power_loss = FaultPromise::kConsistent;
      d.basis = "lmdb.nometasync=true: a system crash can undo the last commit (ACI, not D)";
    } else {
      d.power_loss = FaultPromise::kDurable;
      d.basis = "lmdb.sync=commit: data and meta page fsynced at every commit";
    }
    return d;
  }

  Capabilities capabilities() const override {
    Capabilities c;
    c.ordered = true;
    c.transactional = true;
    c.durable = true;  // survives Close; under the default MDB_NOSYNC not a power loss
    c.concurrent_readers = true;
    c.concurrent_writers = false;  // one write transaction at a time
    c.reorganize = true;
    c.max_key_size = CompiledMaxKeySize();
    return c;
  }

  // MDB_MAXKEYSIZE as this liblmdb was built (511 in Debian); an environment
  // handle answers it without being opened.
  static size_t CompiledMaxKeySize() {
    MDB_env* env = nullptr;
    if (mdb_env_create(&env) != 0) return 511;
    const int n = mdb_env_get_maxkeysize(env);
    mdb_env_close(env);
    return static_cast<size_t>(n);
  }

  Status Open(const OpenRequest& request) override {
    LmdbSettings settings;
    KVBENCH_RETURN_IF_ERROR(ParseLmdbSettings(request.options, &settings));
    return environment_.Open(request.directory, settings);
  }

  Status Close() override {
    environment_.Close();
    return Status::OK();
  }

  Status NewSession(std::unique_ptr<Session>* session) override {
    auto created = std::make_unique<LmdbSession>(&environment_);
    KVBENCH_RETURN_IF_ERROR(created->Attach());
    *session = std::move(created);
    return Status::OK();
  }

  Status Sync() override { return environment_.Sync(); }

  // data.mdb and lock.mdb: everything in the directory.
  Status ListFiles(std::vector<std::string>* paths) const override {
    if (environment_.directory().empty()) {
      return Status::InvalidArgument("list files: lmdb never opened");
    }
    return ListRegularFiles(environment_.directory(), paths);
  }

  Status Reorganize() override { return environment_.Compact(); }

 private:
  LmdbEnvironment environment_;
};

}  // namespace
}  // namespace kvbench

KVBENCH_REGISTER_ADAPTER(lmdb, "lmdb", "LMDB B+tree, one unnamed database (MDB_NOSYNC default)",
                         [] { return std::make_unique<kvbench::LmdbAdapter>(); });
