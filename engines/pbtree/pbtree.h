// pbtree: a crash-safe, prefix-compressing B+tree in one file.
//
//   std::unique_ptr<pbtree::DB> db;
//   pbtree::Status s = pbtree::DB::Open(pbtree::Options(), "/tmp/example.pbtree", &db);
//   std::unique_ptr<pbtree::WriteTxn> txn;
//   s = db->BeginWrite(&txn);
//   s = txn->Put("https://example.org/a", "value");
//   s = txn->Commit();
//   std::string value;
//   s = db->Get("https://example.org/a", &value);
//
// Keys and values are byte strings (NUL bytes allowed), keys up to 2048 bytes,
// values up to 2 GiB (those longer than a quarter page go to overflow pages).
// Keys are ordered by unsigned bytes.
//
// Transactions: one write transaction at a time; any number of read
// transactions, each seeing the state of the last commit before it began,
// also while a write transaction is open. Commit is atomic: after a crash the
// file holds exactly the last commit whose Commit() returned (or, when the
// crash hit during Commit, possibly that commit), and nothing of the others.
// See pager.h for the commit protocol and the two sync modes, format.h for the
// file format.
//
// Threads: reads scale across threads. Any number of threads may read at once
// (DB::Get, DB::NewCursor, DB::Count, DB::BeginRead, and the ReadTxns and
// Cursors these hand out), while one thread at a time writes (BeginWrite and
// its WriteTxn, DB::Put, DB::Delete; with sync=commit, DB::Put and DB::Delete
// on several threads at once commit together, see below): readers take no lock, and each sees
// whole commits only. They never wait for the writer, but for a reader that
// arrives while a DB::Put that found no reader changes its leaf in place: it
// waits until that commit is published (about a microsecond). A ReadTxn or Cursor is used by
// one thread at a time (it may move between threads); a WriteTxn and its
// cursors by the writing thread. A second concurrent BeginWrite gets Busy.
// Group commit: with sync=commit, DB::Put and DB::Delete calls made on
// several threads at once queue instead of getting Busy; the first in line
// commits the writes queued behind it as one transaction with one fdatasync
// (commit_queue.h). Each call returns once its write is durable.
// Reorganize, Check, GetStats and the destructor need the DB to themselves:
// no other call may run meanwhile. On one thread, transactions and cursors
// may be open at the same time and interleaved freely. Another process
// opening the same file gets Busy (an exclusive flock; read-only handles
// share theirs).
//
// Lifetimes: transactions and cursors must be destroyed before their DB.
// A cursor of a write transaction must not be used after Commit/Abort.
// Cursors and read transactions pin their snapshot: the pages it reaches are
// not reused, and cache memory evicted while a cursor exists may be held back
// for it, so they are best kept short-lived (as LMDB's read transactions).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engines/pbtree/status.h"

namespace pbtree {

class CommitQueue;
class Pager;
class PutBuffer;
class LogRecord;
class TreeWriter;
class DB;
struct QueuedWrite;
struct ReaderSlot;
struct TreeState;

// The longest key, in bytes; longer ones are refused with InvalidArgument.
inline constexpr uint32_t kMaxKeySize = 2048;

enum class SyncMode {
  kNone,    // no fsync: a commit survives a crash of the process, not a power cut
  kCommit,  // fsync the log record (or a checkpoint's pages, then its meta
            // page): a commit survives a power cut
};

struct Options {
  // Behaviour.
  // Create the file when it does not exist (NotFound otherwise).
  bool create_if_missing = true;
  // Open for reading only (writes return NotSupported); several read-only
  // handles may share a file.
  bool read_only = false;
  // Durability of a commit; kNone is what the seed's benchmarks measure.
  SyncMode sync = SyncMode::kNone;
  // Small commits through a write-ahead log beside the file ("<path>-log"):
  // a commit whose puts and deletes fit in a 1 MiB record appends that
  // record (with sync=commit, one fdatasync) and keeps its pages in memory;
  // a checkpoint writes them (see pager.h, wal.h). false: every commit
  // writes its pages and a meta page.
  bool wal = true;
  // A checkpoint once the log holds this many bytes.
  uint64_t wal_checkpoint_bytes = 64ull << 20;
  // ... or this many pages wait in memory for one (0: half of cache_bytes).
  uint64_t wal_checkpoint_pages = 0;
  // Checkpoint when the DB is destroyed. Tests turn it off to leave the log
  // to the next open's replay, as a crash would.
  bool checkpoint_on_close = true;
  // Verify every page's checksum when it is read. Only fuzzing turns this off,
  // to reach the structural checks behind it.
  bool verify_checksums = true;

