// `tkrzw-hash` and `tkrzw-tree`: Tkrzw 1.0 (Debian's libtkrzw-dev), the
// successor of Kyoto Cabinet: a HashDBM or TreeDBM (B+ tree) file in the
// engine's directory.
//
// A DBM object is thread-safe (its own locks), so sessions read and write in
// parallel. Tkrzw has no multi-operation transactions on these file DBMs: a
// batch only groups writes (transactional = false; AbortBatch is
// NotSupported); with tkrzw.sync = commit the file is synchronised at the end
// of each batch and after each write outside one. Scans on tkrzw-tree.
// (SkipDBM is not offered yet: an overwrite there adds a second record of the
// key until a reducer runs at synchronisation.)
#include <tkrzw_dbm_hash.h>
#include <tkrzw_dbm_tree.h>

#include <memory>

#include "adapters/engine_directory.h"
#include "adapters/registry.h"

namespace kvbench {
namespace {

struct TkrzwSettings {
  bool sync_on_commit = false;
  bool appending = false;
};

Status ParseTkrzwSettings(const EngineOptions& o, TkrzwSettings* out) {
  const std::string sync = o.GetString("tkrzw.sync");
  if (sync != "none" && sync != "commit") {
    return Status::InvalidArgument("option 'tkrzw.sync': '" + sync + "' is not none or commit");
  }
  out->sync_on_commit = sync == "commit";
  const std::string mode = o.GetString("tkrzw.update_mode");
  if (mode != "in_place" && mode != "appending") {
    return Status::InvalidArgument("option 'tkrzw.update_mode': '" + mode +
                                   "' is not in_place or appending");
  }
  out->appending = mode == "appending";
  return Status::OK();
}

Status FromTkrzw(const tkrzw::Status& s, const char* operation) {
  if (s == tkrzw::Status::SUCCESS) return Status::OK();
  if (s == tkrzw::Status::NOT_FOUND_ERROR) return Status::NotFound();
  const std::string message = std::string(operation) + ": " + s.GetMessage() + " (" +
                              tkrzw::Status::CodeName(s.GetCode()) + ")";
  if (s == tkrzw::Status::BROKEN_DATA_ERROR) return Status::Corruption(message);
  if (s == tkrzw::Status::INVALID_ARGUMENT_ERROR) return Status::InvalidArgument(message);
  return Status::IOError(message);
}

enum class Kind { kHash, kTree };

class TkrzwSession final : public Session {
 public:
  TkrzwSession(tkrzw::DBM* dbm, Kind kind, const TkrzwSettings* settings)
      : dbm_(dbm), kind_(kind), settings_(settings) {}

  Status Put(Slice key, Slice value) override {
    KVBENCH_RETURN_IF_ERROR(FromTkrzw(dbm_->Set(key, value, true), "put"));
    return AfterWrite();
  }
  Status Get(Slice key, std::string* value) override {
    return FromTkrzw(dbm_->Get(key, value), "get");
  }
  Status Delete(Slice key) override {
    KVBENCH_RETURN_IF_ERROR(FromTkrzw(dbm_->Remove(key), "delete"));
    return AfterWrite();
  }
  Status BeginBatch() override {
    if (in_batch_) return Status::InvalidArgument("begin batch: a batch is already open");
    in_batch_ = true;
    return Status::OK();
  }
  Status CommitBatch() override {
    if (!in_batch_) return Status::InvalidArgument("commit batch: no batch open");
    in_batch_ = false;
    return AfterWrite();
  }
  Status AbortBatch() override {
    return Status::NotSupported("tkrzw has no transactions here: a batch cannot be undone");
  }

  Status Scan(Slice start, const ScanOptions& options, ScanVisitor* visitor,
              size_t* visited) override {
    if (kind_ == Kind::kHash) return Status::NotSupported("scan: tkrzw-hash is not ordered");
    size_t n = 0;
    if (visited != nullptr) *visited = 0;
    std::unique_ptr<tkrzw::DBM::Iterator> it = dbm_->MakeIterator();
    const bool forward = options.direction == ScanDirection::kForward;
    tkrzw::Status s;
    if (forward) {
      s = options.from_edge ? it->First() : it->Jump(start);
    } else {
      s = options.from_edge ? it->Last() : it->JumpLower(start, /*inclusive=*/true);
    }
    std::string key, value;
    while (s == tkrzw::Status::SUCCESS && (options.limit == 0 || n < options.limit)) {
      s = it->Get(&key, options.keys_only ? nullptr : &value);
      if (s != tkrzw::Status::SUCCESS) break;
      ++n;
      if (!visitor->Visit(key, options.keys_only ? Slice() : Slice(value))) break;
      s = forward ? it->Next() : it->Previous();
    }
    if (visited != nullptr) *visited = n;
    return s == tkrzw::Status::SUCCESS || s == tkrzw::Status::NOT_FOUND_ERROR
               ? Status::OK()
               : FromTkrzw(s, "scan");
  }

 private:
  // With tkrzw.sync = commit, a hard synchronisation after each commit.
  Status AfterWrite() {
    if (in_batch_ || !settings_->sync_on_commit) return Status::OK();
    return FromTkrzw(dbm_->Synchronize(true), "sync");
  }

