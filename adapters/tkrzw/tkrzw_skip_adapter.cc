// `tkrzw-skip`: Tkrzw 1.0's SkipDBM, a file of records sorted by key with
// skip-list links, built for reading: a write is invisible until the
// database is synchronised, which rewrites the file with the new records
// merged in (sorting them, and reducing records of one key to the newest).
// This adapter keeps the contract by synchronising at every commit:
//
// - a Put or Delete outside a batch is one commit: the write, then a
//   synchronisation (a rewrite of the whole file);
// - a batch's writes wait in the session (BatchOverlay, so reads inside the
//   batch see them) and CommitBatch applies them all and synchronises once,
//   so they become visible together; AbortBatch drops them (transactional);
// - commits are serialised on one mutex, so one session's synchronisation
//   never publishes another session's half-applied batch.
//
// A commit costs a rewrite of the file: SkipDBM is for bulk loads in large
// batches and reads, and a phase of one write per transaction on a large
// database shows exactly that cost. With tkrzw.sync = commit the rewrite is
// synchronised to the device (hard).
#include <tkrzw_dbm_skip.h>

#include <memory>
#include <mutex>

#include "adapters/batch_overlay.h"
#include "adapters/engine_directory.h"
#include "adapters/registry.h"
#include "adapters/support/batch_state.h"
#include "adapters/support/option_parsing.h"
#include "adapters/tkrzw/tkrzw_common.h"

namespace kvbench {
namespace {

using tkrzw_adapter::FromTkrzw;

// Records of one key are reduced to the newest; a newest record that is a
// removal leaves none.
std::vector<std::string> KeepNewest(const std::string &, const std::vector<std::string> &values) {
  if (values.empty() || values.back() == tkrzw::SkipDBM::REMOVING_VALUE) return {};
  return {values.back()};
}

struct SkipShared {
  std::unique_ptr<tkrzw::SkipDBM> dbm;
  bool sync_on_commit = false;
  std::string directory;
  std::mutex commit_mutex;

  // Applies `writes` and synchronises, as one commit.
  Status Commit(const BatchOverlay &writes) {
    std::lock_guard<std::mutex> lock(commit_mutex);
    for (const auto &[key, value] : writes.writes()) {
      const tkrzw::Status s = value ? dbm->Set(key, *value, true) : dbm->Remove(key);
      if (s != tkrzw::Status::SUCCESS && s != tkrzw::Status::NOT_FOUND_ERROR) {
        return FromTkrzw(s, value ? "commit: put" : "commit: delete");
      }
    }
    KVBENCH_RETURN_IF_ERROR(
        FromTkrzw(dbm->SynchronizeAdvanced(sync_on_commit, nullptr, KeepNewest), "commit"));
    // SkipDBM rewrites its file under another name and renames it into place;
    // a hard synchronisation fsyncs the file but not the rename, which a
    // power cut then undoes (measured: every commit lost).
    return sync_on_commit ? FsyncDirectory(directory).WithContext("commit") : Status::OK();
  }
};

class SkipSession final : public Session {
 public:
  explicit SkipSession(SkipShared *shared) : shared_(shared) {}

  Status Put(Slice key, Slice value) override {
    pending_.Put(key, value);
    return batch_.open() ? Status::OK() : CommitPending();
  }
  Status Get(Slice key, std::string *value) override {
    if (std::optional<Status> s = pending_.Get(key, value)) return *s;
    return FromTkrzw(shared_->dbm->Get(key, value), "get");
  }
  Status Delete(Slice key) override {
    pending_.Delete(key);
    return batch_.open() ? Status::OK() : CommitPending();
  }
  Status BeginBatch() override { return batch_.Begin(); }
  Status CommitBatch() override {
    return batch_.Commit([&] { return CommitPending(); });
  }
  Status AbortBatch() override {
    KVBENCH_RETURN_IF_ERROR(batch_.Abort());
    pending_.Clear();
    return Status::OK();
  }

  Status Scan(Slice start, const ScanOptions &options, ScanVisitor *visitor,
              size_t *visited) override {
    tkrzw_adapter::TkrzwCursor cursor(shared_->dbm.get(), start, options);
    const size_t n = pending_.MergeScan(cursor, start, options, visitor);
    if (visited != nullptr) *visited = n;
    return cursor.status();
  }

