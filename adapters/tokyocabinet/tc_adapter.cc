// `tc-hash` and `tc-btree`: Tokyo Cabinet's hash database (TCHDB) and B+ tree database (TCBDB).
// One adapter template serves both: the overloads below give the two C APIs one set of names,
// and `if constexpr` covers what only one of them has (record cache, B+ tree pages, cursors).
//
// Files: the database is one file in the engine directory (`data.tch` or `data.tcb`), plus
// `<file>.wal`, the write-ahead log TC keeps for an open transaction.
//
// Batches are TC transactions (tc*dbtranbegin / trancommit / tranabort), so both engines are
// transactional. A TC transaction is not bound to a thread (adapters/support/batch_gate.h), so
// the adapter keeps other sessions out while a batch is open. Sessions on several threads are
// safe because the database object is opened with tc*dbsetmutex: TCHDB takes its method lock
// shared and a per-bucket record lock for reads and writes (readers and writers run in
// parallel); TCBDB takes its method lock shared to read and exclusively to write (parallel
// readers, one writer).
//
// Debian's build of the library has TCMICROYIELD on: its assert macro calls sched_yield on every
// 32nd pass of each assert (the library carries that macro's "assertion failed" message), with
// or without the mutex: 8,502 sched_yield calls for 20,000 inserts and 20,000 gets on tc-btree
// (`strace -f -c`). On a quiet machine each costs a system call; beside other busy processes
// each gives the core away for a whole time slice, and tc-* then run hundreds of times slower
// (tests/CMakeLists.txt, the scaled workload runs). Figures for tc-* include them: they are
// the library as Debian ships it.
//
// Ordering: TCBDB's default comparator, tccmplexical, compares keys as unsigned bytes (memcmp
// order, a shorter key first on a tie), which is the contract's order; the conformance suite's
// 0x80/0xff keys check it.
//
// Options and their defaults: tc_options.h.
#include <tcbdb.h>
#include <tchdb.h>
#include <tcutil.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <string>
#include <type_traits>

#include "adapters/engine_directory.h"
#include "adapters/registry.h"
#include "adapters/support/batch_gate.h"
#include "adapters/support/batch_state.h"
#include "adapters/support/option_parsing.h"
#include "adapters/tokyocabinet/tc_options.h"

namespace kvbench {
namespace {

// One name per operation for both database types.
int ErrorCode(TCHDB* db) { return tchdbecode(db); }
int ErrorCode(TCBDB* db) { return tcbdbecode(db); }
const char* ErrorText(TCHDB*, int code) { return tchdberrmsg(code); }
const char* ErrorText(TCBDB*, int code) { return tcbdberrmsg(code); }
bool TcPut(TCHDB* db, Slice k, Slice v) {
  return tchdbput(db, k.data(), static_cast<int>(k.size()), v.data(), static_cast<int>(v.size()));
}
bool TcPut(TCBDB* db, Slice k, Slice v) {
  return tcbdbput(db, k.data(), static_cast<int>(k.size()), v.data(), static_cast<int>(v.size()));
}
bool TcOut(TCHDB* db, Slice k) { return tchdbout(db, k.data(), static_cast<int>(k.size())); }
bool TcOut(TCBDB* db, Slice k) { return tcbdbout(db, k.data(), static_cast<int>(k.size())); }
bool TcTranBegin(TCHDB* db) { return tchdbtranbegin(db); }
bool TcTranBegin(TCBDB* db) { return tcbdbtranbegin(db); }
bool TcTranCommit(TCHDB* db) { return tchdbtrancommit(db); }
bool TcTranCommit(TCBDB* db) { return tcbdbtrancommit(db); }
bool TcTranAbort(TCHDB* db) { return tchdbtranabort(db); }
bool TcTranAbort(TCBDB* db) { return tcbdbtranabort(db); }
bool TcSync(TCHDB* db) { return tchdbsync(db); }
bool TcSync(TCBDB* db) { return tcbdbsync(db); }
// Rebuilds the file keeping the tuning, with TC's default bucket count for the data it holds
// (twice the records or pages).
bool TcOptimize(TCHDB* db) { return tchdboptimize(db, 0, -1, -1, UINT8_MAX); }
bool TcOptimize(TCBDB* db) { return tcbdboptimize(db, 0, 0, 0, -1, -1, UINT8_MAX); }
bool TcClose(TCHDB* db) { return tchdbclose(db); }
bool TcClose(TCBDB* db) { return tcbdbclose(db); }
void TcDelete(TCHDB* db) { tchdbdel(db); }
void TcDelete(TCBDB* db) { tcbdbdel(db); }

template <typename Db>
constexpr bool kIsTree = std::is_same_v<Db, TCBDB>;

// A Status for the error Tokyo Cabinet recorded for this thread after operation `op` failed.
template <typename Db>
Status TcStatus(Db* db, const std::string& engine, const std::string& op) {
  const int code = ErrorCode(db);
  std::string message = engine + " " + op + ": " + ErrorText(db, code);
  switch (code) {
    case TCENOREC:
      return Status::NotFound(std::move(message));
    case TCEINVALID:
      return Status::InvalidArgument(std::move(message));
    case TCETHREAD:
    case TCELOCK:
      return Status::Busy(std::move(message));
    case TCEMETA:
    case TCERHEAD:
      return Status::Corruption(std::move(message));
    case TCEKEEP:
    case TCEMISC:
      return Status::Internal(std::move(message));
    default:  // the file-system codes: TCENOFILE, TCEOPEN, TCEREAD, TCEWRITE, TCEMMAP...
      return Status::IOError(std::move(message));
  }
}

// For a lookup that failed: a missing key is a normal answer, returned without building a
// message; anything else is an error.
template <typename Db>
Status MissOrError(Db* db, const std::string& engine, const char* op) {
  if (ErrorCode(db) == TCENOREC) return Status::NotFound();
  return TcStatus(db, engine, op);
}

template <typename Db>
class TcSession final : public Session {
 public:
  TcSession(Db* db, BatchGate* gate, const std::string* name, bool sync_on_commit)
      : db_(db), gate_(gate), name_(name), sync_on_commit_(sync_on_commit) {
    if constexpr (kIsTree<Db>) {
      cursor_ = tcbdbcurnew(db_);
      scan_key_ = tcxstrnew();
      scan_value_ = tcxstrnew();
    } else {
      get_buffer_.resize(4096);
    }
  }

