// `qdbm-depot` and `qdbm-villa`: QDBM (Debian's libqdbm-dev), Tokyo Cabinet's
// predecessor by the same author, as a kvbench plugin built outside kvbench's
// tree against the installed SDK (find_package(kvbench), kvbench/plugin_cpp.h).
//
// Depot is QDBM's hash database (one file, data.qdp): unordered, batches only
// group writes. Villa is its B+ tree (data.qdv): ordered by a comparator of
// unsigned bytes (the contract's order; a shorter key first on a tie), with
// transactions (vltranbegin/commit/abort), so batches are atomic.
//
// QDBM does no locking between threads of one process, and a Villa
// transaction belongs to the handle, not to a caller. So every call holds the
// handle's lock, and while one session's batch is open the lock admits only
// that session (HandleLock): other sessions wait instead of joining the
// transaction. Neither engine claims concurrent readers or writers.
//
// Durability, from QDBM's documentation: data is written at close (Villa
// keeps leaves in memory until then) or at dpsync/vlsync; "if a writer opens
// a database but does not close it appropriately, the database will be
// broken". So nothing is promised for a crash or a power loss.
#include <depot.h>
#include <villa.h>

#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "kvbench/plugin_cpp.h"

namespace {

using kvbench::plugin::Capabilities;
using kvbench::plugin::DurabilityDeclaration;
using kvbench::plugin::EngineOptions;
using kvbench::plugin::OptionSpec;
using kvbench::plugin::ScanDirection;
using kvbench::plugin::ScanOptions;
using kvbench::plugin::ScanVisitor;
using kvbench::plugin::Slice;
using kvbench::plugin::Status;

// The Status for QDBM's last error (dpecode is per thread), after `op` failed.
Status QdbmStatus(const std::string& engine, const char* op) {
  const int code = dpecode;
  std::string message = engine + " " + op + ": " + dperrmsg(code);
  switch (code) {
    case DP_ENOITEM:
      return Status::NotFound();
    case DP_EBROKEN:
      return Status::Corruption(std::move(message));
    case DP_ELOCK:
      return Status::Busy(std::move(message));
    case DP_EMODE:
    case DP_EKEEP:
      return Status::InvalidArgument(std::move(message));
    case DP_EALLOC:
    case DP_EMISC:
    case DP_EFATAL:
      return Status::Internal(std::move(message));
    default:
      return Status::IOError(std::move(message));
  }
}

// QDBM wants non-null buffers even for empty ones.
const char* Bytes(Slice s) { return s.data() != nullptr ? s.data() : ""; }

// Unsigned byte order, a shorter key first on a tie.
int CompareBytes(const char* a, int an, const char* b, int bn) {
  const int c = std::memcmp(a, b, static_cast<size_t>(an < bn ? an : bn));
  if (c != 0) return c;
  return an < bn ? -1 : (an > bn ? 1 : 0);
}

// Serialises calls on one handle; while a session's batch is open, admits
// that session only. A batch may be committed from another thread than the
// one that began it, so this is a flag under a mutex, not a held lock.
class HandleLock {
 public:
  class Held {
   public:
    Held(HandleLock* lock, const void* session) : lock_(lock->mutex_) {
      lock->admitted_.wait(
          lock_, [&] { return lock->batch_owner_ == nullptr || lock->batch_owner_ == session; });
    }

   private:
    std::unique_lock<std::mutex> lock_;
  };

  // With the lock held by the caller.
  void set_batch_owner(const void* session) {
    batch_owner_ = session;
    if (session == nullptr) admitted_.notify_all();
  }

 private:
  std::mutex mutex_;
  std::condition_variable admitted_;
  const void* batch_owner_ = nullptr;
};

Status ListDirectory(const std::string& directory, std::vector<std::string>* paths) {
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(directory, ec)) {
    if (entry.is_regular_file()) paths->push_back(std::filesystem::absolute(entry.path()).string());
  }
  if (ec) return Status::IOError("list " + directory + ": " + ec.message());
  return Status::OK();
}

// ---------------------------------------------------------------------------
// Depot

struct DepotSettings {
  int64_t buckets = 0;
};

Status ParseDepotSettings(const EngineOptions& options, DepotSettings* out) {
  KVBENCH_PLUGIN_RETURN_IF_ERROR(options.GetInt64("qdbm-depot.buckets", &out->buckets));
  if (out->buckets < 1 || out->buckets > (int64_t{1} << 30)) {
    return Status::InvalidArgument("option 'qdbm-depot.buckets': must be 1..2^30");
  }
  return Status::OK();
}

class DepotSession final : public kvbench::plugin::Session {
 public:
  DepotSession(DEPOT* db, HandleLock* lock) : db_(db), lock_(lock) {}

  Status Put(Slice key, Slice value) override {
    HandleLock::Held held(lock_, this);
    if (!dpput(db_, Bytes(key), static_cast<int>(key.size()), Bytes(value),
               static_cast<int>(value.size()), DP_DOVER)) {
      return QdbmStatus("qdbm-depot", "put");
    }
    return Status::OK();
  }