  // Performance.
  // Page size for a new file: 4096, 8192, 16384 or 32768. An existing file
  // keeps the size it was created with.
  uint32_t page_size = 4096;
  // Bytes of pages kept in memory (clean pages; an open write transaction's
  // dirty pages stay in memory on top of this until it ends).
  uint64_t cache_bytes = 256ull << 20;
  // Read committed pages through a read-only shared mapping of the file
  // (each page checked once per open, when first read) instead of copying
  // them into the cache with pread. Writes always use pwrite.
  bool mmap_reads = true;
  // With mmap_reads, ask the kernel for huge pages behind the mapping
  // (madvise MADV_HUGEPAGE) while the file is at most a quarter of the
  // machine's memory. A read that misses the OS page cache then brings in
  // the 2-4 MiB around it rather than the 128 KiB pbtree asks for otherwise
  // (posix_fadvise WILLNEED), and where the file system keeps large folios
  // (ext4 and XFS on Linux 6.x) one fault maps 2 MiB: a cold start of a file
  // that fits in memory reads it in a few large requests instead of many
  // small ones. On a file larger than memory the same policy would read
  // megabytes per lookup, so past a quarter of memory (or when false) the
  // mapping uses ordinary pages.
  bool huge_mapping = true;
  // Keys between full-key restart points in leaves: larger compresses better,
  // smaller searches faster.
  uint32_t leaf_restart_interval = 16;
  // The same in internal pages, which every search crosses several times and
  // which are few: shorter blocks there cost little space.
  uint32_t internal_restart_interval = 8;
};

// Figures about the committed tree (GetStats walks every page: O(file)).
struct Stats {
  uint32_t page_size = 0;
  uint64_t txn_id = 0;      // id of the last commit
  uint32_t depth = 0;       // levels; 0 when empty
  uint64_t entries = 0;     // keys
  uint64_t file_pages = 0;  // pages in use or free (the file may be longer after a crash)
  uint64_t meta_pages = 2;
  uint64_t leaf_pages = 0;
  uint64_t internal_pages = 0;
  uint64_t overflow_pages = 0;
  uint64_t free_map_pages = 0;
  uint64_t free_pages = 0;
  // Bytes used (header, entries, restart array) / bytes of all pages, per kind.
  double leaf_fill = 0;
  double internal_fill = 0;
  // Key bytes in leaves: whole keys, and what is stored (suffixes plus the
  // shared/unshared length bytes).
  uint64_t key_bytes_raw = 0;
  uint64_t key_bytes_stored = 0;
  uint64_t separator_bytes = 0;  // internal keys as stored
  uint64_t value_bytes = 0;      // inline and overflow values
  // Since Open.
  uint64_t cache_misses = 0;
  uint64_t cached_pages = 0;
  uint64_t pages_written = 0;
  uint64_t write_calls = 0;
  uint64_t syncs = 0;
  uint64_t commits = 0;
  uint64_t in_place_commits = 0;  // one-key commits that changed their leaf in place
  // Writes' descents to a leaf: from the root, from the leaf's parent that
  // an earlier write's descent found, and none (that write's leaf again).
  uint64_t descents_from_root = 0;
  uint64_t descents_from_parent = 0;
  uint64_t descents_skipped = 0;
  // Group commit (sync=commit): commits that held the DB::Put or DB::Delete
  // calls of more than one thread, and those calls.
  uint64_t group_commits = 0;
  uint64_t grouped_writes = 0;
  // The newest meta page was invalid at Open (a torn commit) and the previous
  // one was used.
  bool recovered_from_bad_meta = false;
  // The read mapping has huge pages behind it (Options::huge_mapping, and
  // the kernel accepted the advice).
  bool huge_mapping = false;
};

// What Check() looked at; it returns Corruption at the first problem.
struct CheckReport {
  uint64_t pages_checked = 0;
  uint64_t entries = 0;
  uint64_t free_pages = 0;
};

// An ordered position in a snapshot (a read transaction's, the committed
// state's, or a write transaction's own working state).
class Cursor {
 public:
  ~Cursor();
  Cursor(const Cursor&) = delete;
  Cursor& operator=(const Cursor&) = delete;

  // Valid() is false after moving past either end or on error (see status()).
  bool Valid() const { return valid_; }
  void SeekToFirst();
  void SeekToLast();
  // First key >= target.
  void Seek(Slice target);
  // Last key <= target.
  void SeekForPrev(Slice target);
  void Next();
  void Prev();
  // Moves n entries forward (backward); whole leaves are skipped by their
  // entry counts without decoding them. Invalid when fewer remain.
  void Skip(uint64_t n);
  void SkipBackward(uint64_t n);

