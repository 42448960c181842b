// Free-map page body (after the 24-byte header, whose `next` field holds the
// map page's index i): one bit per page for pages [i*B, (i+1)*B), where
// B = (page_size - 24) * 8; byte j, bit k (least significant first) is page
// i*B + 8j + k; 1 = free. Bits for pages at or beyond the page count are 0.
#include "engines/pbtree/free_map.h"

#include <algorithm>
#include <cassert>
#include <cstring>

#include "engines/pbtree/format.h"
#include "engines/pbtree/hot.h"

namespace pbtree {

FreeMap::FreeMap(uint32_t page_size)
    : page_size_(page_size), bits_per_page_((page_size - kPageHeaderSize) * 8) {}

void FreeMap::Reset(uint32_t page_count, std::vector<uint32_t> map_pages) {
  page_count_ = page_count;
  free_count_ = 0;
  free_.assign((page_count + 63) / 64 + 1, 0);
  reusable_.assign(free_.size(), 0);
  map_pages_ = std::move(map_pages);
  pending_.clear();
  search_word_ = 0;
  run_search_word_ = 0;
  index_dirty_.assign(map_pages_.size(), 0);
  index_fresh_.assign(map_pages_.size(), 0);
  dirty_indexes_.clear();
  allocated_.clear();
  freed_committed_.clear();
  committed_page_count_ = page_count_;
  committed_free_count_ = 0;
  committed_map_pages_ = map_pages_;
}

Status FreeMap::LoadMapPage(uint32_t index, const uint8_t* page) {
  if (GetPageType(page) != PageType::kFreeMap || GetNext(page) != index) {
    return Status::Corruption("free map page " + std::to_string(index) + " has the wrong header");
  }
  const uint8_t* bits = page + kPageHeaderSize;
  const uint64_t first = static_cast<uint64_t>(index) * bits_per_page_;
  for (uint32_t j = 0; j < bits_per_page_ / 8; ++j) {
    if (bits[j] == 0) continue;
    for (uint32_t k = 0; k < 8; ++k) {
      if (!(bits[j] >> k & 1)) continue;
      uint64_t p = first + 8 * j + k;
      if (p >= page_count_) {
        return Status::Corruption("free map marks a page beyond the page count");
      }
      SetFree(static_cast<uint32_t>(p), true);
      SetReusable(static_cast<uint32_t>(p), true);
    }
  }
  committed_free_count_ = free_count_;
  return Status::OK();
}

Status FreeMap::CheckLoaded(uint32_t expected_free) const {
  if (IsFree(0) || IsFree(1)) return Status::Corruption("free map frees a meta page");
  for (uint32_t p : map_pages_) {
    if (IsFree(p)) return Status::Corruption("free map frees one of its own pages");
  }
  if (free_count_ != expected_free) {
    return Status::Corruption("free map holds " + std::to_string(free_count_) +
                              " free pages, the meta page says " + std::to_string(expected_free));
  }
  return Status::OK();
}

void FreeMap::EnsureBits(uint32_t pages) {
  size_t words = (static_cast<size_t>(pages) + 63) / 64 + 1;
  if (words > free_.size()) {
    free_.resize(std::max(words, free_.size() * 2), 0);
    reusable_.resize(free_.size(), 0);
  }
}

void FreeMap::SetFree(uint32_t p, bool free) {
  uint64_t mask = uint64_t{1} << (p & 63);
  bool was = free_[p >> 6] & mask;
  if (was == free) return;
  if (free) {
    free_[p >> 6] |= mask;
    ++free_count_;
  } else {
    free_[p >> 6] &= ~mask;
    --free_count_;
  }
  MarkIndexDirty(p);
}

void FreeMap::SetReusable(uint32_t p, bool reusable) {
  uint64_t mask = uint64_t{1} << (p & 63);
  if (reusable) {
    reusable_[p >> 6] |= mask;
    search_word_ = std::min<size_t>(search_word_, p >> 6);
    run_search_word_ = std::min<size_t>(run_search_word_, p >> 6);
  } else {
    reusable_[p >> 6] &= ~mask;
  }
}

void FreeMap::MarkIndexDirty(uint32_t p) {
  uint32_t index = p / bits_per_page_;
  if (index >= index_dirty_.size()) {
    index_dirty_.resize(index + 1, 0);
    index_fresh_.resize(index + 1, 0);
  }
  if (!index_dirty_[index]) {
    index_dirty_[index] = 1;
    dirty_indexes_.push_back(index);
  }
}

void FreeMap::ReleasePendingPages(uint64_t oldest_snapshot, bool no_readers) {
  while (!pending_.empty() && (no_readers || pending_.front().txn_id <= oldest_snapshot)) {
    SetReusable(pending_.front().page, true);
    pending_.pop_front();
  }
}

// Lowest bit that starts a run of 8 set bits within a word (-1 if none).
static int RunOf8(uint64_t w) {
  uint64_t x = w & (w >> 1);
  x &= x >> 2;
  x &= x >> 4;
  return x == 0 ? -1 : __builtin_ctzll(x);
}

uint32_t FreeMap::Allocate() {
  // Next-fit first, and otherwise the start of the lowest run of 8 reusable
  // pages (else the lowest reusable page, else a new page at the end): the
  // pages of a transaction then form runs that one pwritev writes, which
  // matters because every write call costs several microseconds.
  uint32_t p = last_allocated_ + 1;
  if (!(p < page_count_ && (reusable_[p >> 6] >> (p & 63) & 1))) {
    p = UINT32_MAX;
    const size_t words = (static_cast<size_t>(page_count_) + 63) / 64;
    for (size_t w = std::max(search_word_, run_search_word_); w < words; ++w) {
      int bit = RunOf8(reusable_[w]);
      if (bit >= 0) {
        p = static_cast<uint32_t>(w * 64 + bit);
        run_search_word_ = w;
        break;
      }
    }
    if (p == UINT32_MAX) {
      run_search_word_ = words;
      for (size_t w = search_word_; w < words; ++w) {
        if (reusable_[w] != 0) {
          p = static_cast<uint32_t>(w * 64 + __builtin_ctzll(reusable_[w]));
          search_word_ = w;
          break;
        }
      }
    }
    if (p == UINT32_MAX) {
      search_word_ = words;
      p = page_count_++;
      EnsureBits(page_count_);
      last_allocated_ = p;
      return p;
    }
  }
  SetReusable(p, false);
  SetFree(p, false);
  allocated_.push_back(p);
  last_allocated_ = p;
  return p;
}

void FreeMap::FreeCommitted(uint32_t p) {
  assert(!IsFree(p));
  SetFree(p, true);
  freed_committed_.push_back(p);
}

void FreeMap::FreeUncommitted(uint32_t p) {
  SetFree(p, true);
  SetReusable(p, true);
}

void FreeMap::PrepareCommit(std::vector<uint32_t>* indexes) {
  bool changed = true;
  while (changed) {
    changed = false;
    const uint32_t needed = (page_count_ + bits_per_page_ - 1) / bits_per_page_;
    while (map_pages_.size() < needed) {
      map_pages_.push_back(0);
      MarkIndexDirty(static_cast<uint32_t>(map_pages_.size() - 1) * bits_per_page_);
    }
    // Index order does not matter; dirty_indexes_ may grow while we iterate.
    for (size_t i = 0; i < dirty_indexes_.size(); ++i) {
      uint32_t index = dirty_indexes_[i];
      if (index >= map_pages_.size() || index_fresh_[index]) continue;
      uint32_t old = map_pages_[index];
      index_fresh_[index] = 1;
      map_pages_[index] = Allocate();
      if (old != 0) FreeCommitted(old);
      changed = true;
    }
  }
  indexes->clear();
  for (uint32_t index : dirty_indexes_) {
    if (index < map_pages_.size()) indexes->push_back(index);
  }
}

void FreeMap::EncodeMapPage(uint32_t index, uint8_t* page) const {
  InitPage(page, page_size_, PageType::kFreeMap, 0);
  EncodeFixed32(page + kOffNext, index);
  uint8_t* bits = page + kPageHeaderSize;
  // bits_per_page_ is a multiple of 64 for every page size, so a map page
  // starts on a word of free_.
  const uint64_t first = static_cast<uint64_t>(index) * bits_per_page_;
  const uint64_t last = std::min<uint64_t>(first + bits_per_page_, page_count_);
  for (uint64_t p = first; p < last; p += 64) {
    uint64_t word = free_[p >> 6];
    if (last - p < 64) word &= (uint64_t{1} << (last - p)) - 1;
    if (word != 0) EncodeFixed64(bits + ((p - first) >> 3), word);
  }
}

PBTREE_HOT void FreeMap::Commit(uint64_t txn_id) {
  for (uint32_t p : freed_committed_) pending_.push_back(Pending{txn_id, p});
  freed_committed_.clear();
  if (!dirty_indexes_.empty()) {
    for (uint32_t index : dirty_indexes_) {
      if (index < index_dirty_.size()) index_dirty_[index] = index_fresh_[index] = 0;
    }
    dirty_indexes_.clear();
    // The map's own pages change only for an index marked dirty
    // (PrepareCommit): a commit with none keeps them, and skips the copy.
    committed_map_pages_ = map_pages_;
  }
  assert(map_pages_ == committed_map_pages_);
  allocated_.clear();
  committed_page_count_ = page_count_;
  committed_free_count_ = free_count_;
}

void FreeMap::AddPending(uint64_t txn_id, const std::vector<uint32_t>& pages) {
  for (uint32_t p : pages) pending_.push_back(Pending{txn_id, p});
}

void FreeMap::MarkAllDirty() {
  for (size_t i = 0; i < map_pages_.size(); ++i) {
    MarkIndexDirty(static_cast<uint32_t>(i) * bits_per_page_);
  }
}

void FreeMap::Abort() {
  for (uint32_t p : freed_committed_) SetFree(p, false);
  for (uint32_t p : allocated_) {
    SetFree(p, true);
    SetReusable(p, true);
  }
  // Pages past the committed page count no longer exist.
  for (uint32_t p = committed_page_count_; p < page_count_; ++p) {
    if (IsFree(p)) SetFree(p, false);
    SetReusable(p, false);
  }
  page_count_ = committed_page_count_;
  map_pages_ = committed_map_pages_;
  for (uint32_t index : dirty_indexes_) {
    if (index < index_dirty_.size()) index_dirty_[index] = index_fresh_[index] = 0;
  }
  dirty_indexes_.clear();
  allocated_.clear();
  freed_committed_.clear();
  search_word_ = 0;
  run_search_word_ = 0;
  assert(free_count_ == committed_free_count_);
}

uint64_t FreeMap::pending_pages() const {
  return pending_.size();
}

}  // namespace pbtree