  ~TcSession() override {
    if (batch_.open()) AbortBatch();
    if constexpr (kIsTree<Db>) {
      tcbdbcurdel(cursor_);
      tcxstrdel(scan_key_);
      tcxstrdel(scan_value_);
    }
  }

  Status Put(Slice key, Slice value) override {
    if (key.size() > INT_MAX || value.size() > INT_MAX) {
      return Status::InvalidArgument(*name_ + " put: key or value over 2 GiB");
    }
    BatchGate::Use use(gate_, batch_.open());
    // TC asserts non-null buffers even for empty ones; an empty Slice may have a null data().
    if (!TcPut(db_, NonNull(key), NonNull(value))) return TcStatus(db_, *name_, "put");
    return SyncIfAsked("put");
  }

  Status Get(Slice key, std::string* value) override {
    BatchGate::Use use(gate_, batch_.open());
    const Slice k = NonNull(key);
    if constexpr (kIsTree<Db>) {
      // tcbdbget3 would avoid the malloc, but it returns a pointer into the page cache that
      // another thread's read may evict before the copy; tcbdbget copies under the lock.
      int size = 0;
      void* found = tcbdbget(db_, k.data(), static_cast<int>(k.size()), &size);
      if (found == nullptr) return MissOrError(db_, *name_, "get");
      value->assign(static_cast<const char*>(found), size);
      tcfree(found);
      return Status::OK();
    } else {
      // tchdbget3 copies into our buffer under the record lock and returns the bytes written,
      // so a result that fills the buffer may be cut short: then ask for the real size.
      for (;;) {
        const int capacity = static_cast<int>(get_buffer_.size());
        const int n =
            tchdbget3(db_, k.data(), static_cast<int>(k.size()), get_buffer_.data(), capacity);
        if (n < 0) return MissOrError(db_, *name_, "get");
        if (n < capacity) {
          value->assign(get_buffer_.data(), n);
          return Status::OK();
        }
        const int full = tchdbvsiz(db_, k.data(), static_cast<int>(k.size()));
        if (full < 0) return MissOrError(db_, *name_, "get");
        if (full <= n) {
          value->assign(get_buffer_.data(), n);
          return Status::OK();
        }
        get_buffer_.resize(std::max<size_t>(static_cast<size_t>(full) + 1, 2 * get_buffer_.size()));
      }
    }
  }

  Status Delete(Slice key) override {
    BatchGate::Use use(gate_, batch_.open());
    if (!TcOut(db_, NonNull(key))) return MissOrError(db_, *name_, "delete");
    return SyncIfAsked("delete");
  }

  Status BeginBatch() override {
    return batch_.Begin([&] {
      gate_->EnterExclusive();
      if (TcTranBegin(db_)) return Status::OK();
      Status s = TcStatus(db_, *name_, "begin");
      gate_->ExitExclusive();
      return s;
    });
  }

  Status CommitBatch() override {
    return batch_.Commit([&] { return EndTransaction(true); });
  }
  Status AbortBatch() override {
    return batch_.Abort([&] { return EndTransaction(false); });
  }

