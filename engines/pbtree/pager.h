// Pager: the database file, its page cache, its free map and its meta pages,
// and the page bookkeeping of the one write transaction.
//
// Reads: the page cache holds the write transaction's pages and the pages
// it committed while they stay cached. Other committed pages are read through
// a read-only shared mapping of the file (PagerOptions::mmap_reads), as LMDB
// reads: no syscall and no copy, and the kernel's page cache is the cache.
// Each mapped page is checked once per open, when first read: its checksum,
// that its transaction id is not newer than the last commit, and for leaf and
// internal pages their whole structure (ValidateNodePage); a bit per page
// remembers it, cleared when the writer writes the page again. Only pages
// inside the file's known size are read through the mapping (a reference past
// the end is read with pread and reported as truncation, never a SIGBUS), and
// the file never shrinks while open. The mapping is a fixed reservation made
// at open (twice the file, at least 16 GiB of address space); pages past it
// are read with pread into the cache. With mmap_reads off every read goes
// through pread into the cache. Either way the mapping is gone once the file
// is closed, so evicting the file from the OS page cache (posix_fadvise
// DONTNEED) after a close makes the next open cold.
//
// Reading around a miss: while the file is at most a quarter of the machine's
// memory (PagerOptions::huge_mapping), the mapping asks for huge pages
// (MADV_HUGEPAGE), so the kernel reads 2-4 MiB around a faulting page and,
// where the file system keeps large folios, maps 2 MiB per fault and per TLB
// entry. Otherwise each first miss in an aligned 128 KiB chunk asks the
// kernel to read the whole chunk (posix_fadvise WILLNEED). Both are hints.
//
// Threads: readers (Read, Prefetch, PinLatest, snapshot(), readers()) may run
// on any number of threads at once, concurrently with one writer thread (the
// rest of the write-side API). A reader announces itself in the ReaderTable
// first (reader_table.h): a page pointer from Read stays valid while its
// thread's slot is announced, until that same thread's next call that may
// read or allocate (which may evict it and reuse its memory at once, as a
// single-threaded cache would). Callers therefore never keep a page pointer
// across their own next page read. A reader reads the version of each page
// that its snapshot saw (Read's `view`). Committed bytes never change while
// a reader can see them: the writer writes into frames of its own (a new
// page, or a new version of an unflushed page, below) and publishes a commit
// with one snapshot record (PinLatest, snapshot()); until then no reader sees
// its frames. (A one-key commit with no reader there changes its leaf in
// place, and readers that arrive meanwhile wait for it: "In place", below.)
//
// Commits through the log (PagerOptions::wal, the default; format in wal.h).
// A commit whose writes fit in one log record (Commit's `log_record`) writes
// that record and nothing else: its pages become "unflushed", published to
// readers and pinned in the cache (never evicted), and with sync=commit one
// fdatasync of the log makes it durable. A later transaction that changes an
// unflushed page keeps its page number: it writes a new version of it
// (page_cache.h, "Versions"), which readers of older snapshots do not see,
// so a one-key commit whose path is already unflushed copies its leaf and
// nothing else (no new page numbers, no parent pointers, no free-map bits).
// The replaced version is dropped once no reader older than the commit that
// replaced it remains. A checkpoint is a commit of the kind below (pages,
// then meta): it writes the transaction's own pages, every unflushed page
// still in use and the whole free map, then the meta page, after which the
// log starts again from its beginning. One happens when a transaction is too
// large for the log, when the log reaches wal_checkpoint_bytes or the
// unflushed pages wal_checkpoint_pages, and at Checkpoint() (the DB's close,
// Check, GetStats, Reorganize). Until then the file holds the last
// checkpoint intact, because:
//   - unflushed pages were free in the last checkpoint (allocated after it);
//   - a page of the last checkpoint freed by a logged commit is "held": not
//     reusable until the next checkpoint's meta page is written (and then
//     only once no reader older than that remains, as usual);
//   - an unflushed page freed again was never in the file and is reusable as
//     soon as no reader can reach it; its frame stays pinned until then.
//
// In place. A one-key commit (DB::Put) may change its leaf where it is,
// without a new version, when nothing can see the change before it is
// committed and nothing can undo it after: no other reader slot is announced
// or pinned (the in-place flag of reader_table.h keeps new readers out until
// the commit is published), the leaf is unflushed and has no older version,
// it is the transaction's first change, and the commit will be a logged one
// that cannot fail (no sync, the record's room in the log reserved before the
// change). The leaf then takes the put or the transaction goes the usual way
// with nothing changed (WriteInPlace, UndoInPlace). Copying the leaf was a
// sixth of such a commit's instructions and most of its cache misses. A put
// that fills the leaf splits it there, and its parent takes the new page's
// separator there too (WriteInPlaceAlso, under the same tests), when the
// parent has room; nothing after the parent's first byte changes can fail.
// A split that way copies no page: 4,100 fewer instructions per split, 4% of
// seed 001's one-key commits.
// Opening finds the last checkpoint's meta as below; the DB then replays the
// log's records after it (DB::OpenPager) and writes a checkpoint.
//
// Commit protocol of a checkpoint, the reason it is atomic:
//   1. every page the transaction wrote (tree, overflow and free-map pages)
//      lives at a page that the last committed state does not use
//      (copy-on-write), written in page order with pwritev;
//   2. sync=commit: fdatasync, so those pages are on disk before any meta page
//      names them;
//   3. the new meta page goes to slot txn_id % 2, leaving the previous commit's
//      meta in the other slot;
//   4. sync=commit: fdatasync, so the commit is durable when Commit returns.
// A crash before step 3 completes leaves the previous meta as the newest valid
// one (a torn meta fails its checksum), and the previous commit's pages are
// intact by step 1. With sync=none there is no fsync: the writes reach the OS
// page cache in that order, which survives a crash of the process (the kernel
// keeps every completed write) but not a power cut or kernel crash, where the
// disk may get the meta page before the pages it names. That is the
// throughput-first mode the seed benchmarks measure; sync=commit is the mode
// that is safe by design.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "engines/pbtree/format.h"
#include "engines/pbtree/free_map.h"
#include "engines/pbtree/page_cache.h"
#include "engines/pbtree/reader_table.h"
#include "engines/pbtree/status.h"
#include "engines/pbtree/wal.h"

