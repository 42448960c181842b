// `pbtree`: our prefix-compressing B+tree (engines/pbtree), the file
// "pbtree.db" and its commit log "pbtree.db-log" in the engine's directory.
//
// Writes. Outside a batch each put or delete is its own write transaction
// (autocommit). BeginBatch opens the engine's write transaction, which the
// session's writes and reads use until CommitBatch/AbortBatch; the session
// holds the adapter's writer lock alone meanwhile, so other sessions' writes
// wait (pbtree has one writer). Reads outside a batch see the last commit.
//
// Threads. pbtree reads from any number of threads at once, beside its one
// writer, without locks (engines/pbtree/pbtree.h): sessions read in parallel
// (concurrent_readers). With sync=none the writer lock lets one write in at a
// time. With sync=commit the sessions' autocommit puts and deletes share it:
// pbtree queues them and commits those that wait together, one fdatasync for
// the group (group commit, engines/pbtree/commit_queue.h); it is still one
// writer, so concurrent_writers stays false.
#include <mutex>
#include <shared_mutex>

#include "adapters/engine_directory.h"
#include "adapters/registry.h"
#include "adapters/support/batch_state.h"
#include "adapters/support/option_parsing.h"
#include "engines/pbtree/pbtree.h"

namespace kvbench {
namespace {

Status FromPbtree(const pbtree::Status& s) {
  using C = pbtree::Status::Code;
  switch (s.code()) {
    case C::kOk:
      return Status::OK();
    case C::kNotFound:
      return Status::NotFound(s.message());
    case C::kCorruption:
      return Status::Corruption(s.message());
    case C::kInvalidArgument:
      return Status::InvalidArgument(s.message());
    case C::kIOError:
      return Status::IOError(s.message());
    case C::kBusy:
      return Status::Busy(s.message());
    case C::kNotSupported:
      return Status::NotSupported(s.message());
  }
  return Status::Internal(s.ToString());
}

struct SharedDb {
  // sync=none: one autocommit write, or a session's whole batch.
  std::mutex writer;
  // sync=commit: shared by autocommit writes (pbtree commits them in groups),
  // held alone by a batch.
  std::shared_mutex group;
  bool group_commit = false;
  std::unique_ptr<pbtree::DB> db;
};

class PbtreeSession final : public Session {
 public:
  explicit PbtreeSession(SharedDb* shared) : shared_(shared) {}
  ~PbtreeSession() override {
    if (batch_.open()) AbortBatch();
  }

  Status Put(Slice key, Slice value) override {
    if (txn_ != nullptr) return FromPbtree(txn_->Put(key, value));
    if (shared_->group_commit) {
      std::shared_lock group(shared_->group);
      return FromPbtree(shared_->db->Put(key, value));
    }
    std::lock_guard writer(shared_->writer);
    return FromPbtree(shared_->db->Put(key, value));
  }

  Status Get(Slice key, std::string* value) override {
    return FromPbtree(txn_ != nullptr ? txn_->Get(key, value) : shared_->db->Get(key, value));
  }

  Status Delete(Slice key) override {
    if (txn_ != nullptr) return FromPbtree(txn_->Delete(key));
    if (shared_->group_commit) {
      std::shared_lock group(shared_->group);
      return FromPbtree(shared_->db->Delete(key));
    }
    std::lock_guard writer(shared_->writer);
    return FromPbtree(shared_->db->Delete(key));
  }

  Status BeginBatch() override {
    return batch_.Begin([&] {
      std::unique_lock writer(shared_->writer, std::defer_lock);
      std::unique_lock group(shared_->group, std::defer_lock);
      shared_->group_commit ? group.lock() : writer.lock();
      KVBENCH_RETURN_IF_ERROR(FromPbtree(shared_->db->BeginWrite(&txn_)));
      writer_lock_ = std::move(writer);
      group_lock_ = std::move(group);
      return Status::OK();
    });
  }

  Status CommitBatch() override {
    return batch_.Commit([&] {
      Status s = FromPbtree(txn_->Commit());
      txn_.reset();
      UnlockWriter();
      return s;
    });
  }

  Status AbortBatch() override {
    return batch_.Abort([&] {
      txn_->Abort();
      txn_.reset();
      UnlockWriter();
      return Status::OK();
    });
  }

