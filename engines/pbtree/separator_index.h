// SeparatorIndex: the keys of one cached internal page, decoded once for
// searching.
//
// Why: searching a prefix-compressed internal page means a binary search over
// its restart keys and a scan of one block that decodes entry headers as it
// goes: about 700 instructions per internal page on seed 001's URL keys
// (callgrind), 2,100 of a hot read's 3,850 with depth 4. The pages near the
// root are few and searched by every read, so they sit in the CPU caches and
// their search costs instructions, not memory: for them this structure
// replaces the page search. Lower levels keep the page search: there a read
// meets a page it has not seen for a while, and the page search (two or three
// rounds of parallel prefetches) waits for memory less than a binary search
// over separate keys (one dependent miss per step) does; decoding the 800
// level-1 pages of seed 001 made reads twice as slow. Readers build an index
// once they have searched a clean page's frame a few times
// (PageCache::SeparatorsOf), so a root rewritten by every commit of a write
// transaction is not decoded again and again.
//
// The search is a binary search with LCP bounds: the target shares a known
// number of bytes with the keys at both ends of the remaining range, so it
// shares at least the smaller of the two with every key between them, and
// each step compares only from there. The bound carries down the tree: every
// key of a child lies between the two separators around it, so the child is
// searched knowing that prefix already (Find's `known`; NodePage::Seek takes
// it too).
//
// Layout: one allocation (a read touches as few memory pages as it can):
// the entry count, then per entry the key's end offset (u32), child (u32)
// and page offset (u16), then the whole keys back to back.
//
// Immutable after Build: any number of threads search it at once.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>

#include "engines/pbtree/status.h"

namespace pbtree {

class SeparatorIndex {
 public:
  // `page` is a valid internal page (checked when it entered the cache).
  static SeparatorIndex* Build(const uint8_t* page, uint32_t page_size);
  static void Free(SeparatorIndex* index);

  // The entry whose child covers `target`: the last one whose key is <=
  // target (the first key is empty, so there always is one).
  // On entry, *known is a number of leading bytes that the target shares
  // with every key of this page (0 at the root); on return, the number it
  // shares with every key of the chosen child. A damaged file can break that
  // promise: the answer may then be wrong, but no byte outside a key is read.
  uint32_t Find(Slice target, uint32_t* known) const;

  uint32_t child(uint32_t entry) const { return Load32(children() + 4 * entry); }
  // Offset of the entry in the page (what a cursor's path records).
  uint32_t position(uint32_t entry) const {
    uint16_t v;
    std::memcpy(&v, positions() + 2 * entry, 2);
    return v;
  }
  uint32_t count() const { return count_; }

 private:
  SeparatorIndex() = default;
  static uint32_t Load32(const uint8_t* p) {
    uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
  }
  const uint8_t* base() const { return reinterpret_cast<const uint8_t*>(this + 1); }
  // ends()[i] = end of key i in keys(); key i starts where key i - 1 ends.
  const uint8_t* ends() const { return base(); }
  const uint8_t* children() const { return base() + 4 * count_; }
  const uint8_t* positions() const { return base() + 8 * count_; }
  const uint8_t* keys() const { return base() + 10 * count_; }

  uint32_t count_ = 0;
  uint32_t key_bytes_ = 0;
};

}  // namespace pbtree
