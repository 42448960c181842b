// `native`: nativedb, our in-memory record store (engines/native), in KV mode:
// each pair is a (key, value) record with a B+tree index on the key, so scans
// are ordered. Nothing is written to disk and nothing survives Close().
//
// Locking: the database's reader-writer lock is taken per call (read lock for
// Get and Scan, write lock for Put and Delete), so sessions on many threads
// read in parallel and writers take turns. A batch only groups writes: there
// is no undo log, so AbortBatch is not supported and transactional is false.
#include <memory>
#include <string>

#include "adapters/registry.h"
#include "engines/native/kv_store.h"

namespace kvbench {
namespace {

Status FromNative(const nativedb::Status& s) {
  using Code = nativedb::Status::Code;
  const std::string msg(s.message());
  switch (s.code()) {
    case Code::kOk:
      return Status::OK();
    case Code::kNotFound:
      return Status::NotFound(msg);
    case Code::kInvalidArgument:
      return Status::InvalidArgument("native: " + msg);
    // Out of arena space is the in-memory engine's "disk full".
    case Code::kFull:
      return Status::IOError("native: " + msg);
    case Code::kIOError:
      return Status::IOError("native: " + msg);
    case Code::kCorruption:
      return Status::Corruption("native: " + msg);
    case Code::kBusy:
      return Status::Busy("native: " + msg);
    case Code::kNotSupported:
      return Status::NotSupported("native: " + msg);
  }
  return Status::Internal("native: " + s.ToString());
}

class ForwardingVisitor final : public nativedb::KvVisitor {
 public:
  explicit ForwardingVisitor(ScanVisitor* visitor) : visitor_(visitor) {}
  bool Visit(std::string_view key, std::string_view value) override {
    return visitor_->Visit(key, value);
  }

 private:
  ScanVisitor* visitor_;
};

class NativeSession final : public Session {
 public:
  NativeSession(nativedb::Database* db, nativedb::KvStore* store) : db_(db), store_(store) {}

  Status Put(Slice key, Slice value) override {
    nativedb::WriteLock lock(*db_);
    if (!lock.status().ok()) return FromNative(lock.status());
    return FromNative(store_->Put(key, value));
  }

  Status Get(Slice key, std::string* value) override {
    nativedb::ReadLock lock(*db_);
    if (!lock.status().ok()) return FromNative(lock.status());
    return FromNative(store_->Get(key, value));
  }

  Status Delete(Slice key) override {
    nativedb::WriteLock lock(*db_);
    if (!lock.status().ok()) return FromNative(lock.status());
    return FromNative(store_->Delete(key));
  }

  Status BeginBatch() override {
    if (in_batch_) return Status::InvalidArgument("batch already open");
    in_batch_ = true;
    return Status::OK();
  }
  Status CommitBatch() override {
    if (!in_batch_) return Status::InvalidArgument("no batch open");
    in_batch_ = false;
    return Status::OK();
  }
  Status AbortBatch() override {
    return Status::NotSupported("native has no undo: batches only group writes");
  }

  Status Scan(Slice start, const ScanOptions& options, ScanVisitor* visitor,
              size_t* visited) override {
    nativedb::KvScanOptions native;
    native.forward = options.direction == ScanDirection::kForward;
    native.from_edge = options.from_edge;
    native.limit = options.limit;
    ForwardingVisitor forward(visitor);
    nativedb::ReadLock lock(*db_);
    if (!lock.status().ok()) return FromNative(lock.status());
    return FromNative(store_->Scan(start, native, &forward, visited));
  }

 private:
  nativedb::Database* db_;
  nativedb::KvStore* store_;
  bool in_batch_ = false;
};

class NativeAdapter final : public Adapter {
 public:
  std::string LibraryVersion() const override { return "nativedb (arena format 1)"; }

  std::vector<OptionSpec> OptionSpecs() const override {
    return {
        {"native.size", "256MiB",
         "arena bytes at creation, every page touched (seed 000 uses 1GiB); private "
         "memory grows past it without prefaulting"},
        {"native.max_size", "64GiB",
         "private memory grows in place up to this (address space only); then puts fail"},
        {"native.shm_name", "",
         "empty: private memory; else a POSIX shared-memory name, replaced at open and "
         "removed at close (fixed size: no growth)"},
        {"native.prefault", "true", "touch every page at creation, so no put takes a page fault"},
        {"native.huge_pages", "false",
         "madvise transparent huge pages for private memory (slow to create where THP "
         "defrag compacts on fault)"},
    };
  }

  Capabilities capabilities() const override {
    Capabilities c;
    c.ordered = true;  // the key index is a B+tree in unsigned byte order
    c.transactional = false;
    c.durable = false;
    c.concurrent_readers = true;
    c.concurrent_writers = false;
    c.native_records = true;
    c.native_secondary_index = true;
    return c;
  }

  Status Open(const OpenRequest& request) override {
    if (db_ != nullptr) return Status::InvalidArgument("native: already open");
    const EngineOptions& o = request.options;
    nativedb::Options options;
    KVBENCH_RETURN_IF_ERROR(o.GetBytes("native.size", &options.size));
    KVBENCH_RETURN_IF_ERROR(o.GetBytes("native.max_size", &options.max_size));
    KVBENCH_RETURN_IF_ERROR(o.GetBool("native.prefault", &options.prefault));
    KVBENCH_RETURN_IF_ERROR(o.GetBool("native.huge_pages", &options.huge_pages));
    options.shm_name = o.GetString("native.shm_name");
    if (!options.shm_name.empty()) {
      // The run owns the name: a segment left by an earlier, crashed run goes.
      options.remove_shm_on_close = true;
      nativedb::Database::RemoveShared(options.shm_name);
    }
    std::unique_ptr<nativedb::Database> db;
    KVBENCH_RETURN_IF_ERROR(FromNative(nativedb::Database::Create(options, &db)));
    std::unique_ptr<nativedb::KvStore> store;
    KVBENCH_RETURN_IF_ERROR(FromNative(nativedb::KvStore::Open(db.get(), &store)));
    db_ = std::move(db);
    store_ = std::move(store);
    return Status::OK();
  }

  Status Close() override {
    store_.reset();
    db_.reset();
    return Status::OK();
  }

  Status NewSession(std::unique_ptr<Session>* session) override {
    if (db_ == nullptr) return Status::InvalidArgument("native: not open");
    *session = std::make_unique<NativeSession>(db_.get(), store_.get());
    return Status::OK();
  }

  Status Sync() override { return Status::OK(); }

  Status ListFiles(std::vector<std::string>* paths) const override {
    paths->clear();
    return Status::OK();
  }

 private:
  std::unique_ptr<nativedb::Database> db_;
  std::unique_ptr<nativedb::KvStore> store_;
};

}  // namespace
}  // namespace kvbench

KVBENCH_REGISTER_ADAPTER(
    native, "native", "nativedb: in-memory record store, B+tree key index (ordered, not durable)",
    [] { return std::make_unique<kvbench::NativeAdapter>(); });
