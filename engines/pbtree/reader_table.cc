#include "engines/pbtree/reader_table.h"

#include <algorithm>
#include <thread>

#include "engines/pbtree/hot.h"

namespace pbtree {
namespace {

// The slot a thread took last: it usually finds it free again, so threads
// keep to slots (and cache lines) of their own.
thread_local uint32_t tls_slot_hint = 0;

}  // namespace

ReaderTable::ReaderTable() = default;

ReaderTable::~ReaderTable() {
  Block* b = first_.next.load(std::memory_order_relaxed);
  while (b != nullptr) {
    Block* next = b->next.load(std::memory_order_relaxed);
    delete b;
    b = next;
  }
}

template <typename F>
void ReaderTable::ForEachUsed(F&& f) const {
  const uint32_t used = used_.load(std::memory_order_acquire);
  const Block* b = &first_;
  for (uint32_t base = 0; b != nullptr && base < used; base += kSlotsPerBlock) {
    const uint32_t n = std::min(kSlotsPerBlock, used - base);
    for (uint32_t i = 0; i < n; ++i) f(b->slots[i]);
    b = b->next.load(std::memory_order_acquire);
  }
}

ReaderSlot* ReaderTable::Slot(uint32_t index, bool grow) {
  Block* b = &first_;
  for (uint32_t i = index / kSlotsPerBlock; i > 0; --i) {
    Block* next = b->next.load(std::memory_order_acquire);
    if (next == nullptr) {
      if (!grow) return nullptr;
      Block* fresh = new Block();
      if (b->next.compare_exchange_strong(next, fresh, std::memory_order_acq_rel)) {
        next = fresh;
      } else {
        delete fresh;  // another thread appended a block: `next` is it
      }
    }
    b = next;
  }
  return &b->slots[index % kSlotsPerBlock];
}

ReaderSlot* ReaderTable::Acquire() {
  auto take = [](ReaderSlot* s) {
    uint32_t expected = 0;
    return s->owned.load(std::memory_order_relaxed) == 0 &&
           s->owned.compare_exchange_strong(expected, 1, std::memory_order_acquire);
  };
  // The thread's last slot first, then the lowest free one.
  uint32_t index = tls_slot_hint;
  ReaderSlot* slot = Slot(index, false);
  if (slot == nullptr || !take(slot)) {
    for (index = 0;; ++index) {
      slot = Slot(index, true);
      if (take(slot)) break;
    }
  }
  tls_slot_hint = index;
  uint32_t used = used_.load(std::memory_order_relaxed);
  while (used < index + 1 &&
         !used_.compare_exchange_weak(used, index + 1, std::memory_order_acq_rel)) {
  }
  return slot;
}

void ReaderTable::Release(ReaderSlot* slot) {
  // Release: the slot's reads happen before a writer or an evictor that sees
  // it gone reuses their pages or frames.
  slot->snapshot.store(kNoSnapshot, std::memory_order_release);
  slot->epoch.store(0, std::memory_order_release);
  slot->owned.store(0, std::memory_order_release);
}

uint64_t ReaderTable::SafeStamp() const {
  std::atomic_thread_fence(std::memory_order_seq_cst);
  const void* me = ThisThread();
  uint64_t safe = UINT64_MAX;
  ForEachUsed([&](const ReaderSlot& s) {
    const uint64_t e = s.epoch.load(std::memory_order_acquire);
    if (e != 0 && s.thread.load(std::memory_order_relaxed) != me) safe = std::min(safe, e);
  });
  return safe;
}

PBTREE_HOT uint64_t ReaderTable::OldestSnapshot() const {
  std::atomic_thread_fence(std::memory_order_seq_cst);
  uint64_t oldest = kNoSnapshot;
  ForEachUsed([&](const ReaderSlot& s) {
    oldest = std::min(oldest, s.snapshot.load(std::memory_order_acquire));
  });
  return oldest;
}

PBTREE_HOT uint64_t ReaderTable::ScanForWriter(const ReaderSlot* own, bool raise, bool* alone) {
  if (raise) in_place_writer_.store(ThisThread(), std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_seq_cst);
  uint64_t oldest = kNoSnapshot;
  bool others = false;
  ForEachUsed([&](const ReaderSlot& s) {
    oldest = std::min(oldest, s.snapshot.load(std::memory_order_acquire));
    others = others || (&s != own && s.epoch.load(std::memory_order_acquire) != 0);
  });
  *alone = !others && oldest == kNoSnapshot;
  if (raise && !*alone) in_place_writer_.store(nullptr, std::memory_order_relaxed);
  return oldest;
}

void ReaderTable::WaitForInPlaceWriter() const {
  const void* me = ThisThread();
  for (uint32_t spins = 0;; ++spins) {
    const void* writer = in_place_writer_.load(std::memory_order_acquire);
    if (writer == nullptr || writer == me) return;
    if (spins < 256) {
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#endif
    } else {
      std::this_thread::yield();  // the writer may be off its core
    }
  }
}

size_t ReaderTable::PinnedCount() const {
  size_t n = 0;
  ForEachUsed(
      [&](const ReaderSlot& s) { n += s.snapshot.load(std::memory_order_acquire) != kNoSnapshot; });
  return n;
}

}  // namespace pbtree
