// PageCache: the in-memory copies of pages, found by page number.
//
// A lookup is one index into a vector of page pointers (no hashing, no
// intermediate object), because every level of every search asks for one and
// the cost of a search is mostly waiting for memory. The CLOCK bit set on a
// hit lives in a byte vector by page number (small, so it stays in the CPU
// cache) rather than next to the page, whose line a search may not need yet.
// Each frame is one allocation: 64 bytes of bookkeeping (Frame) followed by
// the page.
//
// Clean frames are evicted in CLOCK order once the cache holds more than its
// capacity. Dirty frames (pages a write transaction is building) are never
// evicted and are not on the CLOCK ring, so a transaction larger than the
// cache grows the cache until it commits or aborts without slowing eviction.
//
// Not thread-safe: the database serialises every call (see pbtree.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace pbtree {

struct Frame {
  uint32_t page_no = 0;
  bool in_use = false;
  bool dirty = false;  // written by the open write transaction, not yet on disk
  Frame* prev = nullptr;  // CLOCK ring of clean frames in use
  Frame* next = nullptr;
  uint8_t* data() { return reinterpret_cast<uint8_t*>(this) + kHeaderBytes; }
  static Frame* Of(uint8_t* data) { return reinterpret_cast<Frame*>(data - kHeaderBytes); }
  static constexpr size_t kHeaderBytes = 64;
};

class PageCache {
 public:
  PageCache(uint32_t page_size, size_t capacity_pages);
  ~PageCache();
  PageCache(const PageCache&) = delete;
  PageCache& operator=(const PageCache&) = delete;

  // The bytes of page_no, or nullptr when not cached. Marks it recently used.
  uint8_t* Find(uint32_t page_no) {
    if (page_no >= slots_.size()) return nullptr;
    uint8_t* data = slots_[page_no];
    referenced_[page_no] = 1;
    return data;
  }
  Frame* Lookup(uint32_t page_no) {
    uint8_t* data = Find(page_no);
    return data == nullptr ? nullptr : Frame::Of(data);
  }

  // A clean frame for page_no, which must not be cached; its bytes are
  // undefined. May evict a clean frame.
  Frame* Insert(uint32_t page_no);
  // Re-labels a cached frame as page `to` (copy-on-write without copying);
  // `to` must not be cached.
  void Move(Frame* frame, uint32_t to);
  void MarkDirty(Frame* frame);
  void MarkClean(Frame* frame);
  // Drops page_no's frame if cached.
  void Erase(uint32_t page_no);
  // Evicts clean frames until at most capacity frames remain and frees the
  // memory of the rest (after a large transaction).
  void Shrink();

  size_t frames_in_use() const { return in_use_; }
  size_t capacity_pages() const { return capacity_; }

 private:
  Frame* NewFrame();
  void Release(Frame* frame);
  void SetSlot(uint32_t page_no, uint8_t* data);
  void Link(Frame* frame);    // onto the ring, just behind the hand
  void Unlink(Frame* frame);  // off the ring

  uint32_t page_size_;
  size_t capacity_;
  std::vector<uint8_t*> slots_;      // by page number: the frame's page bytes
  std::vector<uint8_t> referenced_;  // by page number: CLOCK bits
  std::vector<Frame*> frames_;       // every allocated frame (owned)
  std::vector<Frame*> spare_;        // allocated, not in use
  Frame ring_;                       // sentinel of the CLOCK ring
  Frame* hand_ = &ring_;
  size_t ring_size_ = 0;
  size_t in_use_ = 0;
};

}  // namespace pbtree
