// `native`: nativedb, our in-memory record store (engines/native). Nothing is
// written to disk and nothing survives Close().
//
// A database holds EITHER key-value pairs OR one record table, whichever the
// first use asks for:
//   - KV mode (the first Put creates it): each pair is a (key, value) record
//     of two bytes fields with a B+tree index on field 0, so scans are ordered;
//   - records (OpenRecordTable): nativedb's own records, indexes and
//     references (native_record_table.h).
// They cannot share a database because nativedb's indexes are per field
// number across all records: the KV key index on field 0 would index the
// table's field 0 (slowing every insert and putting table records into KV
// scans), and the table could not index its own field 0. The other mode's
// calls return NotSupported, and so does a second table name.
//
// Locking (native_session_lock.h): outside a batch each call takes the
// database's reader-writer lock (read lock for reads, write lock for writes),
// so sessions on many threads read in parallel and writers take turns; a
// batch holds the write lock from BeginBatch to CommitBatch. There is no undo
// log, so AbortBatch is not supported and transactional is false.
#include <sys/stat.h>
#include <unistd.h>

#include <memory>
#include <string>

#include "adapters/native/native_record_table.h"
#include "adapters/native/native_session_lock.h"
#include "adapters/native/native_status.h"
#include "adapters/registry.h"
#include "adapters/support/batch_state.h"
#include "adapters/support/option_parsing.h"
#include "engines/native/kv_store.h"

namespace kvbench {
namespace {

class ForwardingVisitor final : public nativedb::KvVisitor {
 public:
  explicit ForwardingVisitor(ScanVisitor* visitor) : visitor_(visitor) {}
  bool Visit(std::string_view key, std::string_view value) override {
    return visitor_->Visit(key, value);
  }

 private:
  ScanVisitor* visitor_;
};

// What the adapter's sessions share. Every member but `db` changes only under
// the database's write lock and is read under its read lock.
struct NativeDatabase {
  std::unique_ptr<nativedb::Database> db;
  std::unique_ptr<nativedb::KvStore> kv;  // KV mode: created by the first Put
  std::string table_name;                 // record mode: the one table's name
  uint32_t table_fields = 0;

  Status HoldsTable() const {
    return Status::NotSupported("native: this database holds record table '" + table_name +
                                "'; key-value pairs need a database of their own");
  }
};

class NativeSession final : public Session {
 public:
  explicit NativeSession(NativeDatabase* shared) : shared_(shared), lock_(shared->db.get()) {}

  Status Put(Slice key, Slice value) override {
    NativeCallLock lock(lock_, NativeCallLock::kWrite);
    if (!lock.ok()) return lock.status();
    if (shared_->kv == nullptr) {
      if (!shared_->table_name.empty()) return shared_->HoldsTable();
      KVBENCH_RETURN_IF_ERROR(FromNative(nativedb::KvStore::Open(shared_->db.get(), &shared_->kv)));
    }
    return FromNative(shared_->kv->Put(key, value));
  }

  Status Get(Slice key, std::string* value) override {
    NativeCallLock lock(lock_, NativeCallLock::kRead);
    if (!lock.ok()) return lock.status();
    if (shared_->kv == nullptr) {
      return shared_->table_name.empty() ? Status::NotFound("key") : shared_->HoldsTable();
    }
    return FromNative(shared_->kv->Get(key, value));
  }

  Status Delete(Slice key) override {
    NativeCallLock lock(lock_, NativeCallLock::kWrite);
    if (!lock.ok()) return lock.status();
    if (shared_->kv == nullptr) {
      return shared_->table_name.empty() ? Status::NotFound("key") : shared_->HoldsTable();
    }
    return FromNative(shared_->kv->Delete(key));
  }

  Status BeginBatch() override { return lock_.BeginBatch(); }
  Status CommitBatch() override { return lock_.CommitBatch(); }
  Status AbortBatch() override { return BatchState::AbortNotSupported("native"); }

  Status Scan(Slice start, const ScanOptions& options, ScanVisitor* visitor,
              size_t* visited) override {
    nativedb::KvScanOptions native;
    native.forward = options.direction == ScanDirection::kForward;
    native.from_edge = options.from_edge;
    native.limit = options.limit;
    ForwardingVisitor forward(visitor);
    NativeCallLock lock(lock_, NativeCallLock::kRead);
    if (!lock.ok()) return lock.status();
    if (shared_->kv == nullptr) {
      if (!shared_->table_name.empty()) return shared_->HoldsTable();
      if (visited != nullptr) *visited = 0;
      return Status::OK();
    }
    return FromNative(shared_->kv->Scan(start, native, &forward, visited));
  }

