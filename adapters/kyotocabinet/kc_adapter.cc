// `kc-hash` and `kc-tree`: Kyoto Cabinet 1.2 (Debian's libkyotocabinet-dev),
// the successor of Tokyo Cabinet: a HashDB (`data.kch`) or a TreeDB (a B+ tree
// on a hash file, `data.kct`) in the engine's directory.
//
// The database object is thread-safe; reads run in parallel. A batch is one
// Kyoto Cabinet transaction (begin_transaction / end_transaction): atomic,
// rolled back by AbortBatch, and reads inside it see its writes. A transaction
// covers the whole database, not one session, so writers on several threads
// are not isolated from each other: concurrent writers are not claimed.
// kc.sync = commit makes transactions "hard" (synced at commit). Scans only
// on kc-tree.
#include <kchashdb.h>

#include <memory>

#include "adapters/engine_directory.h"
#include "adapters/registry.h"
#include "adapters/support/batch_state.h"
#include "adapters/support/option_parsing.h"

namespace kvbench {
namespace {

namespace kc = kyotocabinet;

struct KcSettings {
  int64_t buckets = 0;
  int64_t page_cache = 0;
  bool compress = false;
  bool hard_sync = false;
};

Status ParseKcSettings(const EngineOptions& o, bool tree, KcSettings* out) {
  KVBENCH_RETURN_IF_ERROR(o.GetInt64("kc.buckets", &out->buckets));
  if (out->buckets < 0) return Status::InvalidArgument("option 'kc.buckets': must be >= 0");
  if (tree) {
    uint64_t bytes = 0;
    KVBENCH_RETURN_IF_ERROR(o.GetBytes("kc.page_cache", &bytes));
    out->page_cache = static_cast<int64_t>(bytes);
  }
  KVBENCH_RETURN_IF_ERROR(o.GetBool("kc.compression", &out->compress));
  const std::string sync = o.GetString("kc.sync");
  if (sync != "none" && sync != "commit") {
    return Status::InvalidArgument("option 'kc.sync': '" + sync + "' is not none or commit");
  }
  out->hard_sync = sync == "commit";
  return Status::OK();
}

template <typename Db>
Status KcError(Db* db, const std::string& operation) {
  const kc::BasicDB::Error e = db->error();
  if (e.code() == kc::BasicDB::Error::NOREC) return Status::NotFound();
  const std::string message = operation + ": " + e.name() + ": " + e.message();
  if (e.code() == kc::BasicDB::Error::BROKEN) return Status::Corruption(message);
  if (e.code() == kc::BasicDB::Error::INVALID) return Status::InvalidArgument(message);
  return Status::IOError(message);
}

template <typename Db>
class KcSession final : public Session {
 public:
  KcSession(Db* db, const KcSettings* settings) : db_(db), settings_(settings) {}
  ~KcSession() override {
    if (batch_.open()) db_->end_transaction(false);
  }

  Status Put(Slice key, Slice value) override {
    return db_->set(key.data(), key.size(), value.data(), value.size()) ? Status::OK()
                                                                         : KcError(db_, "put");
  }
  Status Get(Slice key, std::string* value) override {
    size_t size = 0;
    char* v = db_->get(key.data(), key.size(), &size);
    if (v == nullptr) return KcError(db_, "get");
    value->assign(v, size);
    delete[] v;  // Kyoto Cabinet returns a new[] copy
    return Status::OK();
  }
  Status Delete(Slice key) override {
    return db_->remove(key.data(), key.size()) ? Status::OK() : KcError(db_, "delete");
  }
  Status BeginBatch() override {
    return batch_.Begin([&] {
      return db_->begin_transaction(settings_->hard_sync) ? Status::OK()
                                                          : KcError(db_, "begin batch");
    });
  }
  Status CommitBatch() override {
    return batch_.Commit([&] {
      return db_->end_transaction(true) ? Status::OK() : KcError(db_, "commit batch");
    });
  }
  Status AbortBatch() override {
    return batch_.Abort([&] {
      return db_->end_transaction(false) ? Status::OK() : KcError(db_, "abort batch");
    });
  }

  Status Scan(Slice start, const ScanOptions& options, ScanVisitor* visitor,
              size_t* visited) override {
    if constexpr (!std::is_same_v<Db, kc::TreeDB>) {
      return Status::NotSupported("scan: kc-hash is not ordered");
    } else {
      size_t n = 0;
      if (visited != nullptr) *visited = 0;
      std::unique_ptr<typename Db::Cursor> cur(db_->cursor());
      const bool forward = options.direction == ScanDirection::kForward;
      bool ok;
      if (forward) {
        ok = options.from_edge ? cur->jump() : cur->jump(start.data(), start.size());
      } else {
        ok = options.from_edge ? cur->jump_back() : cur->jump_back(start.data(), start.size());
      }
      while (ok && (options.limit == 0 || n < options.limit)) {
        size_t ksize = 0, vsize = 0;
        const char* vbuf = nullptr;
        char* kbuf = cur->get(&ksize, &vbuf, &vsize, false);
        if (kbuf == nullptr) break;
        ++n;
        const bool more = visitor->Visit(Slice(kbuf, ksize),
                                         options.keys_only ? Slice() : Slice(vbuf, vsize));
        delete[] kbuf;  // the key and value share one new[] region
        if (!more) break;
        ok = forward ? cur->step() : cur->step_back();
      }
      if (visited != nullptr) *visited = n;
      const auto code = db_->error().code();
      return code == kc::BasicDB::Error::SUCCESS || code == kc::BasicDB::Error::NOREC
                 ? Status::OK()
                 : KcError(db_, "scan");
    }
  }

