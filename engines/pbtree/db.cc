// DB, ReadTxn and WriteTxn: the public API over the pager and the tree.
#include <unistd.h>

#include "engines/pbtree/btree.h"
#include "engines/pbtree/commit_queue.h"
#include "engines/pbtree/hot.h"
#include "engines/pbtree/pbtree.h"
#include "engines/pbtree/put_buffer.h"
#include "engines/pbtree/reader_table.h"
#include "engines/pbtree/wal.h"

namespace pbtree {
namespace {

TreeState CommittedTree(const Pager& pager) {
  const Meta& m = pager.committed();
  return TreeState{m.root, m.depth, m.entries};
}

}  // namespace

DB::DB(const Options& options, std::string path)
    : options_(options),
      path_(std::move(path)),
      work_(std::make_unique<TreeState>()),
      put_buffer_(std::make_unique<PutBuffer>()),
      log_record_(std::make_unique<LogRecord>()),
      commit_queue_(options.sync == SyncMode::kCommit ? std::make_unique<CommitQueue>() : nullptr) {
}

DB::~DB() {
  // Transactions and cursors must be gone (see pbtree.h); an open write
  // transaction's pages are simply dropped with the pager. Commits only in
  // the log go into the file (an error leaves them to the next open's
  // replay).
  if (pager_ != nullptr && active_write_ == nullptr && options_.checkpoint_on_close) {
    pager_->Checkpoint();
  }
  writer_.reset();
  ReleaseWriterSlot();
  pager_.reset();
}

void DB::ReleaseWriterSlot() {
  if (writer_slot_ == nullptr) return;
  pager_->readers().Release(writer_slot_);
  writer_slot_ = nullptr;
}

Status DB::Open(const Options& options, const std::string& path, std::unique_ptr<DB>* db) {
  if (!IsValidPageSize(options.page_size)) {
    return Status::InvalidArgument("page_size " + std::to_string(options.page_size) +
                                   " (must be 4096, 8192, 16384 or 32768)");
  }
  for (uint32_t interval : {options.leaf_restart_interval, options.internal_restart_interval}) {
    if (interval < 1 || interval > 1024) {
      return Status::InvalidArgument("restart interval " + std::to_string(interval) +
                                     " (must be 1..1024)");
    }
  }
  std::unique_ptr<DB> d(new DB(options, path));
  PBTREE_RETURN_IF_ERROR(d->OpenPager());
  *db = std::move(d);
  return Status::OK();
}

Status DB::OpenPager() {
  PagerOptions po;
  po.page_size = options_.page_size;
  po.cache_bytes = options_.cache_bytes;
  po.read_only = options_.read_only;
  po.create_if_missing = options_.create_if_missing;
  po.sync_on_commit = options_.sync == SyncMode::kCommit;
  po.verify_checksums = options_.verify_checksums;
  po.mmap_reads = options_.mmap_reads;
  po.huge_mapping = options_.huge_mapping;
  po.wal = options_.wal;
  po.wal_checkpoint_bytes = options_.wal_checkpoint_bytes;
  po.wal_checkpoint_pages = options_.wal_checkpoint_pages;
  PBTREE_RETURN_IF_ERROR(Pager::Open(path_, po, &pager_));
  // A reorganize interrupted by a crash leaves its unfinished new file; we
  // hold the database's lock, so nobody is writing it now.
  if (!options_.read_only) ::unlink((path_ + ".reorg").c_str());
  OpenPagerWriter();
  return ReplayLog();
}

// Each record is one transaction, replayed as it was committed (same ids);
// nothing reaches the file before the checkpoint at the end, so a crash
// meanwhile replays the same records again.
Status DB::ReplayLog() {
  WriteAheadLog* log = pager_->log();
  if (log == nullptr) return Status::OK();
  uint64_t replayed = 0;
  PBTREE_RETURN_IF_ERROR(
      log->Recover(pager_->committed().txn_id, [&](uint64_t, Slice payload) -> Status {
        PBTREE_RETURN_IF_ERROR(pager_->BeginWrite(/*replay=*/true));
        *work_ = CommittedTree(*pager_);
        Status s = ForEachLogOp(payload, [&](uint8_t op, Slice key, Slice value) -> Status {
          if (key.size() > kMaxKeySize) return Status::Corruption("log: key too long");
          if (op == kLogPut) return writer_->Put(key, value);
          Status d = writer_->Delete(key);
          return d.IsNotFound() ? Status::OK() : d;
        });
        if (!s.ok()) {
          pager_->Abort();
          return s;
        }
        ++replayed;
        return pager_->CommitReplayed(work_->root, work_->depth, work_->entries);
      }));
  if (replayed > 0 && !options_.read_only) return pager_->Checkpoint();
  return Status::OK();
}

Status DB::Checkpoint() {
  if (active_write_ != nullptr) return Status::Busy(path_ + ": a write transaction is open");
  return pager_->Checkpoint();
}

void DB::OpenPagerWriter() {
  WriteOptions wo;
  wo.leaf_restart_interval = options_.leaf_restart_interval;
  wo.internal_restart_interval = options_.internal_restart_interval;
  const DescentCounters descents = writer_ != nullptr ? writer_->descents() : DescentCounters();
  writer_ = std::make_unique<TreeWriter>(pager_.get(), work_.get(), wo);
  writer_->KeepDescents(descents);
}

// A reader slot for one call: held only while the call runs.
Status DB::Get(Slice key, std::string* value) {
  ReaderTable& readers = pager_->readers();
  ReaderSlot* slot = readers.Acquire();
  const Snapshot snap = pager_->PinLatest(slot);
  Status s = TreeGet(pager_.get(), TreeState{snap.root, snap.depth, snap.entries}, snap.txn_id, key,
                     value);
  readers.Release(slot);
  return s;
}

std::unique_ptr<Cursor> DB::NewCursor() {
  ReaderSlot* slot = pager_->readers().Acquire();
  const Snapshot snap = pager_->PinLatest(slot);
  return SnapshotCursor(slot, snap.root, snap.depth);
}

std::unique_ptr<Cursor> DB::SnapshotCursor(ReaderSlot* slot, uint32_t root, uint32_t depth) {
  return std::unique_ptr<Cursor>(new Cursor(this, root, depth, nullptr, nullptr, slot));
}

uint64_t DB::Count() const { return pager_->snapshot().entries; }

// One-write transactions without a heap allocation: the transaction object
// lives on the stack.
[[gnu::always_inline]] inline Status DB::PutNow(Slice key, Slice value) {
  WriteTxn txn(this);
  PBTREE_RETURN_IF_ERROR(StartWrite(&txn, /*one_key=*/true));
  return txn.PutAndCommit(key, value);
}

Status DB::DeleteNow(Slice key) {
  WriteTxn txn(this);
  PBTREE_RETURN_IF_ERROR(StartWrite(&txn));
  PBTREE_RETURN_IF_ERROR(txn.Delete(key));
  return txn.Commit();
}

// With sync=commit through the commit queue: calls on other threads at the
// same time share the commit and its fdatasync.
PBTREE_HOT Status DB::Put(Slice key, Slice value) {
  return commit_queue_ == nullptr ? PutNow(key, value) : QueueWrite(key, value, false);
}

Status DB::Delete(Slice key) {
  return commit_queue_ == nullptr ? DeleteNow(key) : QueueWrite(key, Slice(), true);
}

Status DB::QueueWrite(Slice key, Slice value, bool is_delete) {
  QueuedWrite w(key, value, is_delete);
  return commit_queue_->Submit(&w, [this](QueuedWrite* const* g, size_t n) { CommitGroup(g, n); });
}

void DB::CommitGroup(QueuedWrite* const* writes, size_t n) {
  if (n == 1) {
    QueuedWrite* w = writes[0];
    w->status = w->is_delete ? DeleteNow(w->key) : PutNow(w->key, w->value);
    return;
  }
  // In the order they queued. A write refused alone (a key too long, a
  // delete of an absent key) changes nothing and keeps its own status; one
  // that fails the transaction fails its commit, which every write shares.
  WriteTxn txn(this);
  Status s = StartWrite(&txn);
  if (s.ok()) {
    for (size_t i = 0; i < n; ++i) {
      QueuedWrite* w = writes[i];
      w->status = w->is_delete ? txn.Delete(w->key) : txn.Put(w->key, w->value);
    }
    s = txn.Commit();
  }
  if (s.ok()) return;
  for (size_t i = 0; i < n; ++i) {
    // A delete that found nothing found it in a state the failed commit
    // rolled back: it gets the commit's error too.
    if (writes[i]->status.ok() || writes[i]->status.IsNotFound()) writes[i]->status = s;
  }
}

PBTREE_HOT Status DB::StartWrite(WriteTxn* txn, bool one_key) {
  txn->open_ = false;  // until the pager agrees, destroying it must not abort
  bool idle = false;
  if (!writing_.compare_exchange_strong(idle, true, std::memory_order_acquire)) {
    return Status::Busy(path_ + ": a write transaction is open");
  }
  // The writer's slot is the database's for its life (taken by the first
  // write): a slot's claim is a compare-and-swap, which every one-key commit
  // paid. Between transactions it announces nothing (Leave). Announced
  // without a fence: BeginWrite's, before it reads anything, is Enter's.
  ReaderTable& readers = pager_->readers();
  if (writer_slot_ == nullptr) writer_slot_ = readers.Acquire();
  readers.Announce(writer_slot_);
  // A one-key commit may change its leaf in place (pager.h, "In place"):
  // its log record is complete before the tree changes (WriteTxn::StartPut).
  log_record_->Clear();
  const InPlaceRequest in_place{writer_slot_, log_record_.get()};
  Status s = pager_->BeginWrite(/*replay=*/false, one_key ? &in_place : nullptr);
  if (!s.ok()) {
    readers.Leave(writer_slot_);
    writing_.store(false, std::memory_order_release);
    return s;
  }
  *work_ = CommittedTree(*pager_);
  ++work_version_;
  txn->open_ = true;
  active_write_ = txn;
  return Status::OK();
}

void DB::EndWrite() {
  pager_->EndWrite();  // after the commit's Publish: readers waiting may go on
  active_write_ = nullptr;
  ++work_version_;
  pager_->readers().Leave(writer_slot_);
  writing_.store(false, std::memory_order_release);
}

Status DB::BeginRead(std::unique_ptr<ReadTxn>* txn) {
  ReaderTable& readers = pager_->readers();
  ReaderSlot* slot = readers.Acquire();
  const Snapshot snap = pager_->PinLatest(slot);
  readers.Leave(slot);  // pinned; announced only inside its calls
  txn->reset(new ReadTxn(this, slot, snap.txn_id, snap.root, snap.depth, snap.entries));
  return Status::OK();
}

Status DB::BeginWrite(std::unique_ptr<WriteTxn>* txn) {
  std::unique_ptr<WriteTxn> t(new WriteTxn(this));
  PBTREE_RETURN_IF_ERROR(StartWrite(t.get()));
  *txn = std::move(t);
  return Status::OK();
}

Status DB::Sync() { return pager_->Sync(); }

std::vector<std::string> DB::Files() const {
  if (pager_->log() == nullptr) return {path_};
  return {path_, pager_->log()->path()};
}

ReadTxn::ReadTxn(DB* db, ReaderSlot* slot, uint64_t txn_id, uint32_t root, uint32_t depth,
                 uint64_t entries)
    : db_(db), slot_(slot), txn_id_(txn_id), root_(root), depth_(depth), entries_(entries) {}

ReadTxn::~ReadTxn() { db_->pager_->readers().Release(slot_); }

Status ReadTxn::Get(Slice key, std::string* value) {
  ReadScope scope(&db_->pager_->readers(), slot_);
  return TreeGet(db_->pager_.get(), TreeState{root_, depth_, entries_}, txn_id_, key, value);
}

std::unique_ptr<Cursor> ReadTxn::NewCursor() {
  // This transaction's pin keeps the snapshot's pages until the cursor's own
  // pin (published by Enter's fence) takes over.
  ReaderTable& readers = db_->pager_->readers();
  ReaderSlot* slot = readers.Acquire();
  slot->snapshot.store(txn_id_, std::memory_order_relaxed);
  readers.Enter(slot);
  return db_->SnapshotCursor(slot, root_, depth_);
}

WriteTxn::WriteTxn(DB* db) : db_(db) {}

WriteTxn::~WriteTxn() {
  if (open_) Abort();
}

Status WriteTxn::Fail(Status s) {
  failed_ = s;
  return s;
}

// Inlined into both puts: a call returning a Status cost a batch's puts ~80
// instructions each.
[[gnu::always_inline]] inline Status WriteTxn::StartPut(Slice key, Slice value) {
  if (!open_) return Status::InvalidArgument("write transaction already ended");
  if (!failed_.ok()) return failed_;
  db_->pager_->readers().Refresh(db_->writer_slot_);
  if (key.size() > kMaxKeySize) return KeyTooLong(key.size());
  if (value.size() > (UINT32_MAX >> 1)) return Status::InvalidArgument("value longer than 2 GiB");
  ++db_->work_version_;
  modified_ = true;
  db_->log_record_->Put(key, value);
  return Status::OK();
}

[[gnu::always_inline]] inline Status WriteTxn::CommitChanges() {
  const TreeState& work = *db_->work_;
  LogRecord* record = db_->log_record_.get();
  Status s = db_->pager_->Commit(work.root, work.depth, work.entries,
                                 record->too_large() ? nullptr : record);
  open_ = false;
  db_->EndWrite();
  return s;
}

Status WriteTxn::Put(Slice key, Slice value) {
  PBTREE_RETURN_IF_ERROR(StartPut(key, value));
  // Small values wait in the put buffer (see put_buffer.h); a large one goes
  // straight in, after what is buffered.
  if (value.size() <= MaxInlineValue(db_->pager_->page_size())) {
    if (db_->put_buffer_->Add(key, value)) return ApplyPuts();
    return Status::OK();
  }
  PBTREE_RETURN_IF_ERROR(ApplyPuts());
  Status s = db_->writer_->Put(key, value);
  if (!s.ok()) return Fail(s);
  return s;
}

PBTREE_HOT Status WriteTxn::PutAndCommit(Slice key, Slice value) {
  PBTREE_RETURN_IF_ERROR(StartPut(key, value));
  Status s = db_->writer_->PutOne(key, value);
  if (!s.ok()) return Fail(s);
  db_->pager_->readers().Refresh(db_->writer_slot_);
  return CommitChanges();
}

PBTREE_HOT Status WriteTxn::ApplyPuts() {
  if (!failed_.ok()) return failed_;
  if (db_->put_buffer_->empty()) return Status::OK();
  db_->pager_->readers().Refresh(db_->writer_slot_);
  Status s = db_->put_buffer_->Apply(db_->writer_.get());
  if (!s.ok()) return Fail(s);
  return s;
}

Status WriteTxn::Delete(Slice key) {
  if (!open_) return Status::InvalidArgument("write transaction already ended");
  PBTREE_RETURN_IF_ERROR(ApplyPuts());
  db_->pager_->readers().Refresh(db_->writer_slot_);
  ++db_->work_version_;
  Status s = db_->writer_->Delete(key);
  if (s.IsNotFound()) return s;  // nothing was touched
  if (!s.ok()) return Fail(s);
  modified_ = true;
  db_->log_record_->Delete(key);
  return s;
}

Status WriteTxn::Get(Slice key, std::string* value) {
  if (!open_) return Status::InvalidArgument("write transaction already ended");
  PBTREE_RETURN_IF_ERROR(ApplyPuts());
  db_->pager_->readers().Refresh(db_->writer_slot_);
  return TreeGet(db_->pager_.get(), *db_->work_, kNoSnapshot, key, value);
}

std::unique_ptr<Cursor> WriteTxn::NewCursor() {
  ApplyPuts();  // an error shows in the cursor's status via the failed tree walk
  const TreeState* work = db_->work_.get();
  ReaderSlot* slot = db_->pager_->readers().Acquire();
  db_->pager_->readers().Enter(slot);
  return std::unique_ptr<Cursor>(
      new Cursor(db_, work->root, work->depth, work, &db_->work_version_, slot));
}

uint64_t WriteTxn::Count() {
  ApplyPuts();
  return db_->work_->entries;
}

PBTREE_HOT Status WriteTxn::Commit() {
  if (!open_) return Status::InvalidArgument("write transaction already ended");
  ApplyPuts();
  db_->pager_->readers().Refresh(db_->writer_slot_);
  if (!failed_.ok()) {
    Status s = failed_;
    Abort();
    return s;
  }
  if (modified_) return CommitChanges();
  db_->pager_->Abort();  // nothing to write; releases nothing but keeps it symmetric
  open_ = false;
  db_->EndWrite();
  return Status::OK();
}

void WriteTxn::Abort() {
  if (!open_) return;
  db_->put_buffer_->Clear();
  db_->pager_->Abort();
  open_ = false;
  db_->EndWrite();
}

}  // namespace pbtree