  // One cursor, so one snapshot: the scan sees whole commits only.
  Status Scan(Slice start, const ScanOptions& options, ScanVisitor* visitor,
              size_t* visited) override {
    std::unique_ptr<pbtree::Cursor> c =
        txn_ != nullptr ? txn_->NewCursor() : shared_->db->NewCursor();
    const bool forward = options.direction == ScanDirection::kForward;
    if (options.from_edge) {
      forward ? c->SeekToFirst() : c->SeekToLast();
    } else {
      forward ? c->Seek(start) : c->SeekForPrev(start);
    }
    size_t n = 0;
    const size_t limit = options.limit == 0 ? SIZE_MAX : options.limit;
    while (c->Valid() && n < limit) {
      Slice value = options.keys_only ? Slice() : c->value();
      if (!c->status().ok()) break;
      ++n;
      if (!visitor->Visit(c->key(), value)) break;
      forward ? c->Next() : c->Prev();
    }
    if (visited != nullptr) *visited = n;
    return FromPbtree(c->status());
  }

 private:
  // The batch's lock, whichever BeginBatch took.
  void UnlockWriter() {
    if (writer_lock_.owns_lock()) writer_lock_.unlock();
    if (group_lock_.owns_lock()) group_lock_.unlock();
  }

  SharedDb* shared_;
  BatchState batch_;
  std::unique_ptr<pbtree::WriteTxn> txn_;  // the open batch's write transaction
  std::unique_lock<std::mutex> writer_lock_;
  std::unique_lock<std::shared_mutex> group_lock_;
};

// The adapter's one parser of its options: Open() and CheckOptions() both use it.
Status ParsePbtreeOptions(const EngineOptions& options, pbtree::Options* out) {
  uint64_t page_size = 0, cache = 0;
  int64_t interval = 0, internal_interval = 0;
  KVBENCH_RETURN_IF_ERROR(options.GetBytes("pbtree.page_size", &page_size));
  KVBENCH_RETURN_IF_ERROR(options.GetBytes("pbtree.cache_size", &cache));
  KVBENCH_RETURN_IF_ERROR(options.GetInt64("pbtree.restart_interval", &interval));
  KVBENCH_RETURN_IF_ERROR(options.GetInt64("pbtree.internal_restart_interval", &internal_interval));
  KVBENCH_RETURN_IF_ERROR(options.GetBool("pbtree.mmap_reads", &out->mmap_reads));
  KVBENCH_RETURN_IF_ERROR(options.GetBool("pbtree.huge_mapping", &out->huge_mapping));
  KVBENCH_RETURN_IF_ERROR(options.GetBool("pbtree.wal", &out->wal));
  if (page_size != 4096 && page_size != 8192 && page_size != 16384 && page_size != 32768) {
    return Status::InvalidArgument("option 'pbtree.page_size': " + std::to_string(page_size) +
                                   " (must be 4096, 8192, 16384 or 32768)");
  }
  if (interval < 1 || interval > 1024) {
    return Status::InvalidArgument("option 'pbtree.restart_interval': must be 1..1024");
  }
  if (internal_interval < 1 || internal_interval > 1024) {
    return Status::InvalidArgument("option 'pbtree.internal_restart_interval': must be 1..1024");
  }
  const std::string sync = options.GetString("pbtree.sync");
  if (sync == "none") {
    out->sync = pbtree::SyncMode::kNone;
  } else if (sync == "commit") {
    out->sync = pbtree::SyncMode::kCommit;
  } else {
    return Status::InvalidArgument("option 'pbtree.sync': '" + sync + "' (must be none or commit)");
  }
  out->page_size = static_cast<uint32_t>(page_size);
  out->cache_bytes = cache;
  out->leaf_restart_interval = static_cast<uint32_t>(interval);
  out->internal_restart_interval = static_cast<uint32_t>(internal_interval);
  return Status::OK();
}

class PbtreeAdapter final : public Adapter {
 public:
  std::string LibraryVersion() const override { return "pbtree 1 (file format 1)"; }