  Status Get(Slice key, std::string* value) override {
    HandleLock::Held held(lock_, this);
    int size = 0;
    char* found = dpget(db_, Bytes(key), static_cast<int>(key.size()), 0, -1, &size);
    if (found == nullptr) return QdbmStatus("qdbm-depot", "get");
    value->assign(found, static_cast<size_t>(size));
    std::free(found);
    return Status::OK();
  }

  Status Delete(Slice key) override {
    HandleLock::Held held(lock_, this);
    if (!dpout(db_, Bytes(key), static_cast<int>(key.size()))) {
      return QdbmStatus("qdbm-depot", "delete");
    }
    return Status::OK();
  }

  // Depot has no transactions: batches only group writes.
  Status BeginBatch() override {
    if (in_batch_) return Status::InvalidArgument("begin batch: a batch is already open");
    in_batch_ = true;
    return Status::OK();
  }
  Status CommitBatch() override {
    if (!in_batch_) return Status::InvalidArgument("commit batch: no batch open");
    in_batch_ = false;
    return Status::OK();
  }
  Status AbortBatch() override { return Status::NotSupported("qdbm-depot: no transactions"); }

 private:
  DEPOT* db_;
  HandleLock* lock_;
  bool in_batch_ = false;
};

class DepotAdapter final : public kvbench::plugin::Adapter {
 public:
  ~DepotAdapter() override { (void)Close(); }

  std::string LibraryVersion() const override { return std::string("QDBM ") + dpversion; }

  std::vector<OptionSpec> OptionSpecs() const override {
    return {{"qdbm-depot.buckets", "131072",
             "bucket array size, fixed at creation; QDBM suggests 0.5 to 4 times the records"}};
  }

  Capabilities capabilities() const override {
    Capabilities c;
    c.durable = true;
    c.reorganize = true;
    return c;
  }

  Status CheckOptions(const EngineOptions& options) const override {
    DepotSettings ignored;
    return ParseDepotSettings(options, &ignored);
  }

  DurabilityDeclaration DeclareDurability(const EngineOptions&) const override {
    return {.basis =
                "QDBM Depot: no fsync but dpsync; a writer not closed properly leaves the "
                "database broken (QDBM's documentation)"};
  }

  Status Open(const std::string& directory, const EngineOptions& options) override {
    DepotSettings settings;
    KVBENCH_PLUGIN_RETURN_IF_ERROR(ParseDepotSettings(options, &settings));
    directory_ = directory;
    db_ = dpopen((directory + "/data.qdp").c_str(), DP_OWRITER | DP_OCREAT,
                 static_cast<int>(settings.buckets));
    if (db_ == nullptr) return QdbmStatus("qdbm-depot", "open");
    return Status::OK();
  }

  Status Close() override {
    if (db_ == nullptr) return Status::OK();
    const bool closed = dpclose(db_);
    db_ = nullptr;
    return closed ? Status::OK() : QdbmStatus("qdbm-depot", "close");
  }

  Status NewSession(std::unique_ptr<kvbench::plugin::Session>* session) override {
    if (db_ == nullptr) return Status::InvalidArgument("qdbm-depot: not open");
    *session = std::make_unique<DepotSession>(db_, &lock_);
    return Status::OK();
  }

  Status Sync() override {
    return db_ == nullptr || dpsync(db_) ? Status::OK() : QdbmStatus("qdbm-depot", "sync");
  }

  Status ListFiles(std::vector<std::string>* paths) const override {
    return directory_.empty() ? Status::OK() : ListDirectory(directory_, paths);
  }

  Status Reorganize() override {
    return dpoptimize(db_, -1) ? Status::OK() : QdbmStatus("qdbm-depot", "optimize");
  }

 private:
  std::string directory_;
  DEPOT* db_ = nullptr;
  HandleLock lock_;
};

// ---------------------------------------------------------------------------
// Villa

class VillaSession final : public kvbench::plugin::Session {
 public:
  VillaSession(VILLA* db, HandleLock* lock) : db_(db), lock_(lock) {}
  ~VillaSession() override {
    if (in_batch_) (void)AbortBatch();
  }

  Status Put(Slice key, Slice value) override {
    HandleLock::Held held(lock_, this);
    if (!vlput(db_, Bytes(key), static_cast<int>(key.size()), Bytes(value),
               static_cast<int>(value.size()), VL_DOVER)) {
      return QdbmStatus("qdbm-villa", "put");
    }
    return Status::OK();
  }

  Status Get(Slice key, std::string* value) override {
    HandleLock::Held held(lock_, this);
    int size = 0;
    char* found = vlget(db_, Bytes(key), static_cast<int>(key.size()), &size);
    if (found == nullptr) return QdbmStatus("qdbm-villa", "get");
    value->assign(found, static_cast<size_t>(size));
    std::free(found);
    return Status::OK();
  }

  Status Delete(Slice key) override {
    HandleLock::Held held(lock_, this);
    if (!vlout(db_, Bytes(key), static_cast<int>(key.size()))) {
      return QdbmStatus("qdbm-villa", "delete");
    }
    return Status::OK();
  }