  // The current key; valid until the cursor moves or is destroyed.
  Slice key() const { return key_; }
  // The current value (read from overflow pages when needed); valid until the
  // next call on this cursor, or on anything else of the same DB on the
  // calling thread.
  Slice value();
  // OK, or the first error met (then Valid() is false).
  const Status& status() const { return status_; }

 private:
  friend class ReadTxn;
  friend class WriteTxn;
  friend class DB;
  struct Level {
    uint32_t page;
    uint32_t pos;
  };
  // `live`/`version`: a write transaction's working tree and modification
  // counter; when the counter moves, the cursor re-seeks to its key first.
  // `slot`: the cursor's own reader slot (released with it), announced and,
  // for a snapshot cursor, pinning the snapshot.
  Cursor(DB* db, uint32_t root, uint32_t depth, const TreeState* live, const uint64_t* version,
         ReaderSlot* slot);
  // Re-announces the slot when needed (ReaderTable::Refresh); every public
  // method starts with it.
  void Refresh();
  bool Stale();
  bool WorkingTreeChanged();  // Stale's test of a write transaction's cursor
  bool Descend(uint32_t page, uint32_t level, bool leftmost);
  bool StepForward();
  bool StepBackward();
  bool NextLeaf();
  bool PrevLeaf();
  bool PositionAt(uint32_t index);
  bool IndexInLeaf(uint32_t* index, uint32_t* count);
  bool LoadKey();
  // The current leaf's bytes (path_.back().page); nullptr after a failure.
  // A snapshot cursor's are kept between calls (see cursor.cc) and read
  // again only after a move to another leaf or a retirement of frames.
  const uint8_t* Leaf();
  const uint8_t* ReadLeaf();
  void KeepLeaf(uint32_t page_no, const uint8_t* data);
  void Fail(Status s);

  DB* db_;
  uint32_t root_;
  uint32_t depth_;
  const TreeState* live_;
  const uint64_t* version_;
  ReaderSlot* slot_;
  // The snapshot whose versions of pages the cursor reads (its slot's pin;
  // a write transaction's cursor reads the newest).
  uint64_t view_;
  uint64_t seen_version_ = 0;
  std::vector<Level> path_;
  // The kept leaf: its page, its bytes (nullptr: none) and the slot's epoch
  // when they were read.
  uint32_t leaf_page_ = 0;
  const uint8_t* leaf_data_ = nullptr;
  uint64_t leaf_epoch_ = 0;
  std::string key_;
  std::string value_;
  Status status_;
  bool valid_ = false;
};

// A consistent snapshot of the last commit before BeginRead. Pages it needs
// are not reused by later writers until it is destroyed. Its cursors pin the
// snapshot too and may outlive it.
class ReadTxn {
 public:
  ~ReadTxn();
  ReadTxn(const ReadTxn&) = delete;
  ReadTxn& operator=(const ReadTxn&) = delete;

  // NotFound when absent; Corruption/IOError on damage.
  Status Get(Slice key, std::string* value);
  std::unique_ptr<Cursor> NewCursor();
  uint64_t Count() const { return entries_; }
  uint64_t txn_id() const { return txn_id_; }

 private:
  friend class DB;
  ReadTxn(DB* db, ReaderSlot* slot, uint64_t txn_id, uint32_t root, uint32_t depth,
          uint64_t entries);
  DB* db_;
  ReaderSlot* slot_;
  uint64_t txn_id_;
  uint32_t root_;
  uint32_t depth_;
  uint64_t entries_;
};

// The one write transaction. Its reads see its own writes. Destroying it
// without Commit aborts it.
class WriteTxn {
 public:
  ~WriteTxn();
  WriteTxn(const WriteTxn&) = delete;
  WriteTxn& operator=(const WriteTxn&) = delete;

  // Inserts or overwrites. InvalidArgument for a key longer than 2048 bytes.
  // Puts of small values are buffered and applied in key order by the next
  // other call of the transaction (see put_buffer.h); an error found while
  // applying them is returned by that call and fails the transaction.
  Status Put(Slice key, Slice value);
  // NotFound when the key is absent.
  Status Delete(Slice key);
  Status Get(Slice key, std::string* value);
  std::unique_ptr<Cursor> NewCursor();
  uint64_t Count();
  // Makes every write of the transaction durable and visible at once (see
  // Options::sync). After an error the transaction is rolled back and the DB
  // refuses further writes until reopened. The transaction ends either way.
  Status Commit();
  void Abort();

