// PageCache: the in-memory copies of pages, found by page number.
//
// Lookups take no lock and write nothing shared in the common case, so that
// readers on several cores scale: a lookup is two array indexes (a chunk of
// the page table, then the page's entry), and the CLOCK bit is written only
// when it is not already set. Everything else (inserting a page read from
// disk, the write transaction's dirty pages, eviction) happens under one
// mutex; a reader's miss holds it only around taking and publishing a frame,
// not during the read itself. The one exception is the writer's pinning of
// its committed frames (MarkPinned), which changes only flags no other
// thread reads.
//
// Clean frames are evicted in CLOCK order once the cache holds more than its
// capacity. An evicted frame's memory may still be read by other threads that
// found it just before, so it is retired with a ReaderTable stamp and reused
// only once no other thread can hold it (reader_table.h); until then the
// cache may hold more frames than its capacity. Dirty frames (pages a write
// transaction is building) are never evicted and are not on the CLOCK ring,
// so a transaction larger than the cache grows the cache until it commits or
// aborts without slowing eviction.
//
// Each frame is 64 bytes of bookkeeping (Frame) followed by the page, carved
// from 2 MiB slabs that ask for huge pages (MADV_HUGEPAGE): the write path
// takes a new frame for every page it copies or adds, and with one heap
// allocation per frame, the pages a run of small commits pins in memory
// (wal.h) each cost a malloc and a page fault or two. A frame the cache no
// longer needs goes back to the slabs' free list; slabs are unmapped with the
// cache.
//
// Versions. A page that a commit through the log created (wal.h, "unflushed":
// pinned, its number free in the file) is not copied to a new page number
// when a later transaction changes it: the writer takes a new frame for the
// same page number, a new *version* tagged with its transaction id, linked to
// the version it replaces (AddVersion). The page table holds the newest
// version; a reader of snapshot s walks from it to the newest version not
// newer than s (Find's `view`), so readers of older snapshots keep what they
// saw and never wait. A replaced version is given back (RetireVersions) once
// no reader older than its successor remains. A frame with older versions
// behind it is never evicted, so they stay reachable while needed.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "engines/pbtree/reader_table.h"

namespace pbtree {

// Bookkeeping fields are guarded by the cache's mutex, except `dirty`, which
// only the writer reads and changes.
struct Frame {
  uint32_t page_no = 0;
  bool in_use = false;    // in the page table
  bool dirty = false;     // written by the open write transaction, not yet on disk
  bool retired = false;   // evicted, waiting until no other thread can hold it
  bool reserved = false;  // handed out by Reserve, not yet published
  Frame* prev = nullptr;  // CLOCK ring of clean frames in use (null: off the ring)
  Frame* next = nullptr;
  uint64_t stamp = 0;  // when retired: the ReaderTable stamp
  // The transaction that made this version of the page (0: the page's first
  // version in memory, which every snapshot that can reach the page sees),
  // and the version before it, for snapshots older than `version`. Set
  // before the frame is published; `older` is cleared once no reader needs it.
  uint64_t version = 0;
  std::atomic<Frame*> older{nullptr};
  uint8_t* data() { return reinterpret_cast<uint8_t*>(this) + kHeaderBytes; }
  static Frame* Of(uint8_t* data) { return reinterpret_cast<Frame*>(data - kHeaderBytes); }
  static constexpr size_t kHeaderBytes = 64;
};

class PageCache {
 public:
  // `max_pages`: page numbers are below it. `readers` outlives the cache.
  PageCache(uint32_t page_size, size_t capacity_pages, uint64_t max_pages, ReaderTable* readers);
  ~PageCache();
  PageCache(const PageCache&) = delete;
  PageCache& operator=(const PageCache&) = delete;

  // The bytes of page_no as the snapshot `view` sees them (kNoSnapshot: the
  // newest version, the writer's), or nullptr when not cached. Marks it
  // recently used. Any thread, no lock; the bytes stay valid while the
  // caller's ReaderTable slot is announced (or, for a dirty page, until the
  // writer drops it).
  uint8_t* Find(uint32_t page_no, uint64_t view = kNoSnapshot) {
    const size_t c = page_no >> kChunkBits;
    if (c >= chunk_count_) return nullptr;
    Chunk* chunk = chunks_[c].load(std::memory_order_acquire);
    if (chunk == nullptr) return nullptr;
    const uint32_t i = page_no & kChunkMask;
    uint8_t* data = chunk->data[i].load(std::memory_order_acquire);
    if (data == nullptr) return nullptr;
    if (chunk->referenced[i].load(std::memory_order_relaxed) == 0) {
      chunk->referenced[i].store(1, std::memory_order_relaxed);
    }
    Frame* f = Frame::Of(data);
    while (f->version > view) {
      // A version newer than the snapshot: the one before it. The chain
      // always reaches a version the snapshot can see (the page's first).
      f = f->older.load(std::memory_order_acquire);
      if (f == nullptr) return nullptr;
    }
    return f->data();
  }
  Frame* Lookup(uint32_t page_no) {
    uint8_t* data = Find(page_no);
    return data == nullptr ? nullptr : Frame::Of(data);
  }