  // The database's one record table (see the file comment): created by the
  // first call, reopened by later ones with the same name and field count.
  // Field names and declared types are not kept (native_record_table.h).
  Status OpenRecordTable(const RecordTableSpec& spec,
                         std::unique_ptr<RecordTable>* table) override {
    if (spec.types.empty()) return Status::InvalidArgument("native: a record needs a field");
    if (spec.types.size() > nativedb::format::kMaxFieldCount) {
      return Status::InvalidArgument("native: too many fields");
    }
    const uint32_t fields = static_cast<uint32_t>(spec.types.size());
    NativeCallLock lock(lock_, NativeCallLock::kWrite);
    if (!lock.ok()) return lock.status();
    if (shared_->kv != nullptr) {
      return Status::NotSupported(
          "native: this database holds key-value pairs; a record table needs a database of its "
          "own");
    }
    if (shared_->table_name.empty()) {
      shared_->table_name = spec.name;
      shared_->table_fields = fields;
    } else if (shared_->table_name != spec.name) {
      return Status::NotSupported("native holds one record table per database: '" +
                                  shared_->table_name + "' exists, '" + spec.name +
                                  "' cannot be added");
    } else if (shared_->table_fields != fields) {
      return Status::InvalidArgument("native: table '" + spec.name + "' has " +
                                     std::to_string(shared_->table_fields) +
                                     " fields, the spec asks for " + std::to_string(fields));
    }
    *table = std::make_unique<NativeRecordTable>(shared_->db.get(), &lock_, fields);
    return Status::OK();
  }

 private:
  NativeDatabase* shared_;
  NativeSessionLock lock_;
};

// Every native.shm_name starts with this (a POSIX name: one leading '/').
constexpr char kShmPrefix[] = "/kvbench-";

// The adapter's one parser of its options: Open() and CheckOptions() both use it.
Status ParseNativeOptions(const EngineOptions& o, nativedb::Options* out) {
  KVBENCH_RETURN_IF_ERROR(o.GetBytes("native.size", &out->size));
  KVBENCH_RETURN_IF_ERROR(o.GetBytes("native.max_size", &out->max_size));
  KVBENCH_RETURN_IF_ERROR(o.GetBool("native.prefault", &out->prefault));
  KVBENCH_RETURN_IF_ERROR(o.GetBool("native.huge_pages", &out->huge_pages));
  if (out->size < nativedb::kMinArenaSize) {
    return Status::InvalidArgument("option 'native.size': " + std::to_string(out->size) +
                                   " is below the minimum of " +
                                   std::to_string(nativedb::kMinArenaSize));
  }
  if (out->max_size != 0 && out->max_size < out->size) {
    return Status::InvalidArgument("option 'native.max_size': smaller than native.size");
  }
  out->shm_name = o.GetString("native.shm_name");
  // The adapter removes a segment of that name at open: confined to names
  // of kvbench's own, so no workload can make it remove someone else's.
  if (!out->shm_name.empty()) {
    const std::string& name = out->shm_name;
    const bool valid =
        name.starts_with(kShmPrefix) && name.size() > sizeof(kShmPrefix) - 1 &&
        name.size() <= 200 &&
        name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-",
                               1) == std::string::npos;
    if (!valid) {
      return Status::InvalidArgument("option 'native.shm_name': '" + name +
                                     "' is not a kvbench shared-memory name ('" + kShmPrefix +
                                     "' followed by letters, digits, '.', '_' or '-'; at most "
                                     "200 bytes)");
    }
  }
  return Status::OK();
}

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
         "empty: private memory; else a POSIX shared-memory name starting /kvbench- (only "
         "kvbench's own), replaced at open and removed at close (fixed size: no growth)"},
        {"native.prefault", "true", "touch every page at creation, so no put takes a page fault"},
        {"native.huge_pages", "false",
         "madvise transparent huge pages for private memory (slow to create where THP "
         "defrag compacts on fault)"},
    };
  }

  Status CheckOptions(const EngineOptions& options) const override {
    return CheckSettings(options, ParseNativeOptions);
  }

  DurabilityDeclaration DeclareDurability(const EngineOptions&) const override {
    return {.basis = "nativedb as the adapter runs it keeps everything in process memory"};
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
    if (database_ != nullptr) return Status::InvalidArgument("native: already open");
    nativedb::Options options;
    KVBENCH_RETURN_IF_ERROR(ParseNativeOptions(request.options, &options));
    if (!options.shm_name.empty()) {
      // The run owns the name: a segment left by an earlier, crashed run of
      // this user goes; another user's is refused (create fails on it).
      options.remove_shm_on_close = true;
      struct stat st {};
      const std::string file = "/dev/shm" + options.shm_name;
      if (stat(file.c_str(), &st) == 0 && st.st_uid != geteuid()) {
        return Status::InvalidArgument("option 'native.shm_name': '" + options.shm_name +
                                       "' exists and belongs to another user (uid " +
                                       std::to_string(st.st_uid) + ")");
      }
      nativedb::Database::RemoveShared(options.shm_name);
    }
    std::unique_ptr<nativedb::Database> db;
    KVBENCH_RETURN_IF_ERROR(FromNative(nativedb::Database::Create(options, &db)));
    database_ = std::make_unique<NativeDatabase>();
    database_->db = std::move(db);
    return Status::OK();
  }

  Status Close() override {
    database_.reset();
    return Status::OK();
  }

  Status NewSession(std::unique_ptr<Session>* session) override {
    if (database_ == nullptr) return Status::InvalidArgument("native: not open");
    *session = std::make_unique<NativeSession>(database_.get());
    return Status::OK();
  }

  Status Sync() override { return Status::OK(); }

  Status ListFiles(std::vector<std::string>* paths) const override {
    paths->clear();
    return Status::OK();
  }

 private:
  std::unique_ptr<NativeDatabase> database_;
};

}  // namespace
}  // namespace kvbench

KVBENCH_REGISTER_ADAPTER(
    native, "native", "nativedb: in-memory record store, B+tree key index (ordered, not durable)",
    [] { return std::make_unique<kvbench::NativeAdapter>(); });