namespace pbtree {

struct PagerOptions {
  uint32_t page_size = 4096;  // for new files; an existing file's own size wins
  uint64_t cache_bytes = 256ull << 20;
  bool read_only = false;
  bool create_if_missing = true;
  bool sync_on_commit = false;
  bool verify_checksums = true;  // false only to let fuzzing reach the parsers
  bool mmap_reads = true;        // committed pages through a mapping (see above)
  bool huge_mapping = true;      // huge pages behind it while the file is small (see above)
  bool wal = true;               // small commits through the log (see above)
  uint64_t wal_checkpoint_bytes = 64ull << 20;  // log bytes that make a checkpoint
  uint64_t wal_checkpoint_pages = 0;            // unflushed pages that do; 0: half the cache
};

// What readers need of a commit, published as one record.
struct Snapshot {
  uint64_t txn_id = 0;
  uint32_t root = 0;
  uint32_t depth = 0;
  uint64_t entries = 0;
};

struct PagerCounters {
  uint64_t cache_misses = 0;
  uint64_t pages_written = 0;
  uint64_t write_calls = 0;
  uint64_t syncs = 0;
  uint64_t commits = 0;
  uint64_t in_place_commits = 0;  // of them, commits that changed their leaf in place
};

// BeginWrite's request to let the transaction change a page in place (see
// "In place" above).
struct InPlaceRequest {
  const ReaderSlot* writer_slot;  // the transaction's own slot (announced)
  const LogRecord* log_record;    // complete: its size is the commit's record's
};

// fsync of the directory holding `path` (makes a create or rename durable).
Status SyncDirectoryOf(const std::string& path);

class Pager {
 public:
  // Opens (or creates) the file. NotFound when it is missing and
  // !create_if_missing; InvalidArgument when it is not a pbtree file;
  // Corruption when it is damaged (both metas invalid, truncated, bad free
  // map); Busy when another handle holds its lock.
  static Status Open(const std::string& path, const PagerOptions& options,
                     std::unique_ptr<Pager>* pager);
  ~Pager();
  Pager(const Pager&) = delete;
  Pager& operator=(const Pager&) = delete;