 private:
  friend class DB;
  friend class Cursor;
  explicit WriteTxn(DB* db);
  // A failed change may leave the working tree half-edited: the transaction
  // then only aborts.
  Status Fail(Status s);
  // Applies the buffered puts.
  Status ApplyPuts();
  // The checks and bookkeeping every put makes before its key reaches the
  // tree or the put buffer.
  Status StartPut(Slice key, Slice value);
  // DB::Put's one put and its commit: straight into the tree, without the
  // put buffer's copy (nothing is buffered before it, and nothing follows
  // it), then committed without Commit's tests for buffered puts and an
  // earlier failure (there are none).
  Status PutAndCommit(Slice key, Slice value);
  // Commit's last step for a transaction that changed something, after the
  // writer's slot was refreshed.
  Status CommitChanges();
  DB* db_;
  bool open_ = true;
  bool modified_ = false;
  Status failed_;
};

class DB {
 public:
  // Opens or creates the database file `path`. NotFound (missing file and
  // !create_if_missing), InvalidArgument (bad option, not a pbtree file),
  // Corruption (damaged or truncated file), Busy (locked), IOError.
  static Status Open(const Options& options, const std::string& path, std::unique_ptr<DB>* db);
  ~DB();
  DB(const DB&) = delete;
  DB& operator=(const DB&) = delete;

  // Reads of the last committed state, without a transaction.
  Status Get(Slice key, std::string* value);
  std::unique_ptr<Cursor> NewCursor();
  uint64_t Count() const;

  // One-write transactions. Busy while a WriteTxn is open. With sync=commit,
  // calls on several threads at once commit in groups (see Threads above).
  Status Put(Slice key, Slice value);
  Status Delete(Slice key);

  Status BeginRead(std::unique_ptr<ReadTxn>* txn);
  // Busy when a write transaction is already open.
  Status BeginWrite(std::unique_ptr<WriteTxn>* txn);

  // Walks the committed tree and free map. O(file).
  Status GetStats(Stats* stats);
  // Verifies the committed state completely: every page's checksum and
  // structure, key order within and across pages, separators bounding their
  // subtrees, levels, overflow chains, the entry count, and that every page is
  // used exactly once or free (no page lost, none used twice). Corruption with
  // the first problem found.
  Status Check(CheckReport* report = nullptr);

  // Rewrites the tree in key order with full pages into a new file and
  // atomically renames it over this one. Busy while a transaction or cursor
  // is open.
  Status Reorganize();
  // fdatasync, whatever the sync mode.
  Status Sync();
  // Writes every commit still only in the log into the file and empties the
  // log (as the destructor does). Needs the DB to itself.
  Status Checkpoint();
  // Every file the database owns (the file and, with wal, its log).
  std::vector<std::string> Files() const;
  const std::string& path() const { return path_; }
  const Options& options() const { return options_; }

 private:
  friend class Cursor;
  friend class ReadTxn;
  friend class WriteTxn;
  DB(const Options& options, std::string path);
  Status OpenPager();
  void OpenPagerWriter();
  // Gives the writer's slot back to the pager's reader table (closing, or
  // the pager about to be replaced).
  void ReleaseWriterSlot();
  // Applies the log's records after the last checkpoint, then checkpoints.
  Status ReplayLog();
  // Check and GetStats walk the file: a checkpoint first.
  Status CheckpointForWalk();
  // DB::Put and DB::Delete, each its own transaction.
  Status PutNow(Slice key, Slice value);
  Status DeleteNow(Slice key);
  // Group commit: queues the write, commits it alone or with others'.
  Status QueueWrite(Slice key, Slice value, bool is_delete);
  // One transaction for the writes of a group.
  void CommitGroup(QueuedWrite* const* writes, size_t n);
  // `one_key`: DB::Put's transaction, which may change its leaf in place.
  Status StartWrite(WriteTxn* txn, bool one_key = false);
  void EndWrite();
  // A cursor owning `slot` over the snapshot it pins.
  std::unique_ptr<Cursor> SnapshotCursor(ReaderSlot* slot, uint32_t root, uint32_t depth);

  Options options_;
  std::string path_;
  std::unique_ptr<Pager> pager_;
  // The write transaction's working tree, its writer and a counter bumped by
  // every change (cursors of the transaction watch it).
  std::unique_ptr<TreeState> work_;
  std::unique_ptr<TreeWriter> writer_;
  std::unique_ptr<PutBuffer> put_buffer_;
  // The open write transaction's puts and deletes, for the log.
  std::unique_ptr<LogRecord> log_record_;
  // With sync=commit, the DB::Put and DB::Delete calls waiting to commit.
  std::unique_ptr<CommitQueue> commit_queue_;
  // The open write transaction; `writing_` makes BeginWrite on two threads
  // safe (one gets Busy). The writer's reader slot announces it to the cache.
  std::atomic<bool> writing_{false};
  WriteTxn* active_write_ = nullptr;
  ReaderSlot* writer_slot_ = nullptr;
  uint64_t work_version_ = 0;
};

}  // namespace pbtree
