// `tkrzw-hash` and `tkrzw-tree`: Tkrzw 1.0 (Debian's libtkrzw-dev), the
// successor of Kyoto Cabinet: a HashDBM or TreeDBM (B+ tree) file in the
// engine's directory.
//
// A DBM object is thread-safe (its own locks), so sessions read and write in
// parallel. Tkrzw has no multi-operation transactions on these file DBMs: a
// batch only groups writes (transactional = false; AbortBatch is
// NotSupported); with tkrzw.sync = commit the file is synchronised at the end
// of each batch and after each write outside one. Scans on tkrzw-tree.
// SkipDBM, whose writes are invisible until synchronised, is tkrzw-skip
// (tkrzw_skip_adapter.cc).
#include <tkrzw_dbm_hash.h>
#include <tkrzw_dbm_tree.h>

#include <memory>

#include "adapters/batch_overlay.h"
#include "adapters/engine_directory.h"
#include "adapters/registry.h"
#include "adapters/support/batch_state.h"
#include "adapters/support/option_parsing.h"
#include "adapters/tkrzw/tkrzw_common.h"

namespace kvbench {
namespace {

using tkrzw_adapter::FromTkrzw;

struct TkrzwSettings {
  bool sync_on_commit = false;
  bool appending = false;
};

Status ParseTkrzwSettings(const EngineOptions& o, TkrzwSettings* out) {
  KVBENCH_RETURN_IF_ERROR(tkrzw_adapter::ParseSyncOnCommit(o, &out->sync_on_commit));
  const std::string mode = o.GetString("tkrzw.update_mode");
  if (mode != "in_place" && mode != "appending") {
    return Status::InvalidArgument("option 'tkrzw.update_mode': '" + mode +
                                   "' is not in_place or appending");
  }
  out->appending = mode == "appending";
  return Status::OK();
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
  Status BeginBatch() override { return batch_.Begin(); }
  Status CommitBatch() override {
    return batch_.Commit([&] { return AfterWrite(); });
  }
  Status AbortBatch() override {
    return BatchState::AbortNotSupported(kind_ == Kind::kHash ? "tkrzw-hash" : "tkrzw-tree");
  }

  Status Scan(Slice start, const ScanOptions& options, ScanVisitor* visitor,
              size_t* visited) override {
    if (kind_ == Kind::kHash) return Status::NotSupported("scan: tkrzw-hash is not ordered");
    tkrzw_adapter::TkrzwCursor cursor(dbm_, start, options);
    // Writes go straight to the DBM, so there are no batch writes to merge.
    const size_t n = BatchOverlay().MergeScan(cursor, start, options, visitor);
    if (visited != nullptr) *visited = n;
    return cursor.status();
  }

 private:
  // With tkrzw.sync = commit, a hard synchronisation after each commit.
  Status AfterWrite() {
    if (batch_.open() || !settings_->sync_on_commit) return Status::OK();
    return FromTkrzw(dbm_->Synchronize(true), "sync");
  }

  tkrzw::DBM* dbm_;
  const Kind kind_;
  const TkrzwSettings* settings_;
  BatchState batch_;
};

class TkrzwAdapter final : public Adapter {
 public:
  explicit TkrzwAdapter(Kind kind) : kind_(kind) {}
  ~TkrzwAdapter() override { Close(); }

  std::string LibraryVersion() const override {
    return std::string("Tkrzw ") + tkrzw::PACKAGE_VERSION;
  }
  std::vector<OptionSpec> OptionSpecs() const override {
    return {tkrzw_adapter::SyncOptionSpec(),
            {"tkrzw.update_mode", "in_place",
             "in_place: overwrite records where they are (Tkrzw's default); appending: always "
             "append (faster writes, the file grows until rebuilt)"}};
  }
  Status CheckOptions(const EngineOptions& options) const override {
    return CheckSettings(options, ParseTkrzwSettings);
  }
  // From Tkrzw's documentation of Synchronize(hard) and the automatic restore
  // of a file that was not closed.
  DurabilityDeclaration DeclareDurability(const EngineOptions& options) const override {
    const TkrzwSettings s = AcceptedSettings(options, ParseTkrzwSettings);
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