  // A frame that only the caller can see (bytes undefined). May evict a clean
  // frame. Any thread.
  Frame* Reserve();
  // Gives a reserved frame back unused.
  void Unreserve(Frame* frame);
  // Publishes a reserved frame, holding page_no's bytes, as the clean copy of
  // page_no, unless another thread cached page_no meanwhile: then the frame
  // goes back and the cached copy is returned. Any thread.
  uint8_t* PublishClean(Frame* frame, uint32_t page_no);
  // Writer: publishes a reserved frame as dirty page page_no, dropping a stale
  // clean copy of the page (page_no is one no reader can reach: newly
  // allocated).
  void PublishDirty(Frame* frame, uint32_t page_no);
  // Writer: PublishDirty of a frame taken under the same lock. The caller
  // writes the bytes after: no other thread reads a dirty page's bytes.
  Frame* AddDirty(uint32_t page_no);
  // Writer: takes a frame (under one lock with the publication) and
  // publishes it as a new dirty version of page_no, made by transaction
  // `version` (newer than every snapshot), in front of the cached version it
  // replaces, which stays readable for older snapshots. The caller writes the
  // bytes after: readers find the frame but read only versions not newer
  // than their snapshot, and the commit that makes `version` visible comes
  // after the writes (Pager::Publish).
  Frame* AddVersion(uint32_t page_no, uint64_t version);
  // Writer: drops the dirty version of page_no made by the open transaction
  // (abort, or the page freed again): the version before it is the newest
  // again.
  void DropVersion(uint32_t page_no);
  // Writer: gives back replaced versions that no reader can need any more
  // (each listed with its page), unlinking them from their successors.
  struct Replaced {
    uint32_t page;
    Frame* frame;
  };
  void RetireVersions(const std::vector<Replaced>& versions);
  // Writer: the transaction's dirty frames are on disk; they join the clean
  // frames (missing pages were dropped within the transaction).
  void MarkClean(const std::vector<uint32_t>& pages);
  // Writer: the dirty frames of `pages` become pinned: readable by every
  // thread like clean frames, never evicted (their pages are not yet in the
  // file: commits through the log, wal.h), never changed in place. No lock:
  // a published frame's `dirty` is the writer's alone (other threads' cache
  // work touches only frames on the CLOCK ring, which dirty and pinned
  // frames are not).
  void MarkPinned(const std::vector<uint32_t>& pages);
  // Writer: pinned frames of `pages` become clean (their pages reached the
  // file) and join the CLOCK ring.
  void Unpin(const std::vector<uint32_t>& pages);
  // Writer: drops page_no's frame if cached. Only for pages no other thread
  // can reach (dirty pages, pages about to be reused): the memory is reused at
  // once.
  void Erase(uint32_t page_no);
  // Writer: drops the clean frames of `pages`, which readers of older
  // snapshots may still be reading (pages a commit stopped using).
  void Evict(const std::vector<uint32_t>& pages);
  // Evicts clean frames until at most capacity frames remain and gives the
  // frames of the rest that no thread can hold back to the slabs (after a
  // large transaction), where later frames reuse them.
  void Shrink();
  // Takes `old`'s memory for the frames to come: its slabs, which its frames
  // have faulted in already, rather than new ones, whose first touch costs
  // this VM 0.3-3 ms per 2 MiB (a Reorganize's new pager takes the old
  // pager's). No thread may use `old` any more; it keeps no frame.
  void AdoptMemory(PageCache* old);

  size_t frames_in_use() const;
  size_t capacity_pages() const { return capacity_; }

 private:
  static constexpr uint32_t kChunkBits = 14;
  static constexpr uint32_t kChunkMask = (1u << kChunkBits) - 1;
  struct Chunk {
    std::atomic<uint8_t*> data[1u << kChunkBits];
    std::atomic<uint8_t> referenced[1u << kChunkBits];  // CLOCK bits
  };

  // All under mu_.
  Frame* TakeFrame();
  Frame* Reclaim();
  Frame* Allocate();
  void AddSlab();
  bool EvictOne();
  void Retire(Frame* frame);   // off the table and the ring, stamped
  void Unpublish(Frame* frame);  // off the table and the ring (Retire without the stamp)
  void Detach(Frame* frame);     // no longer in use, waiting for a stamp (its slot is someone else's)
  void Release(Frame* frame);  // off the table and the ring, spare at once
  void PublishDirtyLocked(Frame* frame, uint32_t page_no);  // PublishDirty's work
  void SetSlot(uint32_t page_no, uint8_t* data);
  void Link(Frame* frame);    // onto the ring, just behind the hand
  void Unlink(Frame* frame);  // off the ring

  uint32_t page_size_;
  size_t capacity_;
  ReaderTable* readers_;
  size_t chunk_count_;
  // Zero-filled by the kernel page by page as chunks appear (mmap), so that
  // covering every page number costs memory only where pages are cached.
  std::atomic<Chunk*>* chunks_;
  std::vector<std::unique_ptr<Chunk>> owned_chunks_;  // under mu_

  // frames_.size(), which Shrink reads without mu_.
  std::atomic<size_t> frame_count_{0};
  mutable std::mutex mu_;
  std::vector<Frame*> frames_;  // every allocated frame
  std::vector<Frame*> spare_;   // allocated, free to use
  size_t frame_bytes_ = 0;      // a frame's stride in a slab
  std::vector<std::pair<void*, size_t>> slabs_;  // mappings the frames live in
  std::vector<Frame*> unused_;  // slab memory not allocated as a frame
  std::deque<Frame*> retired_;  // in stamp order
  Frame ring_;                  // sentinel of the CLOCK ring
  Frame* hand_ = &ring_;
  size_t ring_size_ = 0;
  size_t in_use_ = 0;
};

}  // namespace pbtree
