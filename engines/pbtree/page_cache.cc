#include "engines/pbtree/page_cache.h"

#include <algorithm>
#include <cassert>
#include <cstdlib>
#include <new>

namespace pbtree {

PageCache::PageCache(uint32_t page_size, size_t capacity_pages)
    : page_size_(page_size), capacity_(std::max<size_t>(capacity_pages, 16)) {
  ring_.prev = ring_.next = &ring_;
}

PageCache::~PageCache() {
  for (Frame* f : frames_) std::free(f);
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

Frame* PageCache::NewFrame() {
  if (!spare_.empty()) {
    Frame* f = spare_.back();
    spare_.pop_back();
    return f;
  }
  if (frames_.size() >= capacity_ && ring_size_ > 0) {
    // CLOCK over clean frames only: two turns clear every reference bit, so
    // the loop always ends with an eviction.
    for (size_t step = 0; step <= 2 * ring_size_; ++step) {
      if (hand_ == &ring_) hand_ = ring_.next;
      Frame* f = hand_;
      hand_ = f->next;
      if (referenced_[f->page_no]) {
        referenced_[f->page_no] = 0;
        continue;
      }
      Release(f);
      spare_.pop_back();
      return f;
    }
  }
  // 128-byte alignment keeps the Frame and the page header in one pair of
  // cache lines (adjacent-line prefetch); aligned_alloc wants a multiple.
  const size_t bytes = (Frame::kHeaderBytes + page_size_ + 127) & ~size_t{127};
  void* block = std::aligned_alloc(128, bytes);
  if (block == nullptr) throw std::bad_alloc();
  Frame* f = new (block) Frame();
  frames_.push_back(f);
  return f;
}

void PageCache::SetSlot(uint32_t page_no, uint8_t* data) {
  if (page_no >= slots_.size()) {
    slots_.resize(std::max<size_t>(page_no + 1, slots_.size() * 2), nullptr);
    referenced_.resize(slots_.size(), 0);
  }
  slots_[page_no] = data;
  referenced_[page_no] = 1;
}

void PageCache::Release(Frame* f) {
  slots_[f->page_no] = nullptr;
  if (!f->dirty) Unlink(f);
  f->in_use = false;
  f->dirty = false;
  --in_use_;
  spare_.push_back(f);
}

Frame* PageCache::Insert(uint32_t page_no) {
  assert(Find(page_no) == nullptr);
  Frame* f = NewFrame();
  f->page_no = page_no;
  f->in_use = true;
  f->dirty = false;
  SetSlot(page_no, f->data());
  Link(f);
  ++in_use_;
  return f;
}

void PageCache::Move(Frame* frame, uint32_t to) {
  slots_[frame->page_no] = nullptr;
  assert(Find(to) == nullptr);
  frame->page_no = to;
  SetSlot(to, frame->data());
}

void PageCache::MarkDirty(Frame* frame) {
  if (frame->dirty) return;
  Unlink(frame);
  frame->dirty = true;
}

void PageCache::MarkClean(Frame* frame) {
  if (!frame->dirty) return;
  frame->dirty = false;
  Link(frame);
}

void PageCache::Erase(uint32_t page_no) {
  if (page_no < slots_.size() && slots_[page_no] != nullptr) Release(Frame::Of(slots_[page_no]));
}

void PageCache::Shrink() {
  if (frames_.size() <= capacity_) return;
  // Evict clean frames beyond capacity, then free every frame not in use.
  while (in_use_ > capacity_ && ring_size_ > 0) Release(ring_.next);
  spare_.clear();
  auto kept = std::partition(frames_.begin(), frames_.end(), [](Frame* f) { return f->in_use; });
  for (auto it = kept; it != frames_.end(); ++it) std::free(*it);
  frames_.erase(kept, frames_.end());
}

}  // namespace pbtree