  uint32_t page_size() const { return page_size_; }
  // This open file among every Pager of the process, never reused: what
  // per-thread state about its pages is keyed by (btree_read.cc's finger),
  // where an address could be reused by the next Pager.
  uint64_t id() const { return id_; }
  // The last commit in full. Writer thread only (and exclusive callers).
  const Meta& committed() const { return committed_; }
  const std::string& path() const { return path_; }
  bool read_only() const { return options_.read_only; }
  // Writer thread only (and exclusive callers).
  PagerCounters counters() const;
  const FreeMap& free_map() const { return free_map_; }
  size_t cached_pages() const { return cache_.frames_in_use(); }
  // Takes the memory of `old`'s page cache for this one's (PageCache::AdoptMemory).
  void AdoptCacheMemory(Pager* old) { cache_.AdoptMemory(&old->cache_); }

  // The last commit, read consistently by any thread (not pinned).
  Snapshot snapshot() const;
  // Pins the last commit in `slot` (its pages are not reused until the slot
  // is released or pins another) and announces the slot's epoch. Any thread.
  Snapshot PinLatest(ReaderSlot* slot);
  ReaderTable& readers() { return readers_; }
  // Whether one meta slot was invalid at open (a torn or damaged meta page;
  // the other, valid one was used).
  bool recovered_from_bad_meta() const { return recovered_; }
  // Huge pages behind the read mapping (see above).
  bool huge_mapping() const { return huge_mapped_.load(std::memory_order_relaxed); }

  // The page's bytes as the snapshot `view` sees them (kNoSnapshot: the
  // newest, what the writer and exclusive callers read), valid until the next
  // Pager call that may read or allocate (the frame may then be evicted).
  // Corruption when the page fails its checks; IOError when the read fails.
  Status Read(uint32_t page_no, uint64_t view, const uint8_t** page) {
    if (const uint8_t* data = InMemory(page_no, view)) {
      *page = data;
      return Status::OK();
    }
    if (page_no < mapped_pages_.load(std::memory_order_acquire)) return CheckMapped(page_no, page);
    return ReadFromDisk(page_no, page);
  }

  // Starts loading page_no into the CPU's caches when it is in memory
  // (cached, or mapped and checked), so that its misses overlap. A hint: does
  // nothing otherwise. By default only the first and last lines (the header
  // and the restart array, which a search reads first). With `whole_page`,
  // every line: a search of a page that is not in the CPU's caches otherwise
  // waits three times (restart array, restart keys, then its block), and a
  // leaf, the page a lookup most likely finds there only in RAM, is worth one
  // wait of the whole page. About 64 prefetch instructions when the page is
  // already in the CPU's caches.
  void Prefetch(uint32_t page_no, bool whole_page = false) {
    if (page_no < kFirstDataPage) return;
    const uint8_t* data = InMemory(page_no);
    if (data != nullptr) PrefetchLines(data, whole_page);
  }
  // The first and last lines of a page (its header and restart array), then
  // with `whole_page` the lines between.
  void PrefetchLines(const uint8_t* data, bool whole_page) const {
    __builtin_prefetch(data);
    __builtin_prefetch(data + page_size_ - 64);
    if (whole_page) {
      for (uint32_t line = 64; line < page_size_ - 64; line += 64) __builtin_prefetch(data + line);
    }
  }
  // Prefetch of the child a search descends to. A leaf gets the whole page,
  // unless this thread's last leaf prefetch was of the same page (a hot key,
  // or a key next to the last one), which is then most likely still in the
  // CPU's caches: there the 64 prefetches were 13-16% of a lookup's time
  // (pbtree_read_bench's BM_OneKeyGet, 344 -> 300 ns and 386 -> 323 ns
  // without them), while random hot gets need them (BM_HotGet, 1,133 ->
  // 1,382 ns without). A hint: a stale match costs one lookup its prefetch,
  // nothing else.
  void PrefetchChild(uint32_t page_no, bool leaf) {
    if (!leaf) return Prefetch(page_no);
    static thread_local const Pager* last_pager = nullptr;
    static thread_local uint32_t last_page = 0;
    const bool again = last_pager == this && last_page == page_no;
    last_pager = this;
    last_page = page_no;
    Prefetch(page_no, /*whole_page=*/!again);
  }