 private:
  Status CommitPending() {
    Status s = shared_->Commit(pending_);
    pending_.Clear();
    return s;
  }

  SkipShared *shared_;
  BatchState batch_;
  BatchOverlay pending_;  // writes not yet committed (only inside a batch)
};

class SkipAdapter final : public Adapter {
 public:
  ~SkipAdapter() override { Close(); }

  std::string LibraryVersion() const override {
    return std::string("Tkrzw ") + tkrzw::PACKAGE_VERSION;
  }
  std::vector<OptionSpec> OptionSpecs() const override { return {tkrzw_adapter::SyncOptionSpec()}; }
  Status CheckOptions(const EngineOptions &options) const override {
    return CheckSettings(options, tkrzw_adapter::ParseSyncOnCommit);
  }
  DurabilityDeclaration DeclareDurability(const EngineOptions& options) const override {
    const bool sync_on_commit = AcceptedSettings(options, tkrzw_adapter::ParseSyncOnCommit);
    DurabilityDeclaration d;
    // A commit returns after SkipDBM rewrote its file with the commit's
    // records merged in, so the page cache holds every acknowledged commit.
    d.process_crash = FaultPromise::kDurable;
    d.atomic_batches = true;
    if (sync_on_commit) {
      d.power_loss = FaultPromise::kDurable;
      d.basis =
          "tkrzw.sync=commit: every commit rewrites the file, synchronises it hard and fsyncs "
          "the directory (the rewrite is renamed into place)";
    } else {
      d.basis = "tkrzw.sync=none: every commit rewrites the file, synchronised by Sync() only";
    }
    return d;
  }
  Capabilities capabilities() const override {
    Capabilities c;
    c.ordered = true;
    c.transactional = true;
    c.durable = true;
    c.concurrent_readers = true;
    c.concurrent_writers = true;  // commits serialised on one mutex
    c.reorganize = true;          // Rebuild
    return c;
  }

  Status Open(const OpenRequest &request) override {
    if (shared_.dbm) return Status::InvalidArgument("tkrzw-skip: already open");
    KVBENCH_RETURN_IF_ERROR(
        tkrzw_adapter::ParseSyncOnCommit(request.options, &shared_.sync_on_commit));
    directory_ = request.directory;
    shared_.directory = directory_;
    auto dbm = std::make_unique<tkrzw::SkipDBM>();
    const tkrzw::Status s = dbm->OpenAdvanced(JoinPath(directory_, "data.tks"), true);
    if (s != tkrzw::Status::SUCCESS) return FromTkrzw(s, "open");
    shared_.dbm = std::move(dbm);
    return Status::OK();
  }

  Status Close() override {
    if (!shared_.dbm) return Status::OK();
    const tkrzw::Status s = shared_.dbm->Close();
    shared_.dbm.reset();
    return FromTkrzw(s, "close");
  }

  Status NewSession(std::unique_ptr<Session> *session) override {
    if (!shared_.dbm) return Status::InvalidArgument("tkrzw-skip: not open");
    *session = std::make_unique<SkipSession>(&shared_);
    return Status::OK();
  }

  Status Sync() override {
    if (!shared_.dbm) return Status::OK();
    std::lock_guard<std::mutex> lock(shared_.commit_mutex);
    KVBENCH_RETURN_IF_ERROR(
        FromTkrzw(shared_.dbm->SynchronizeAdvanced(true, nullptr, KeepNewest), "sync"));
    return FsyncDirectory(directory_).WithContext("sync");
  }

  Status ListFiles(std::vector<std::string> *paths) const override {
    return ListRegularFiles(directory_, paths);
  }

  Status Reorganize() override {
    if (!shared_.dbm) return Status::InvalidArgument("tkrzw-skip: not open");
    std::lock_guard<std::mutex> lock(shared_.commit_mutex);
    return FromTkrzw(shared_.dbm->Rebuild(), "reorganize");
  }

 private:
  SkipShared shared_;
  std::string directory_;
};

}  // namespace
}  // namespace kvbench

KVBENCH_REGISTER_ADAPTER(tkrzw_skip, "tkrzw-skip",
                         "Tkrzw SkipDBM: sorted file, rewritten at every commit (ordered, durable)",
                         [] { return std::make_unique<kvbench::SkipAdapter>(); });
