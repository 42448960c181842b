#include "engines/pbtree/page_cache.h"

#include <sys/mman.h>

#include <algorithm>
#include <cassert>
#include <cstdlib>
#include <new>

#include "engines/pbtree/hot.h"

namespace pbtree {

PageCache::PageCache(uint32_t page_size, size_t capacity_pages, uint64_t max_pages,
                     ReaderTable* readers)
    : page_size_(page_size),
      capacity_(std::max<size_t>(capacity_pages, 16)),
      readers_(readers),
      chunk_count_(static_cast<size_t>((max_pages + kChunkMask) >> kChunkBits)) {
  // Zero bytes are a null atomic pointer on every platform pbtree builds on.
  static_assert(sizeof(std::atomic<Chunk*>) == sizeof(Chunk*) &&
                std::atomic<Chunk*>::is_always_lock_free);
  void* table = ::mmap(nullptr, chunk_count_ * sizeof(Chunk*), PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (table == MAP_FAILED) throw std::bad_alloc();
  chunks_ = static_cast<std::atomic<Chunk*>*>(table);
  ring_.prev = ring_.next = &ring_;
  // 128-byte alignment keeps the Frame and the page header in one pair of
  // cache lines (adjacent-line prefetch).
  frame_bytes_ = (Frame::kHeaderBytes + page_size_ + 127) & ~size_t{127};
}

PageCache::~PageCache() {
  for (const auto& [base, bytes] : slabs_) ::munmap(base, bytes);
  ::munmap(chunks_, chunk_count_ * sizeof(Chunk*));
}

void PageCache::Link(Frame* f) {
  // Just behind the hand: the last frame the sweep reaches.
  f->next = hand_;
  f->prev = hand_->prev;
  hand_->prev->next = f;
  hand_->prev = f;
  ++ring_size_;
}

void PageCache::Unlink(Frame* f) {
  if (hand_ == f) hand_ = f->next;
  f->prev->next = f->next;
  f->next->prev = f->prev;
  f->prev = f->next = nullptr;
  --ring_size_;
}

void PageCache::SetSlot(uint32_t page_no, uint8_t* data) {
  const size_t c = page_no >> kChunkBits;
  assert(c < chunk_count_);
  Chunk* chunk = chunks_[c].load(std::memory_order_relaxed);
  if (chunk == nullptr) {
    owned_chunks_.push_back(std::make_unique<Chunk>());
    chunk = owned_chunks_.back().get();
    chunks_[c].store(chunk, std::memory_order_release);
  }
  const uint32_t i = page_no & kChunkMask;
  if (data != nullptr) chunk->referenced[i].store(1, std::memory_order_relaxed);
  chunk->data[i].store(data, std::memory_order_release);
}

void PageCache::AddSlab() {
  constexpr size_t kSlabBytes = size_t{2} << 20;
  // Aligned to 2 MiB, so that the kernel can back it with one huge page:
  // twice the size is reserved and the ends are given back.
  const size_t reserve = 2 * kSlabBytes;
  void* m = ::mmap(nullptr, reserve, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED) throw std::bad_alloc();
  const uintptr_t start = reinterpret_cast<uintptr_t>(m);
  const uintptr_t aligned = (start + kSlabBytes - 1) & ~(uintptr_t{kSlabBytes} - 1);
  if (aligned > start) ::munmap(m, aligned - start);
  const uintptr_t end = start + reserve;
  if (end > aligned + kSlabBytes) {
    ::munmap(reinterpret_cast<void*>(aligned + kSlabBytes), end - aligned - kSlabBytes);
  }
  void* slab = reinterpret_cast<void*>(aligned);
  // A hint (fails without transparent huge pages): one fault then maps the
  // whole slab instead of one per 4 KiB.
  ::madvise(slab, kSlabBytes, MADV_HUGEPAGE);
  slabs_.emplace_back(slab, kSlabBytes);
  // Handed out from the slab's start (unused_ is a stack).
  for (size_t n = kSlabBytes / frame_bytes_; n > 0; --n) {
    unused_.push_back(reinterpret_cast<Frame*>(static_cast<uint8_t*>(slab) + (n - 1) * frame_bytes_));
  }
}

void PageCache::AdoptMemory(PageCache* old) {
  if (old->frame_bytes_ != frame_bytes_) return;
  std::lock_guard lock(mu_);
  for (const auto& [base, bytes] : old->slabs_) {
    slabs_.emplace_back(base, bytes);
    // On top of the stack: used before this cache's own untouched memory.
    for (size_t n = bytes / frame_bytes_; n > 0; --n) {
      unused_.push_back(
          reinterpret_cast<Frame*>(static_cast<uint8_t*>(base) + (n - 1) * frame_bytes_));
    }
  }
  old->slabs_.clear();
  old->frames_.clear();
  old->unused_.clear();
  old->spare_.clear();
  old->retired_.clear();
}

Frame* PageCache::Allocate() {
  if (unused_.empty()) AddSlab();
  Frame* f = new (unused_.back()) Frame();
  unused_.pop_back();
  frames_.push_back(f);
  frame_count_.store(frames_.size(), std::memory_order_relaxed);
  return f;
}

void PageCache::Release(Frame* f) {
  SetSlot(f->page_no, nullptr);
  if (f->prev != nullptr) Unlink(f);  // dirty and pinned frames are off the ring
  f->in_use = false;
  f->dirty = false;
  --in_use_;
  spare_.push_back(f);
}

void PageCache::Unpublish(Frame* f) {
  SetSlot(f->page_no, nullptr);
  if (f->prev != nullptr) Unlink(f);
  Detach(f);
}

void PageCache::Detach(Frame* f) {
  f->in_use = false;
  f->retired = true;
  --in_use_;
}

void PageCache::Retire(Frame* f) {
  Unpublish(f);
  // Stamped after it left the table: a thread that reads the new epoch
  // cannot find the frame any more.
  f->stamp = readers_->Retire();
  retired_.push_back(f);
}

Frame* PageCache::Reclaim() {
  if (retired_.empty()) return nullptr;
  const uint64_t safe = readers_->SafeStamp();
  while (!retired_.empty() && retired_.front()->stamp <= safe) {
    retired_.front()->retired = false;
    spare_.push_back(retired_.front());
    retired_.pop_front();
  }
  if (spare_.empty()) return nullptr;
  Frame* f = spare_.back();
  spare_.pop_back();
  return f;
}

bool PageCache::EvictOne() {
  // CLOCK over clean frames only: two turns clear every reference bit, so the
  // loop always ends with an eviction.
  for (size_t step = 0; ring_size_ > 0 && step <= 2 * ring_size_; ++step) {
    if (hand_ == &ring_) hand_ = ring_.next;
    Frame* f = hand_;
    hand_ = f->next;
    Chunk* chunk = chunks_[f->page_no >> kChunkBits].load(std::memory_order_relaxed);
    std::atomic<uint8_t>& referenced = chunk->referenced[f->page_no & kChunkMask];
    if (referenced.load(std::memory_order_relaxed) != 0) {
      referenced.store(0, std::memory_order_relaxed);
      continue;
    }
    // Older versions behind it are reachable only through it.
    if (f->older.load(std::memory_order_relaxed) != nullptr) continue;
    Retire(f);
    return true;
  }
  return false;
}

Frame* PageCache::TakeFrame() {
  if (!spare_.empty()) {
    Frame* f = spare_.back();
    spare_.pop_back();
    return f;
  }
  if (Frame* f = Reclaim()) return f;
  if (frames_.size() < capacity_ + retired_.size()) return Allocate();
  if (EvictOne()) {
    if (Frame* f = Reclaim()) return f;
  }
  // Every evicted frame may still be read by another thread (or every frame
  // is dirty): grow beyond the capacity for now.
  return Allocate();
}

Frame* PageCache::Reserve() {
  std::lock_guard lock(mu_);
  Frame* f = TakeFrame();
  f->reserved = true;
  f->version = 0;
  f->older.store(nullptr, std::memory_order_relaxed);
  return f;
}

void PageCache::Unreserve(Frame* frame) {
  std::lock_guard lock(mu_);
  frame->reserved = false;
  spare_.push_back(frame);
}

uint8_t* PageCache::PublishClean(Frame* f, uint32_t page_no) {
  std::lock_guard lock(mu_);
  f->reserved = false;
  if (uint8_t* cached = Find(page_no)) {
    spare_.push_back(f);
    return cached;
  }
  f->page_no = page_no;
  f->in_use = true;
  f->dirty = false;
  Link(f);
  ++in_use_;
  SetSlot(page_no, f->data());
  return f->data();
}

void PageCache::PublishDirty(Frame* f, uint32_t page_no) {
  std::lock_guard lock(mu_);
  f->reserved = false;
  PublishDirtyLocked(f, page_no);
}

Frame* PageCache::AddDirty(uint32_t page_no) {
  std::lock_guard lock(mu_);
  Frame* f = TakeFrame();
  f->version = 0;
  f->older.store(nullptr, std::memory_order_relaxed);
  PublishDirtyLocked(f, page_no);
  return f;
}

void PageCache::PublishDirtyLocked(Frame* f, uint32_t page_no) {
  if (uint8_t* stale = Find(page_no)) Release(Frame::Of(stale));
  f->page_no = page_no;
  f->in_use = true;
  f->dirty = true;
  ++in_use_;
  SetSlot(page_no, f->data());
}

Frame* PageCache::AddVersion(uint32_t page_no, uint64_t version) {
  std::lock_guard lock(mu_);
  Frame* f = TakeFrame();
  Frame* previous = Frame::Of(Find(page_no));
  f->page_no = page_no;
  f->in_use = true;  // the replaced version stays in use (and counted) until retired
  f->dirty = true;
  f->version = version;
  f->older.store(previous, std::memory_order_relaxed);
  ++in_use_;
  SetSlot(page_no, f->data());  // release: readers see version and older with it
  return f;
}

void PageCache::DropVersion(uint32_t page_no) {
  std::lock_guard lock(mu_);
  Frame* f = Frame::Of(Find(page_no));
  Frame* previous = f->older.load(std::memory_order_relaxed);
  SetSlot(page_no, previous->data());
  // Readers may have found the dropped version and be on their way to the
  // one before it: its memory is reused once none can be.
  f->dirty = false;
  Detach(f);
  f->stamp = readers_->Retire();
  retired_.push_back(f);
}

void PageCache::RetireVersions(const std::vector<Replaced>& versions) {
  if (versions.empty()) return;
  std::lock_guard lock(mu_);
  for (const Replaced& r : versions) {
    // Unlinked from the version that replaced it, wherever that is in the
    // chain (it may have been replaced in turn, or left the table).
    uint8_t* newest = Find(r.page);
    for (Frame* g = newest == nullptr ? nullptr : Frame::Of(newest); g != nullptr;
         g = g->older.load(std::memory_order_relaxed)) {
      if (g->older.load(std::memory_order_relaxed) == r.frame) {
        g->older.store(nullptr, std::memory_order_relaxed);
        break;
      }
    }
    Detach(r.frame);
    retired_.push_back(r.frame);
  }
  // One stamp for the lot, taken after each left its chain.
  const uint64_t stamp = readers_->Retire();
  for (size_t i = retired_.size() - versions.size(); i < retired_.size(); ++i) {
    retired_[i]->stamp = stamp;
  }
}

void PageCache::MarkClean(const std::vector<uint32_t>& pages) {
  std::lock_guard lock(mu_);
  for (uint32_t p : pages) {
    uint8_t* data = Find(p);
    if (data == nullptr) continue;
    Frame* f = Frame::Of(data);
    if (!f->dirty) continue;
    f->dirty = false;
    Link(f);
  }
}

PBTREE_HOT void PageCache::MarkPinned(const std::vector<uint32_t>& pages) {
  for (uint32_t p : pages) {
    uint8_t* data = Find(p);
    if (data == nullptr) continue;
    Frame* f = Frame::Of(data);
    f->dirty = false;  // off the ring either way
  }
}

void PageCache::Unpin(const std::vector<uint32_t>& pages) {
  std::lock_guard lock(mu_);
  for (uint32_t p : pages) {
    uint8_t* data = Find(p);
    if (data == nullptr) continue;
    Frame* f = Frame::Of(data);
    if (!f->dirty && f->prev == nullptr) Link(f);
  }
}

void PageCache::Erase(uint32_t page_no) {
  std::lock_guard lock(mu_);
  if (uint8_t* data = Find(page_no)) Release(Frame::Of(data));
}

void PageCache::Evict(const std::vector<uint32_t>& pages) {
  if (pages.empty()) return;
  std::lock_guard lock(mu_);
  // One stamp for the lot, taken after every frame left the table (as
  // Retire does for one).
  const size_t first = retired_.size();
  for (uint32_t p : pages) {
    uint8_t* data = Find(p);
    // A frame with older versions behind it stays until they are retired
    // (it is clean, so CLOCK evicts it after that).
    if (data == nullptr || Frame::Of(data)->dirty ||
        Frame::Of(data)->older.load(std::memory_order_relaxed) != nullptr) {
      continue;
    }
    Unpublish(Frame::Of(data));
    retired_.push_back(Frame::Of(data));
  }
  if (retired_.size() == first) return;
  const uint64_t stamp = readers_->Retire();
  for (size_t i = first; i < retired_.size(); ++i) retired_[i]->stamp = stamp;
}

void PageCache::Shrink() {
  // Called after every commit: most find nothing to do, and say so without
  // the lock (a count a moment old only moves the trim to the next call).
  if (frame_count_.load(std::memory_order_relaxed) <= capacity_) return;
  std::lock_guard lock(mu_);
  if (frames_.size() <= capacity_) return;
  while (in_use_ > capacity_ && EvictOne()) {
  }
  if (Frame* f = Reclaim()) spare_.push_back(f);
  // Free every spare frame; retired ones wait for a later Shrink, reserved
  // ones are another thread's.
  spare_.clear();
  auto kept = std::partition(frames_.begin(), frames_.end(),
                             [](Frame* f) { return f->in_use || f->retired || f->reserved; });
  for (auto it = kept; it != frames_.end(); ++it) {
    (*it)->~Frame();
    unused_.push_back(*it);
  }
  frames_.erase(kept, frames_.end());
  frame_count_.store(frames_.size(), std::memory_order_relaxed);
}

size_t PageCache::frames_in_use() const {
  std::lock_guard lock(mu_);
  return in_use_;
}

}  // namespace pbtree