  // Reads page_no from disk into `buf` (page_size bytes) bypassing the cache,
  // with the same checks as Read. For Check().
  Status ReadUncached(uint32_t page_no, uint8_t* buf);

  // Write transaction, on one thread at a time. NotSupported when read-only
  // (unless `replay`: the log's records are applied in memory also to a
  // read-only handle); the caller guarantees there is at most one. Before
  // it reads anything it issues a full fence (ReaderTable::OldestSnapshot),
  // which also serves a reader slot the caller announced just before
  // (ReaderTable::Announce). With `in_place`, raises the in-place flag when
  // no other reader is there; EndWrite lowers it.
  Status BeginWrite(bool replay = false, const InPlaceRequest* in_place = nullptr);
  // The transaction has ended (committed or rolled back).
  void EndWrite() {
    if (in_place_raised_) {
      readers_.LowerInPlace();
      in_place_raised_ = false;
    }
  }
  // page_no's committed bytes, to be changed in place, or nullptr when this
  // transaction may not (see "In place" above); an error only from
  // reserving the log's room (nothing changed then).
  Status WriteInPlace(uint32_t page_no, uint8_t** page);
  // Gives back WriteInPlace's page before any byte of it changed.
  void UndoInPlace(uint32_t page_no);
  // A second page changed in place by the same commit (the parent of a leaf
  // that WriteInPlace gave and that splits, TreeWriter::SplitInPlace), when
  // it passes WriteInPlace's tests and the commit, then holding `dirty`
  // pages, still goes through the log. *page nullptr otherwise, nothing
  // changed. UndoInPlaceAlso gives it back before any byte of it changed,
  // and before UndoInPlace.
  void WriteInPlaceAlso(uint32_t page_no, size_t dirty, uint8_t** page);
  void UndoInPlaceAlso(uint32_t page_no);
  bool IsDirty(uint32_t page_no) {
    Frame* f = page_no < 2 ? nullptr : cache_.Lookup(page_no);
    return f != nullptr && f->dirty;
  }
  // A new dirty page (bytes undefined).
  void NewPage(uint32_t* page_no, uint8_t** page);
  // The writable copy of page_no: itself when already dirty; a new version
  // of it under the same number when it is unflushed (committed through the
  // log since the last checkpoint, see page_cache.h); else a new page
  // holding its bytes (the old page is freed). *page_no_out may equal page_no.
  Status MakeWritable(uint32_t page_no, uint32_t* page_no_out, uint8_t** page);
  // Whether MakeWritable keeps page_no's number (dirty or unflushed): then
  // its parent needs no change.
  bool KeepsNumber(uint32_t page_no) {
    Frame* f = page_no < 2 ? nullptr : cache_.Lookup(page_no);
    return f != nullptr && (f->dirty || IsUnflushed(page_no));
  }
  // Bytes of a page that is dirty.
  uint8_t* DirtyData(uint32_t page_no) { return cache_.Find(page_no); }
  // Counts the calls that give a page of the tree a new number or none:
  // NewPage, a copy to a new page in MakeWritable, FreePage, Abort. While it
  // stays put, every page keeps its number and place in the tree (a new
  // version keeps both), so a path found before is still the path.
  uint64_t page_changes() const { return page_changes_; }
  void FreePage(uint32_t page_no);
  // Commits the transaction as root/depth/entries: through the log when
  // `log_record` is given and the log has room, else as a checkpoint; see
  // above. On failure the transaction is rolled back in memory and the
  // error is returned (and kept: later writes fail with it).
  Status Commit(uint32_t root, uint32_t depth, uint64_t entries, LogRecord* log_record);
  // Commits a transaction replayed from the log: like a logged commit, but
  // the record is in the log already.
  Status CommitReplayed(uint32_t root, uint32_t depth, uint64_t entries);
  void Abort();
  // With no write transaction open: writes a checkpoint when anything is
  // unflushed or logged, then empties the log file. OK at once when
  // read-only.
  Status Checkpoint();
  // Pages committed through the log and not yet in the file.
  bool HasUnflushed() const { return unflushed_live_ > 0 || map_stale_; }
  // The log; null when wal is off.
  WriteAheadLog* log() { return log_.get(); }