 private:
  Db* db_;
  const KcSettings* settings_;
  BatchState batch_;
};

template <typename Db>
class KcAdapter final : public Adapter {
 public:
  static constexpr bool kTree = std::is_same_v<Db, kc::TreeDB>;
  ~KcAdapter() override { Close(); }

  std::string LibraryVersion() const override {
    return std::string("Kyoto Cabinet ") + kc::VERSION;
  }
  std::vector<OptionSpec> OptionSpecs() const override {
    std::vector<OptionSpec> specs = {
        {"kc.buckets", "0",
         "hash buckets (tune_buckets); 0: Kyoto Cabinet's default (about 1M for a HashDB, 64K "
         "for a TreeDB's pages)"},
        {"kc.compression", "false", "compress each record (TCOMPRESS, zlib)"},
        {"kc.sync", "none",
         "none: transactions are not synced; commit: hard transactions (synced at commit)"},
    };
    if (kTree) {
      specs.push_back({"kc.page_cache", "64MiB",
                       "TreeDB page cache (tune_page_cache; Kyoto Cabinet's default)"});
    }
    return specs;
  }
  Status CheckOptions(const EngineOptions& options) const override {
    return CheckSettings(options, ParseKcSettings, kTree);
  }
  // From Kyoto Cabinet's documentation of begin_transaction(hard) and its
  // automatic recovery of a database that was not closed.
  DurabilityDeclaration DeclareDurability(const EngineOptions& options) const override {
    const KcSettings s = AcceptedSettings(options, ParseKcSettings, kTree);
    DurabilityDeclaration d;
    d.atomic_batches = true;
    d.process_crash = FaultPromise::kConsistent;
    d.basis = s.hard_sync ? "kc.sync=commit: batches are hard transactions (fsynced), but writes "
                            "outside a batch are not synced"
                          : "kc.sync=none: transactions are synced logically (to the OS), not to "
                            "the device";
    return d;
  }

  Capabilities capabilities() const override {
    Capabilities c;
    c.ordered = kTree;
    c.transactional = true;
    c.durable = true;
    c.concurrent_readers = true;
    c.reorganize = true;  // defrag
    return c;
  }

  Status Open(const OpenRequest& request) override {
    if (db_) return Status::InvalidArgument("kyotocabinet: already open");
    KVBENCH_RETURN_IF_ERROR(ParseKcSettings(request.options, kTree, &settings_));
    directory_ = request.directory;
    db_ = std::make_unique<Db>();
    if (settings_.buckets > 0) db_->tune_buckets(settings_.buckets);
    if (settings_.compress) db_->tune_options(kc::HashDB::TCOMPRESS);
    if constexpr (kTree) {
      if (settings_.page_cache > 0) db_->tune_page_cache(settings_.page_cache);
    }
    const std::string path = JoinPath(directory_, kTree ? "data.kct" : "data.kch");
    if (!db_->open(path, kc::BasicDB::OWRITER | kc::BasicDB::OCREATE)) {
      Status s = KcError(db_.get(), "open '" + path + "'");
      db_.reset();
      return s;
    }
    return Status::OK();
  }

  Status Close() override {
    if (!db_) return Status::OK();
    const bool ok = db_->close();
    Status s = ok ? Status::OK() : KcError(db_.get(), "close");
    db_.reset();
    return s;
  }

  Status NewSession(std::unique_ptr<Session>* session) override {
    if (!db_) return Status::InvalidArgument("kyotocabinet: not open");
    *session = std::make_unique<KcSession<Db>>(db_.get(), &settings_);
    return Status::OK();
  }

  Status Sync() override {
    if (!db_) return Status::OK();
    return db_->synchronize(true) ? Status::OK() : KcError(db_.get(), "sync");
  }

  Status ListFiles(std::vector<std::string>* paths) const override {
    return ListRegularFiles(directory_, paths);
  }

  Status Reorganize() override {
    if (!db_) return Status::InvalidArgument("kyotocabinet: not open");
    return db_->defrag(0) ? Status::OK() : KcError(db_.get(), "reorganize");
  }

 private:
  KcSettings settings_;
  std::string directory_;
  std::unique_ptr<Db> db_;
};

}  // namespace
}  // namespace kvbench

KVBENCH_REGISTER_ADAPTER(kc_hash, "kc-hash", "Kyoto Cabinet HashDB (unordered, transactional)",
                         [] { return std::make_unique<kvbench::KcAdapter<kyotocabinet::HashDB>>(); });
KVBENCH_REGISTER_ADAPTER(kc_tree, "kc-tree", "Kyoto Cabinet TreeDB: B+ tree (ordered, transactional)",
                         [] { return std::make_unique<kvbench::KcAdapter<kyotocabinet::TreeDB>>(); });