  std::vector<OptionSpec> OptionSpecs() const override {
    return {
        {"pbtree.page_size", "4096",
         "page size of a new file: 4096, 8192, 16384 or 32768 (an existing file keeps its own)"},
        {"pbtree.cache_size", "256MiB",
         "bytes of pages cached in memory; the seed gives every engine plenty of cache"},
        {"pbtree.sync", "none",
         "none: no fsync (a commit survives a process crash, not a power cut); commit: "
         "fdatasync of the commit's log record (a checkpoint: of its pages, then its meta page)"},
        {"pbtree.wal", "true",
         "small commits append a record to a log beside the file and write their pages at "
         "checkpoints (false: every commit writes its pages and a meta page)"},
        {"pbtree.restart_interval", "16",
         "keys between whole-key restart points in a leaf: larger compresses more, searches "
         "slower"},
        {"pbtree.internal_restart_interval", "8",
         "the same in internal pages, which every search crosses: short blocks, little space"},
        {"pbtree.mmap_reads", "true",
         "read committed pages through a read-only mapping of the file, each checked once per "
         "open (false: pread into the cache)"},
        {"pbtree.huge_mapping", "true",
         "with mmap_reads, huge pages behind the mapping while the file is at most a quarter "
         "of memory: a cold miss reads 2-4 MiB around it (false: 128 KiB)"},
    };
  }

  Status CheckOptions(const EngineOptions& options) const override {
    return CheckSettings(options, ParsePbtreeOptions);
  }

  // From engines/pbtree/README.md ("Transactions and durability").
  DurabilityDeclaration DeclareDurability(const EngineOptions& options) const override {
    const pbtree::Options o = AcceptedSettings(options, ParsePbtreeOptions);
    DurabilityDeclaration d;
    d.atomic_batches = true;
    d.process_crash = FaultPromise::kDurable;
    if (o.sync == pbtree::SyncMode::kCommit) {
      d.power_loss = FaultPromise::kDurable;
      d.basis = o.wal ? "pbtree.sync=commit: a commit appends its record to the log and "
                        "fdatasyncs it (a checkpoint fdatasyncs its pages, then its meta page); "
                        "open replays the log's checksummed records after the last checkpoint"
                      : "pbtree.sync=commit, pbtree.wal=false: fdatasync of the pages, then of "
                        "the meta page, at every commit";
    } else {
      d.basis = o.wal ? "pbtree.sync=none: no fsync; a commit's log record is written to the OS "
                        "at commit, so it survives a process crash, not a power cut"
                      : "pbtree.sync=none, pbtree.wal=false: no fsync; a commit survives a "
                        "process crash, not a power cut";
    }
    return d;
  }

  Status CheckIntegrity() override {
    if (shared_.db == nullptr) return Status::InvalidArgument("pbtree: not open");
    // Called with no reads under way.
    std::lock_guard writer(shared_.writer);
    std::unique_lock group(shared_.group);
    return FromPbtree(shared_.db->Check());
  }

  Capabilities capabilities() const override {
    Capabilities c;
    c.ordered = true;
    c.transactional = true;
    c.durable = true;
    c.reorganize = true;
    c.concurrent_readers = true;
    return c;
  }

  Status Open(const OpenRequest& request) override {
    if (shared_.db != nullptr) return Status::InvalidArgument("pbtree: already open");
    pbtree::Options options;
    KVBENCH_RETURN_IF_ERROR(ParsePbtreeOptions(request.options, &options));
    directory_ = request.directory;
    shared_.group_commit = options.sync == pbtree::SyncMode::kCommit;
    return FromPbtree(pbtree::DB::Open(options, JoinPath(directory_, "pbtree.db"), &shared_.db));
  }

  Status Close() override {
    shared_.db.reset();
    return Status::OK();
  }

  Status NewSession(std::unique_ptr<Session>* session) override {
    if (shared_.db == nullptr) return Status::InvalidArgument("pbtree: not open");
    *session = std::make_unique<PbtreeSession>(&shared_);
    return Status::OK();
  }

  Status Sync() override {
    if (shared_.db == nullptr) return Status::OK();
    return FromPbtree(shared_.db->Sync());
  }

  Status ListFiles(std::vector<std::string>* paths) const override {
    return ListRegularFiles(directory_, paths);
  }

  Status Reorganize() override {
    if (shared_.db == nullptr) return Status::InvalidArgument("pbtree: not open");
    return FromPbtree(shared_.db->Reorganize());
  }

 private:
  std::string directory_;
  SharedDb shared_;
};

}  // namespace
}  // namespace kvbench

KVBENCH_REGISTER_ADAPTER(pbtree, "pbtree",
                         "Prefix-compressing copy-on-write B+tree (engines/pbtree, seed 001's "
                         "nonblonde)",
                         [] { return std::make_unique<kvbench::PbtreeAdapter>(); });