  // fdatasync (of the log too), whatever the sync mode.
  Status Sync();

 private:
  Pager(std::string path, const PagerOptions& options, int fd, const Meta& meta);
  // "In place": whether frame `f` of page_no may change where it is, in a
  // commit then holding `dirty` pages (WriteInPlace, WriteInPlaceAlso);
  // TakeInPlace marks it so, GiveBackInPlace undoes the last one taken.
  // (The commit must be a logged one: Commit's test, with `dirty` pages.)
  // Inline: WriteInPlace is on every one-key commit's path.
  bool CanChangeInPlace(const Frame* f, uint32_t page_no, size_t dirty) const {
    return f != nullptr && !f->dirty && IsUnflushed(page_no) &&
           f->older.load(std::memory_order_relaxed) == nullptr &&
           CommitsThroughLog(in_place_log_->size(), dirty);
  }
  uint8_t* TakeInPlace(Frame* f, uint32_t page_no);
  void GiveBackInPlace(uint32_t page_no);
  // Commit's choice: a transaction with `dirty` pages and a log record of
  // `record_bytes` commits through the log (else by checkpoint). WriteInPlace
  // relies on the same test.
  bool CommitsThroughLog(size_t record_bytes, size_t dirty) const {
    return log_ != nullptr && !options_.read_only &&
           log_->bytes() + record_bytes <= options_.wal_checkpoint_bytes &&
           unflushed_live_ + dirty <= checkpoint_pages_;
  }
  // Makes committed_ what readers see.
  void Publish();
  Status LoadFreeMap();
  Status ReadFromDisk(uint32_t page_no, const uint8_t** page);
  const uint8_t* Mapped(uint32_t page_no) const {
    return map_ + static_cast<size_t>(page_no) * page_size_;
  }
  // The page's bytes when they can be read without a check or a read: cached,
  // or mapped and already checked. nullptr otherwise.
  const uint8_t* InMemory(uint32_t page_no, uint64_t view = kNoSnapshot) {
    if (const uint8_t* data = cache_.Find(page_no, view)) return data;
    if (page_no < mapped_pages_.load(std::memory_order_acquire) && Checked(page_no)) {
      return Mapped(page_no);
    }
    return nullptr;
  }
  bool Checked(uint32_t page_no) const {
    return (checked_[page_no >> 6].load(std::memory_order_acquire) >> (page_no & 63)) & 1;
  }
  // First read of a mapped page since the open (or since the writer wrote it):
  // the checks ReadChecked makes, on the mapped bytes; then marks it checked.
  Status CheckMapped(uint32_t page_no, const uint8_t** page);
  // Maps a page of the read mapping and starts loading all its lines.
  void PrefetchMapped(const uint8_t* data) const;
  // The checks of a page's bytes (checksum, txn id, type and structure).
  Status CheckPage(uint32_t page_no, const uint8_t* buf);
  // Maps the file (mmap_reads) and makes pages below file_size_ readable
  // through the mapping.
  void MapFile();
  // After the writer grew the file: more pages readable through the mapping.
  void ExtendMapped();
  // Huge pages behind the mapping while file_size_ <= huge_limit_ (see above).
  void AdviseMapping();
  // pread, checksum, transaction id and (node pages) structure.
  Status ReadChecked(uint32_t page_no, uint32_t page_count, uint8_t* buf);
  Status PreadPage(uint32_t page_no, uint8_t* buf);
  // Seals (checksum, txn id) and writes the pages, in page order.
  Status WritePages(std::vector<std::pair<uint32_t, uint8_t*>>* pages, uint64_t txn_id);
  Status WriteMeta(const Meta& meta);
  Status SyncFile();  // fdatasync of the database file
  Status LogCommit(uint32_t root, uint32_t depth, uint64_t entries, LogRecord* log_record);
  Status CheckpointCommit(uint32_t root, uint32_t depth, uint64_t entries);
  // Writes sealed copies of the unflushed pages still in use, in page order,
  // and lists them in `written`.
  Status WriteUnflushed(uint64_t txn_id, std::vector<uint32_t>* written);
  // The dirty pages still dirty (not freed again), sorted, in dirty_pages_.
  void CompactDirty();
  bool IsUnflushed(uint32_t p) const {
    return (p >> 6) < unflushed_bits_.size() && (unflushed_bits_[p >> 6] >> (p & 63) & 1);
  }
  void SetUnflushed(uint32_t p, bool on);
  // Takes the in-memory-only pages out of the transaction's freed list
  // (they are listed in `in_memory`); the rest stay. With `hold`, the rest
  // move to held_ (commit through the log) and are listed in `on_disk`.
  void SplitFreed(bool hold, std::vector<uint32_t>* in_memory, std::vector<uint32_t>* on_disk);
  // Drops the frames of freed unflushed pages and replaced versions that no
  // reader can reach. Inline: most commits find neither waiting.
  void DropFreedUnflushed(uint64_t oldest_snapshot, bool no_readers) {
    if (freed_unflushed_.empty() && !RetiresVersions(no_readers)) return;
    DropUnreachable(oldest_snapshot, no_readers);
  }
  // Whether replaced versions leave now: a full group, or any with no reader
  // at all. A page with an older version behind it cannot be changed in
  // place (WriteInPlace), so each commit that changes it would copy it again
  // until its version leaves: with no reader to wait for, it leaves at once.
  bool RetiresVersions(bool no_readers) const {
    return replaced_.size() >= kRetireGroup || (no_readers && !replaced_.empty());
  }
  void DropUnreachable(uint64_t oldest_snapshot, bool no_readers);
  // Queues the versions that the committing transaction `txn_id` replaced
  // (its dirty pages that are new versions) until no reader older remains.
  void QueueReplaced(uint64_t txn_id);
  // Queues freed unflushed pages (scratch_in_memory_) until no reader older
  // than txn_id remains.
  void QueueFreedUnflushed(uint64_t txn_id);
  // Copies a node page's bytes in use (header, entries, restart array) or
  // any other page whole.
  void CopyPage(uint8_t* to, const uint8_t* from) const;