  tkrzw::DBM* dbm_;
  const Kind kind_;
  const TkrzwSettings* settings_;
  bool in_batch_ = false;
};

class TkrzwAdapter final : public Adapter {
 public:
  explicit TkrzwAdapter(Kind kind) : kind_(kind) {}
  ~TkrzwAdapter() override { Close(); }

  std::string LibraryVersion() const override {
    return std::string("Tkrzw ") + tkrzw::PACKAGE_VERSION;
  }
  std::vector<OptionSpec> OptionSpecs() const override {
    return {{"tkrzw.sync", "none",
             "none: the file is synchronised by Sync() only; commit: a hard (fsync) "
             "synchronisation after every commit"},
            {"tkrzw.update_mode", "in_place",
             "in_place: overwrite records where they are (Tkrzw's default); appending: always "
             "append (faster writes, the file grows until rebuilt)"}};
  }
  Status CheckOptions(const EngineOptions& options) const override {
    TkrzwSettings ignored;
    return ParseTkrzwSettings(options, &ignored);
  }
  // From Tkrzw's documentation of Synchronize(hard) and the automatic restore
  // of a file that was not closed.
  DurabilityDeclaration DeclareDurability(const EngineOptions& options) const override {
    TkrzwSettings s;
    (void)ParseTkrzwSettings(options, &s);  // checked by CheckOptions
    DurabilityDeclaration d;
    d.process_crash = FaultPromise::kConsistent;
    if (s.sync_on_commit) {
      d.power_loss = FaultPromise::kDurable;
      d.basis = "tkrzw.sync=commit: a hard synchronisation (fsync) after every commit";
    } else {
      d.basis =
          "tkrzw.sync=none: the file is synchronised by Sync() only; a file not closed is "
          "restored at open";
    }
    return d;
  }
  Capabilities capabilities() const override {
    Capabilities c;
    c.ordered = kind_ != Kind::kHash;
    c.durable = true;
    c.concurrent_readers = true;
    c.concurrent_writers = true;
    c.reorganize = true;  // Rebuild
    return c;
  }

  Status Open(const OpenRequest& request) override {
    if (dbm_) return Status::InvalidArgument("tkrzw: already open");
    KVBENCH_RETURN_IF_ERROR(ParseTkrzwSettings(request.options, &settings_));
    directory_ = request.directory;
    tkrzw::Status s;
    const auto mode = settings_.appending ? tkrzw::HashDBM::UPDATE_APPENDING
                                          : tkrzw::HashDBM::UPDATE_IN_PLACE;
    if (kind_ == Kind::kHash) {
      auto db = std::make_unique<tkrzw::HashDBM>();
      tkrzw::HashDBM::TuningParameters params;
      params.update_mode = mode;
      s = db->OpenAdvanced(JoinPath(directory_, "data.tkh"), true, tkrzw::File::OPEN_DEFAULT,
                           params);
      dbm_ = std::move(db);
    } else {
      auto db = std::make_unique<tkrzw::TreeDBM>();
      tkrzw::TreeDBM::TuningParameters params;
      params.update_mode = mode;
      s = db->OpenAdvanced(JoinPath(directory_, "data.tkt"), true, tkrzw::File::OPEN_DEFAULT,
                           params);
      dbm_ = std::move(db);
    }
    if (s != tkrzw::Status::SUCCESS) {
      dbm_.reset();
      return FromTkrzw(s, "open");
    }
    return Status::OK();
  }

  Status Close() override {
    if (!dbm_) return Status::OK();
    const tkrzw::Status s = dbm_->Close();
    dbm_.reset();
    return FromTkrzw(s, "close");
  }

  Status NewSession(std::unique_ptr<Session>* session) override {
    if (!dbm_) return Status::InvalidArgument("tkrzw: not open");
    *session = std::make_unique<TkrzwSession>(dbm_.get(), kind_, &settings_);
    return Status::OK();
  }

  Status Sync() override {
    if (!dbm_) return Status::OK();
    return FromTkrzw(dbm_->Synchronize(true), "sync");
  }

  Status ListFiles(std::vector<std::string>* paths) const override {
    return ListRegularFiles(directory_, paths);
  }

  Status Reorganize() override {
    if (!dbm_) return Status::InvalidArgument("tkrzw: not open");
    return FromTkrzw(dbm_->Rebuild(), "reorganize");
  }

 private:
  const Kind kind_;
  TkrzwSettings settings_;
  std::string directory_;
  std::unique_ptr<tkrzw::DBM> dbm_;
};

}  // namespace
}  // namespace kvbench

KVBENCH_REGISTER_ADAPTER(tkrzw_hash, "tkrzw-hash", "Tkrzw HashDBM (unordered, durable)",
                         [] { return std::make_unique<kvbench::TkrzwAdapter>(kvbench::Kind::kHash); });
KVBENCH_REGISTER_ADAPTER(tkrzw_tree, "tkrzw-tree", "Tkrzw TreeDBM: B+ tree (ordered, durable)",
                         [] { return std::make_unique<kvbench::TkrzwAdapter>(kvbench::Kind::kTree); });