  Status Scan(Slice start, const ScanOptions& options, ScanVisitor* visitor,
              size_t* visited) override {
    if (visited != nullptr) *visited = 0;
    if constexpr (!kIsTree<Db>) {
      return Status::NotSupported(*name_ + " scan: a hash database is not ordered");
    } else {
      BatchGate::Use use(gate_, batch_.open());
      const bool forward = options.direction == ScanDirection::kForward;
      const Slice from = NonNull(start);
      bool ok;
      if (options.from_edge) {
        ok = forward ? tcbdbcurfirst(cursor_) : tcbdbcurlast(cursor_);
      } else if (forward) {
        ok = tcbdbcurjump(cursor_, from.data(), static_cast<int>(from.size()));  // first >= start
      } else {
        ok = tcbdbcurjumpback(cursor_, from.data(), static_cast<int>(from.size()));  // last <=
      }
      const size_t limit = options.limit == 0 ? SIZE_MAX : options.limit;
      size_t n = 0;
      while (ok && n < limit) {
        // tcbdbcurrec copies under the database lock, so a writer on another thread cannot
        // change the bytes while the visitor reads them.
        tcxstrclear(scan_key_);
        tcxstrclear(scan_value_);
        if (!(ok = tcbdbcurrec(cursor_, scan_key_, scan_value_))) break;
        ++n;
        const Slice value =
            options.keys_only
                ? Slice()
                : Slice(static_cast<const char*>(tcxstrptr(scan_value_)), tcxstrsize(scan_value_));
        if (!visitor->Visit(
                Slice(static_cast<const char*>(tcxstrptr(scan_key_)), tcxstrsize(scan_key_)),
                value)) {
          break;
        }
        if (n < limit) ok = forward ? tcbdbcurnext(cursor_) : tcbdbcurprev(cursor_);
      }
      if (visited != nullptr) *visited = n;
      if (!ok && ErrorCode(db_) != TCENOREC) return TcStatus(db_, *name_, "scan");
      return Status::OK();
    }
  }

 private:
  static Slice NonNull(Slice s) { return s.data() == nullptr ? Slice("", 0) : s; }

  // tc.sync=commit: TC's TSYNC open flag syncs transaction commits only, so an autocommitted
  // write outside a batch is synced here.
  Status SyncIfAsked(const char* what) {
    if (!sync_on_commit_ || batch_.open()) return Status::OK();
    if (!TcSync(db_)) return TcStatus(db_, *name_, std::string(what) + " sync");
    return Status::OK();
  }

  // Commits or aborts the batch's transaction and lets the other sessions in again.
  Status EndTransaction(bool commit) {
    const char* what = commit ? "commit" : "abort";
    const bool ok = commit ? TcTranCommit(db_) : TcTranAbort(db_);
    Status s = ok ? Status::OK() : TcStatus(db_, *name_, what);
    if (!ok && commit) TcTranAbort(db_);  // never leave a transaction open behind the gate
    gate_->ExitExclusive();
    return s;
  }

  Db* db_;
  BatchGate* gate_;
  const std::string* name_;
  const bool sync_on_commit_;
  BatchState batch_;
  std::string get_buffer_;    // hash: reused by Get so reads allocate nothing after warm-up
  BDBCUR* cursor_ = nullptr;  // B+ tree: one cursor and two copy buffers, reused by Scan
  TCXSTR* scan_key_ = nullptr;
  TCXSTR* scan_value_ = nullptr;
};

template <typename Db>
class TcAdapter final : public Adapter {
 public:
  explicit TcAdapter(std::string name) : name_(std::move(name)) {}
  ~TcAdapter() override { Close(); }

  std::string LibraryVersion() const override { return std::string("Tokyo Cabinet ") + tcversion; }

  std::vector<OptionSpec> OptionSpecs() const override { return TcOptionSpecs(kIsTree<Db>); }
  Status CheckOptions(const EngineOptions& options) const override {
    return CheckSettings(options, ParseTcSettings);
  }

  // From Tokyo Cabinet's API documentation of TSYNC and its transactions.
  DurabilityDeclaration DeclareDurability(const EngineOptions& options) const override {
    const TcSettings s = AcceptedSettings(options, ParseTcSettings);
    DurabilityDeclaration d;
    d.atomic_batches = true;  // a batch is a TC transaction with its write-ahead file
    if (!s.sync_on_commit) {
      d.basis =
          "tc.sync=none: writes outside a transaction have no log, and the B+ tree caches "
          "pages in the process: a crash can lose or damage them";
    } else {
      d.process_crash = FaultPromise::kDurable;
      d.power_loss = FaultPromise::kDurable;
      d.basis =
          "tc.sync=commit: TSYNC on every transaction, the database synced after every "
          "write outside one";
    }
    return d;
  }