  const uint64_t id_;
  std::string path_;
  PagerOptions options_;
  int fd_ = -1;
  uint32_t page_size_ = 0;
  Meta committed_;          // writer's
  uint64_t file_size_ = 0;  // bytes known to be in the file
  bool recovered_ = false;
  FreeMap free_map_;
  ReaderTable readers_;
  PageCache cache_;

  // The published commit: a sequence lock over the Snapshot fields (odd
  // while the writer changes them), and what a page read from disk is
  // checked against.
  std::atomic<uint64_t> snapshot_seq_{0};
  std::atomic<uint64_t> snapshot_txn_{0};
  std::atomic<uint32_t> snapshot_root_{0};
  std::atomic<uint32_t> snapshot_depth_{0};
  std::atomic<uint64_t> snapshot_entries_{0};
  std::atomic<uint32_t> snapshot_pages_{0};
  std::atomic<uint64_t> cache_misses_{0};

  // The read-only mapping (mmap_reads): map_bytes_ of address space from the
  // file's start; pages below mapped_pages_ are inside the file and may be
  // read through it; a set bit in checked_ says the page passed CheckPage
  // since the open or since the writer last wrote it.
  const uint8_t* map_ = nullptr;
  size_t map_bytes_ = 0;
  std::atomic<uint32_t> mapped_pages_{0};
  std::unique_ptr<std::atomic<uint64_t>[]> checked_;
  uint64_t huge_limit_ = 0;               // a quarter of memory; 0: never huge
  std::atomic<bool> huge_mapped_{false};  // the kernel accepted MADV_HUGEPAGE

