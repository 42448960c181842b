#include "engines/pbtree/page_cache.h"

#include <sys/mman.h>

#include <algorithm>
#include <cassert>
#include <cstdlib>
#include <new>

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
}

PageCache::~PageCache() {
  for (Frame& f : frames_) SeparatorIndex::Free(f.separators.load(std::memory_order_relaxed));
  for (uint8_t* slab : slabs_) ::munmap(slab, kSlabBytes);
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

void PageCache::SetSlot(uint32_t page_no, Frame* frame) {
  const size_t c = page_no >> kChunkBits;
  assert(c < chunk_count_);
  Chunk* chunk = chunks_[c].load(std::memory_order_relaxed);
  if (chunk == nullptr) {
    owned_chunks_.push_back(std::make_unique<Chunk>());
    chunk = owned_chunks_.back().get();
    chunks_[c].store(chunk, std::memory_order_release);
  }
  const uint32_t i = page_no & kChunkMask;
  if (frame != nullptr) {
    chunk->referenced[i].store(1, std::memory_order_relaxed);
    chunk->frame[i].store(frame, std::memory_order_release);
    chunk->data[i].store(frame->bytes, std::memory_order_release);
  } else {
    chunk->data[i].store(nullptr, std::memory_order_release);
    chunk->frame[i].store(nullptr, std::memory_order_release);
  }
}

Frame* PageCache::NewFrame() {
  Frame* f;
  if (!released_.empty()) {
    f = released_.back();
    released_.pop_back();
  } else {
    if (slab_used_ + page_size_ > kSlabBytes) {
      void* slab =
          ::mmap(nullptr, kSlabBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (slab == MAP_FAILED) throw std::bad_alloc();
      slabs_.push_back(static_cast<uint8_t*>(slab));
      slab_used_ = 0;
    }
    f = &frames_.emplace_back();
    f->bytes = slabs_.back() + slab_used_;
    slab_used_ += page_size_;
  }
  f->resident = true;
  ++resident_;
  return f;
}

const SeparatorIndex* PageCache::SeparatorsOf(uint32_t page_no, const uint8_t* data) {
  Frame* f = Lookup(page_no);
  if (f == nullptr || f->bytes != data) return nullptr;
  SeparatorIndex* index = f->separators.load(std::memory_order_acquire);
  if (index != nullptr) return index;
  if (f->searches.load(std::memory_order_relaxed) < kSearchesBeforeIndex) {
    f->searches.fetch_add(1, std::memory_order_relaxed);
    return nullptr;
  }
  SeparatorIndex* built = SeparatorIndex::Build(data, page_size_);
  // Two readers may build it at once: the first to publish wins.
  if (f->separators.compare_exchange_strong(index, built, std::memory_order_acq_rel)) return built;
  SeparatorIndex::Free(built);
  return index;
}

void PageCache::Recycle(Frame* f) {
  SeparatorIndex::Free(f->separators.exchange(nullptr, std::memory_order_relaxed));
  f->searches.store(0, std::memory_order_relaxed);
  spare_.push_back(f);
}

void PageCache::Release(Frame* f) {
  SetSlot(f->page_no, nullptr);
  if (!f->dirty) Unlink(f);
  f->in_use = false;
  f->dirty = false;
  --in_use_;
  Recycle(f);
}

void PageCache::Retire(Frame* f) {
  SetSlot(f->page_no, nullptr);
  Unlink(f);
  f->in_use = false;
  f->retired = true;
  --in_use_;
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
    Recycle(retired_.front());
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
  if (resident_ < capacity_ + retired_.size()) return NewFrame();
  if (EvictOne()) {
    if (Frame* f = Reclaim()) return f;
  }
  // Every evicted frame may still be read by another thread (or every frame
  // is dirty): grow beyond the capacity for now.
  return NewFrame();
}

Frame* PageCache::Reserve() {
  std::lock_guard lock(mu_);
  Frame* f = TakeFrame();
  f->reserved = true;
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
  if (Frame* cached = Lookup(page_no)) {
    spare_.push_back(f);
    return cached->data();
  }
  f->page_no = page_no;
  f->in_use = true;
  f->dirty = false;
  Link(f);
  ++in_use_;
  SetSlot(page_no, f);
  return f->data();
}

void PageCache::PublishDirty(Frame* f, uint32_t page_no) {
  std::lock_guard lock(mu_);
  f->reserved = false;
  if (Frame* stale = Lookup(page_no)) Release(stale);
  f->page_no = page_no;
  f->in_use = true;
  f->dirty = true;
  ++in_use_;
  SetSlot(page_no, f);
}

void PageCache::MarkClean(const std::vector<uint32_t>& pages) {
  std::lock_guard lock(mu_);
  for (uint32_t p : pages) {
    Frame* f = Lookup(p);
    if (f == nullptr || !f->dirty) continue;
    f->dirty = false;
    Link(f);
  }
}

void PageCache::Erase(uint32_t page_no) {
  std::lock_guard lock(mu_);
  if (Frame* f = Lookup(page_no)) Release(f);
}

void PageCache::Evict(const std::vector<uint32_t>& pages) {
  std::lock_guard lock(mu_);
  for (uint32_t p : pages) {
    Frame* f = Lookup(p);
    if (f != nullptr && !f->dirty) Retire(f);
  }
}

void PageCache::Shrink() {
  std::lock_guard lock(mu_);
  if (resident_ <= capacity_) return;
  while (in_use_ > capacity_ && EvictOne()) {
  }
  if (Frame* f = Reclaim()) spare_.push_back(f);
  // Give back the memory of every spare frame, one madvise per run of
  // adjacent pages; retired frames wait for a later Shrink, reserved ones are
  // another thread's.
  std::sort(spare_.begin(), spare_.end(),
            [](const Frame* a, const Frame* b) { return a->bytes < b->bytes; });
  for (size_t i = 0; i < spare_.size();) {
    size_t j = i + 1;
    while (j < spare_.size() && spare_[j]->bytes == spare_[j - 1]->bytes + page_size_) ++j;
    ::madvise(spare_[i]->bytes, (j - i) * page_size_, MADV_DONTNEED);
    i = j;
  }
  for (Frame* f : spare_) {
    f->resident = false;
    released_.push_back(f);
  }
  resident_ -= spare_.size();
  spare_.clear();
}

size_t PageCache::frames_in_use() const {
  std::lock_guard lock(mu_);
  return in_use_;
}

}  // namespace pbtree