  Capabilities capabilities() const override {
    Capabilities c;
    c.ordered = kIsTree<Db>;
    c.transactional = true;
    c.durable = true;
    c.concurrent_readers = true;
    c.concurrent_writers = !kIsTree<Db>;  // TCBDB writes take its method lock exclusively
    c.reorganize = true;
    return c;
  }

  Status Open(const OpenRequest& request) override;

  Status Close() override {
    if (db_ == nullptr) return Status::OK();
    Status s = TcClose(db_) ? Status::OK() : TcStatus(db_, name_, "close");
    TcDelete(db_);
    db_ = nullptr;
    return s;
  }

  Status NewSession(std::unique_ptr<Session>* session) override {
    if (db_ == nullptr) return Status::InvalidArgument(name_ + " session: not open");
    *session = std::make_unique<TcSession<Db>>(db_, &gate_, &name_, settings_.sync_on_commit);
    return Status::OK();
  }

  Status Sync() override {
    if (db_ == nullptr) return Status::OK();
    return TcSync(db_) ? Status::OK() : TcStatus(db_, name_, "sync");
  }

  Status ListFiles(std::vector<std::string>* paths) const override {
    return ListRegularFiles(directory_, paths);
  }

  Status Reorganize() override {
    if (db_ == nullptr) return Status::InvalidArgument(name_ + " reorganize: not open");
    return TcOptimize(db_) ? Status::OK() : TcStatus(db_, name_, "reorganize (optimize)");
  }

 private:
  Status Tune(Db* db);

  const std::string name_;
  TcSettings settings_;
  Db* db_ = nullptr;
  BatchGate gate_;
  std::string directory_;
};

template <typename Db>
Status TcAdapter<Db>::Tune(Db* db) {
  const TcSettings& s = settings_;
  const auto apow = static_cast<int8_t>(s.apow), fpow = static_cast<int8_t>(s.fpow);
  bool ok;
  if constexpr (kIsTree<Db>) {
    ok = tcbdbsetmutex(db) &&
         tcbdbtune(db, static_cast<int32_t>(s.lmemb), static_cast<int32_t>(s.nmemb), s.bnum, apow,
                   fpow, s.opts) &&
         tcbdbsetcache(db, static_cast<int32_t>(s.lcnum), static_cast<int32_t>(s.ncnum)) &&
         (s.xmsiz < 0 || tcbdbsetxmsiz(db, s.xmsiz)) &&
         (s.dfunit == 0 || tcbdbsetdfunit(db, static_cast<int32_t>(s.dfunit)));
  } else {
    ok = tchdbsetmutex(db) && tchdbtune(db, s.bnum, apow, fpow, s.opts) &&
         (s.rcnum == 0 || tchdbsetcache(db, static_cast<int32_t>(s.rcnum))) &&
         (s.xmsiz < 0 || tchdbsetxmsiz(db, s.xmsiz)) &&
         (s.dfunit == 0 || tchdbsetdfunit(db, static_cast<int32_t>(s.dfunit)));
  }
  return ok ? Status::OK() : TcStatus(db, name_, "tune");
}

template <typename Db>
Status TcAdapter<Db>::Open(const OpenRequest& request) {
  if (db_ != nullptr) return Status::InvalidArgument(name_ + " open: already open");
  KVBENCH_RETURN_IF_ERROR(ParseTcSettings(request.options, &settings_));
  Db* db;
  bool opened = false;
  if constexpr (kIsTree<Db>) {
    db = tcbdbnew();
  } else {
    db = tchdbnew();
  }
  Status s = Tune(db);
  if (s.ok()) {
    if constexpr (kIsTree<Db>) {
      const std::string path = JoinPath(request.directory, "data.tcb");
      opened = tcbdbopen(db, path.c_str(),
                         BDBOWRITER | BDBOCREAT | (settings_.sync_on_commit ? BDBOTSYNC : 0));
    } else {
      const std::string path = JoinPath(request.directory, "data.tch");
      opened = tchdbopen(db, path.c_str(),
                         HDBOWRITER | HDBOCREAT | (settings_.sync_on_commit ? HDBOTSYNC : 0));
    }
    if (!opened) s = TcStatus(db, name_, "open");
  }
  if (!s.ok()) {
    TcDelete(db);
    return s;
  }
  db_ = db;
  directory_ = request.directory;
  return Status::OK();
}

}  // namespace
}  // namespace kvbench

KVBENCH_REGISTER_ADAPTER(tc_hash, "tc-hash", "Tokyo Cabinet hash database (TCHDB); unordered",
                         [] { return std::make_unique<kvbench::TcAdapter<TCHDB>>("tc-hash"); });
KVBENCH_REGISTER_ADAPTER(tc_btree, "tc-btree", "Tokyo Cabinet B+ tree database (TCBDB); ordered",
                         [] { return std::make_unique<kvbench::TcAdapter<TCBDB>>("tc-btree"); });
