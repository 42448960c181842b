// ReaderTable: the readers of one database, as the writer and the page cache
// need to know them, without a lock on the readers' side.
//
// Every reading object (a Get in progress, a ReadTxn, a Cursor, the write
// transaction) holds a slot. A slot says two things:
//
// - snapshot: the commit the reader looks at. Pages that a pinned snapshot can
//   reach are not reused by the writer (FreeMap::ReleasePending takes the
//   oldest pinned snapshot). Pinning a snapshot races with commits: the reader
//   stores the pin, issues a full fence and checks that the snapshot is still
//   the latest commit (Pager::PinLatest), and the writer issues a full fence
//   before it reads the pins (OldestSnapshot), so either the writer sees the
//   pin or the reader sees the newer commit and pins that instead (LMDB's
//   reader-table protocol).
//
// - epoch: whether the slot's thread may be holding pointers into cached
//   pages right now, and since when. Epochs are what lets the cache reuse the
//   memory of an evicted page safely while other threads read: the evictor
//   removes the page from the cache's table, then stamps the frame with a new
//   epoch (Retire); the frame's memory is reused only once every other
//   thread's announced epoch is at least that stamp (SafeStamp), i.e. once
//   every thread that could have found the frame has left or re-announced. A
//   thread's own slots are ignored: pbtree's code never keeps a page pointer
//   across its own next page read (pager.h), so a thread may reuse what it
//   evicted itself at once, as a single-threaded cache would.
//
// - the in-place flag: while no other slot is announced or pinned, a one-key
//   commit may change its leaf where it is instead of copying it (Pager's
//   "In place"). The writer raises the flag, issues a full fence and scans
//   the slots (ScanForWriter); a reader announces itself, issues a full fence
//   and reads the flag (Enter). So either the writer sees the reader and
//   copies as usual, or the reader sees the flag and waits, before it reads
//   a page, until the writer has published the commit and lowered the flag
//   (about a microsecond; Dekker's handshake). The writer's own thread never
//   waits for itself.
//
// Slots live in blocks of 64 that are freed only with the table, so a slot
// pointer stays valid and the table grows without a lock. Each slot has a
// cache line of its own: a reader writes only its own line.
#pragma once

#include <atomic>
#include <cstdint>

namespace pbtree {

// A snapshot id that means "no snapshot pinned".
inline constexpr uint64_t kNoSnapshot = UINT64_MAX;

// The calling thread, as the table records it: the address of a
// thread-local byte (inline: every cursor call compares it).
inline const void* ThisThread() {
  static thread_local char token;
  return &token;
}

struct alignas(64) ReaderSlot {
  std::atomic<uint32_t> owned{0};
  std::atomic<const void*> thread{nullptr};  // the thread that announced `epoch`
  std::atomic<uint64_t> snapshot{kNoSnapshot};
  std::atomic<uint64_t> epoch{0};  // 0: holds no page pointers
};

class ReaderTable {
 public:
  ReaderTable();
  ~ReaderTable();
  ReaderTable(const ReaderTable&) = delete;
  ReaderTable& operator=(const ReaderTable&) = delete;

  // A free slot for the caller (never fails: the table grows). Thread-safe.
  ReaderSlot* Acquire();
  // Clears the slot's snapshot and epoch and frees it. Thread-safe.
  void Release(ReaderSlot* slot);

  // Announces that the calling thread may now read cached pages through
  // `slot` (a store and a full fence).
  void Enter(ReaderSlot* slot) {
    Announce(slot);
    std::atomic_thread_fence(std::memory_order_seq_cst);
    if (in_place_writer_.load(std::memory_order_relaxed) != nullptr) WaitForInPlaceWriter();
  }
  // Enter without its fence, for a caller that issues a full fence itself
  // before it reads a page (the writer: Pager::BeginWrite's, one fence where
  // there were two on every commit).
  void Announce(ReaderSlot* slot) {
    slot->thread.store(ThisThread(), std::memory_order_relaxed);
    // Release: what the slot read before (under an older epoch) happens
    // before an evictor that sees the new epoch reuses those frames.
    slot->epoch.store(epoch_.load(std::memory_order_acquire), std::memory_order_release);
  }
  // For slots that stay announced between calls (cursors, the write
  // transaction): announces again only when frames were retired since, or
  // another thread uses the slot now. Two loads in the common case.
  void Refresh(ReaderSlot* slot) {
    if (slot->epoch.load(std::memory_order_relaxed) != epoch_.load(std::memory_order_acquire) ||
        slot->thread.load(std::memory_order_relaxed) != ThisThread()) {
      Enter(slot);
    }
  }
  void Leave(ReaderSlot* slot) { slot->epoch.store(0, std::memory_order_release); }

  // Stamps frames that the caller has just made unreachable: they may be
  // reused once SafeStamp() >= the returned stamp.
  uint64_t Retire() { return epoch_.fetch_add(1, std::memory_order_acq_rel) + 1; }
  // The largest stamp whose frames no other thread can still hold (UINT64_MAX
  // when no other thread is reading).
  uint64_t SafeStamp() const;

  // The oldest pinned snapshot (kNoSnapshot when none). Issues the full fence
  // that pairs with the readers' (see above).
  uint64_t OldestSnapshot() const;
  // The writer's OldestSnapshot. With `raise`, raises the in-place flag for
  // the calling thread before the fence, and keeps it raised only when no
  // slot but `own` is announced and none is pinned (*alone, whether raised
  // or not).
  uint64_t ScanForWriter(const ReaderSlot* own, bool raise, bool* alone);
  // Lowers the in-place flag (release: the commit's changes happen before a
  // waiting reader goes on).
  void LowerInPlace() { in_place_writer_.store(nullptr, std::memory_order_release); }
  // Slots with a pinned snapshot.
  size_t PinnedCount() const;

 private:
  static constexpr uint32_t kSlotsPerBlock = 64;
  struct Block {
    ReaderSlot slots[kSlotsPerBlock];
    std::atomic<Block*> next{nullptr};
  };
  template <typename F>
  void ForEachUsed(F&& f) const;
  // Slot `index`, appending blocks up to it when `grow` (else nullptr past the end).
  ReaderSlot* Slot(uint32_t index, bool grow);

  // Spins, then yields, until the in-place flag is lowered (or is the
  // calling thread's own).
  void WaitForInPlaceWriter() const;

  Block first_;
  // Slots [0, used_) may be owned; scans stop there.
  std::atomic<uint32_t> used_{0};
  std::atomic<uint64_t> epoch_{1};
  // The thread whose commit changes pages in place; null when none. On a line
  // of its own: readers load it in every Enter.
  alignas(64) std::atomic<const void*> in_place_writer_{nullptr};
};

// A slot held for the length of one read call (DB::Get, ReadTxn::Get).
class ReadScope {
 public:
  ReadScope(ReaderTable* table, ReaderSlot* slot) : table_(table), slot_(slot) {
    table_->Enter(slot_);
  }
  ~ReadScope() { table_->Leave(slot_); }
  ReadScope(const ReadScope&) = delete;
  ReadScope& operator=(const ReadScope&) = delete;

 private:
  ReaderTable* table_;
  ReaderSlot* slot_;
};

}  // namespace pbtree