  Status BeginBatch() override {
    if (in_batch_) return Status::InvalidArgument("begin batch: a batch is already open");
    HandleLock::Held held(lock_, this);
    if (!vltranbegin(db_)) return QdbmStatus("qdbm-villa", "begin transaction");
    in_batch_ = true;
    lock_->set_batch_owner(this);
    return Status::OK();
  }
  Status CommitBatch() override { return EndBatch(true); }
  Status AbortBatch() override { return EndBatch(false); }

  Status Scan(Slice start, const ScanOptions& options, ScanVisitor* visitor,
              size_t* visited) override {
    HandleLock::Held held(lock_, this);
    const bool forward = options.direction == ScanDirection::kForward;
    bool positioned;
    if (options.from_edge) {
      positioned = forward ? vlcurfirst(db_) : vlcurlast(db_);
    } else {
      positioned = vlcurjump(db_, Bytes(start), static_cast<int>(start.size()),
                             forward ? VL_JFORWARD : VL_JBACKWARD);
    }
    size_t n = 0;
    while (positioned && (options.limit == 0 || n < options.limit)) {
      int key_size = 0, value_size = 0;
      const char* key = vlcurkeycache(db_, &key_size);
      const char* value = options.keys_only ? "" : vlcurvalcache(db_, &value_size);
      if (key == nullptr || value == nullptr) return QdbmStatus("qdbm-villa", "scan");
      ++n;
      if (!visitor->Visit(Slice(key, static_cast<size_t>(key_size)),
                          Slice(value, static_cast<size_t>(value_size)))) {
        break;
      }
      positioned = forward ? vlcurnext(db_) : vlcurprev(db_);
    }
    if (visited != nullptr) *visited = n;
    // A cursor that ran off the end reports DP_ENOITEM: the scan's normal end.
    if (!positioned && dpecode != DP_ENOITEM) return QdbmStatus("qdbm-villa", "scan");
    return Status::OK();
  }

 private:
  Status EndBatch(bool commit) {
    if (!in_batch_) {
      return Status::InvalidArgument(commit ? "commit batch: no batch open"
                                            : "abort batch: no batch open");
    }
    HandleLock::Held held(lock_, this);
    const bool ok = commit ? vltrancommit(db_) : vltranabort(db_);
    in_batch_ = false;
    lock_->set_batch_owner(nullptr);
    return ok ? Status::OK() : QdbmStatus("qdbm-villa", commit ? "commit" : "abort");
  }

  VILLA* db_;
  HandleLock* lock_;
  bool in_batch_ = false;
};

class VillaAdapter final : public kvbench::plugin::Adapter {
 public:
  ~VillaAdapter() override { (void)Close(); }

  std::string LibraryVersion() const override { return std::string("QDBM ") + dpversion; }

  std::vector<OptionSpec> OptionSpecs() const override { return {}; }

  Capabilities capabilities() const override {
    Capabilities c;
    c.ordered = true;
    c.transactional = true;
    c.durable = true;
    c.reorganize = true;
    return c;
  }

  Status CheckOptions(const EngineOptions&) const override { return Status::OK(); }

  DurabilityDeclaration DeclareDurability(const EngineOptions&) const override {
    return {.basis =
                "QDBM Villa: leaves are written at close or vlsync; a writer not closed "
                "properly leaves the database broken (QDBM's documentation)"};
  }

  Status Open(const std::string& directory, const EngineOptions&) override {
    directory_ = directory;
    db_ = vlopen((directory + "/data.qdv").c_str(), VL_OWRITER | VL_OCREAT, &CompareBytes);
    if (db_ == nullptr) return QdbmStatus("qdbm-villa", "open");
    return Status::OK();
  }

  Status Close() override {
    if (db_ == nullptr) return Status::OK();
    const bool closed = vlclose(db_);
    db_ = nullptr;
    return closed ? Status::OK() : QdbmStatus("qdbm-villa", "close");
  }

  Status NewSession(std::unique_ptr<kvbench::plugin::Session>* session) override {
    if (db_ == nullptr) return Status::InvalidArgument("qdbm-villa: not open");
    *session = std::make_unique<VillaSession>(db_, &lock_);
    return Status::OK();
  }

  Status Sync() override {
    return db_ == nullptr || vlsync(db_) ? Status::OK() : QdbmStatus("qdbm-villa", "sync");
  }

  Status ListFiles(std::vector<std::string>* paths) const override {
    return directory_.empty() ? Status::OK() : ListDirectory(directory_, paths);
  }

  Status Reorganize() override {
    return vloptimize(db_) ? Status::OK() : QdbmStatus("qdbm-villa", "optimize");
  }

 private:
  std::string directory_;
  VILLA* db_ = nullptr;
  HandleLock lock_;
};

}  // namespace

KVBENCH_EXPORT_PLUGIN("qdbm",
                      kvbench::plugin::Engine<DepotAdapter>("qdbm-depot",
                                                            "QDBM Depot hash database"),
                      kvbench::plugin::Engine<VillaAdapter>("qdbm-villa", "QDBM Villa B+ tree"));