  std::vector<uint32_t> dirty_pages_;
  std::vector<uint32_t> freed_by_commit_;
  // Commits through the log (see above). unflushed_ lists the pages made
  // unflushed since the last checkpoint (some freed again since: the bits
  // say which are still unflushed and in use).
  std::unique_ptr<WriteAheadLog> log_;
  std::vector<uint32_t> unflushed_;
  std::vector<uint64_t> unflushed_bits_;
  uint64_t unflushed_live_ = 0;
  uint64_t checkpoint_pages_ = 0;  // wal_checkpoint_pages in effect
  std::vector<uint32_t> held_;     // freed pages of the last checkpoint
  // Unflushed pages freed again, one entry per page in txn_id order, so
  // that a commit allocates nothing.
  struct FreedUnflushed {
    uint64_t txn_id;
    uint32_t page;
  };
  std::deque<FreedUnflushed> freed_unflushed_;
  // Versions of unflushed pages that later commits replaced (page_cache.h),
  // in txn_id order (the commit that replaced them).
  struct ReplacedVersion {
    uint64_t txn_id;
    PageCache::Replaced version;
  };
  std::deque<ReplacedVersion> replaced_;
  static constexpr size_t kRetireGroup = 8;  // DropFreedUnflushed
  std::vector<PageCache::Replaced> scratch_replaced_;
  // Scratch lists reused by every commit (no allocation per commit).
  std::vector<uint32_t> scratch_in_memory_;
  std::vector<uint32_t> scratch_drop_;
  bool map_stale_ = false;           // the free map changed since the last checkpoint
  std::vector<uint8_t> map_buffer_;  // free-map pages being written
  std::vector<std::pair<uint32_t, uint8_t*>> write_list_;
  Status sticky_error_;
  // In place (see above): the flag is raised for this transaction; the last
  // scan found no other reader (the flag is raised only then, so that
  // readers that stay are not made to load a line the writer keeps writing);
  // the page taken and its version before.
  bool in_place_raised_ = false;
  bool alone_last_ = true;
  const LogRecord* in_place_log_ = nullptr;
  // Pages changed in place (the first of dirty_pages_): 0, 1, or 2 with
  // WriteInPlaceAlso's; their versions before.
  size_t in_place_pages_ = 0;
  uint64_t in_place_versions_[2] = {0, 0};
  Frame* in_place_frames_[2] = {nullptr, nullptr};
  // page_changes_ when the transaction began: unchanged at its commit, no
  // page was allocated, copied to a new number or freed (LogCommit).
  uint64_t begin_changes_ = 0;
  PagerCounters counters_;
  uint64_t page_changes_ = 0;
  // Read-around on a cache miss (see AdviseChunkOnce): one flag per chunk.
  static constexpr uint64_t kReadaheadChunkBytes = 128 * 1024;
  void AdviseChunkOnce(uint32_t page_no);
  std::mutex advised_mu_;
  std::vector<uint8_t> advised_chunks_;
};

}  // namespace pbtree
