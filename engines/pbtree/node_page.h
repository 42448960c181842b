// Leaf and internal pages: prefix-compressed, sorted entries with restart
// points (the LevelDB block idea), searched and edited in place.
//
// Layout of a node page (after the 24-byte header of format.h):
//
//   [24, data_end)            entries, in strictly increasing key order
//   [data_end, restart_base)  free space, whose bytes nothing reads: edits,
//                             splits and copies leave them as they are
//                             (NodeBuilder zeroes them, so that a built
//                             page's bytes depend only on its entries)
//   [restart_base, page_size) restart array: restart count u16 LE offsets,
//                             ascending; restart_base = page_size - 2*count
//
// Leaf entry:     varint shared | varint unshared | varint value_field |
//                 key suffix (unshared bytes) | payload
// Internal entry: varint shared | varint unshared | key suffix | u32 child page
//
// The key of an entry is the first `shared` bytes of the previous entry's key
// followed by its suffix. `shared` is always exactly the length of the common
// prefix with the previous key, never less: the search below relies on it to
// decide most comparisons from the header alone, without rebuilding keys. A
// restart entry has shared = 0 and so stores its whole key; the first entry is
// always a restart, and the restart array lists them all, so a search binary
// searches the restart keys and then scans one restart block.
//
// value_field = value_length * 2 + overflow. Inline (overflow = 0) the payload
// is the value's bytes; otherwise (value longer than page_size / 4) the payload
// is the u32 first page of the overflow chain and value_length the full length.
//
// Internal pages: entry i routes keys k with key_i <= k < key_{i+1} to child
// i. The first entry's key is empty (it routes everything below key_1), so a
// page's separators are the shortest strings that split its children
// (suffix truncation: see ShortestSeparator).
//
// Pages read from disk are validated once (ValidateNodePage) when they enter
// the cache; the functions here then trust the bytes. Edits keep a page valid.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "engines/pbtree/coding.h"
#include "engines/pbtree/format.h"
#include "engines/pbtree/status.h"

namespace pbtree {

// Length of the common prefix of a[0, n) and b[0, n).
inline size_t MismatchAt(const uint8_t* a, const uint8_t* b, size_t n) {
  size_t i = 0;
#if defined(__SSE2__)
  while (i + 16 <= n) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(a + i));
    const __m128i y = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b + i));
    const unsigned equal = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(x, y)));
    if (equal != 0xffff) return i + __builtin_ctz(~equal);
    i += 16;
  }
#endif
  while (i + 8 <= n) {
    uint64_t x, y;
    std::memcpy(&x, a + i, 8);
    std::memcpy(&y, b + i, 8);
    if (x != y) {
      // Little-endian loads: the first differing byte is the lowest set byte.
      return i + (__builtin_ctzll(x ^ y) >> 3);
    }
    i += 8;
  }
  while (i < n && a[i] == b[i]) ++i;
  return i;
}

// Writes an entry's header (internal pages: shared, unshared; leaves: and the
// value field) at p; returns one past it.
inline uint8_t* PutEntryHeader(uint8_t* p, bool leaf, uint32_t shared, uint32_t unshared,
                               uint32_t field) {
  if ((shared | unshared | (leaf ? field : 0)) < 128) {  // one byte each: most entries
    p[0] = static_cast<uint8_t>(shared);
    p[1] = static_cast<uint8_t>(unshared);
    if (leaf) p[2] = static_cast<uint8_t>(field);
    return p + (leaf ? 3 : 2);
  }
  p = EncodeVarint32(p, shared);
  p = EncodeVarint32(p, unshared);
  if (leaf) p = EncodeVarint32(p, field);
  return p;
}

// Bytes PutEntryHeader writes.
inline uint32_t EntryHeaderSize(bool leaf, uint32_t shared, uint32_t unshared, uint32_t field) {
  if ((shared | unshared | (leaf ? field : 0)) < 128) return leaf ? 3 : 2;
  return static_cast<uint32_t>(VarintLength(shared) + VarintLength(unshared) +
                               (leaf ? VarintLength(field) : 0));
}

// What an entry carries besides its key. Leaves: `field` is the value_field
// and `payload` the inline value bytes or the 4-byte overflow page. Internal
// pages: `payload` is the 4-byte child page number and `field` is unused.
struct EntryValue {
  uint32_t field = 0;
  Slice payload;
};

// One decoded entry header at an offset of a trusted page.
struct EntryView {
  uint32_t shared = 0;
  uint32_t unshared = 0;
  uint32_t field = 0;
  const uint8_t* suffix = nullptr;
  const uint8_t* payload = nullptr;
  uint32_t payload_size = 0;
  uint32_t header_size = 0;  // bytes of the varints
  uint32_t end = 0;          // offset one past the entry
};

// Where a key falls in a page.
struct SeekResult {
  uint32_t pos = 0;             // offset of the first entry with key >= target (data_end if none)
  uint32_t prev = 0;            // offset of the entry before pos in the block the search
                                // scanned; 0 when pos is that block's first entry
  uint32_t block = 0;           // restart block containing prev (or pos when prev == 0)
  uint32_t prev_lcp = 0;        // common prefix of the previous key and the target
  uint32_t next_lcp = 0;        // common prefix of the key at pos (if any) and the target
  uint32_t in_block = 0;        // entries of the block before pos
  bool exact = false;           // the key at pos equals the target
  bool pos_is_restart = false;  // pos is a restart entry (or data_end)
};

class NodePage {
 public:
  NodePage(uint8_t* page, uint32_t page_size) : page_(page), page_size_(page_size) {}

  bool is_leaf() const { return GetPageType(page_) == PageType::kLeaf; }
  uint32_t count() const { return GetCount(page_); }
  uint32_t restarts() const { return DecodeFixed16(page_ + kOffRestarts); }
  uint32_t data_end() const { return DecodeFixed16(page_ + kOffDataEnd); }
  uint32_t restart_offset(uint32_t i) const {
    return DecodeFixed16(page_ + page_size_ - 2 * (restarts() - i));
  }
  // Bytes in use: header, entries and restart array.
  uint32_t used_bytes() const { return data_end() + 2 * restarts(); }
  uint32_t free_bytes() const { return page_size_ - used_bytes(); }
  uint8_t* data() const { return page_; }

  EntryView Entry(uint32_t pos) const { return EntryAt(pos, is_leaf()); }
  // The same with the page kind known (saves re-reading it in loops).
  __attribute__((always_inline)) inline EntryView EntryAt(uint32_t pos, bool leaf) const;
  // Offset of the entry after the one at pos (or data_end).
  uint32_t Next(uint32_t pos) const { return Entry(pos).end; }
  // The same with the page kind known, reading only the entry's first bytes
  // when its lengths are one byte each (the common case).
  __attribute__((always_inline)) inline uint32_t NextAt(uint32_t pos, bool leaf) const;
  // Index of the restart block that holds the entry at pos.
  uint32_t BlockOf(uint32_t pos) const;

  // The first entry >= target. `known`: leading bytes the target is known to
  // share with every key of the page (a SeparatorIndex bound; 0 when
  // unknown), which the comparisons then skip.
  SeekResult Seek(Slice target, uint32_t known = 0) const;
  // Seek in a leaf the caller read moments ago (in the CPU's cache): without
  // the prefetches that hide a cold page's misses (a one-key commit into
  // the last one's leaf, most of seed 001's, issued up to fifteen).
  SeekResult SeekCachedLeaf(Slice target, uint32_t known) const {
    return SeekLeaf(target, known, /*prefetch=*/false);
  }

  // Child page of an internal entry.
  uint32_t ChildAt(uint32_t pos) const { return DecodeFixed32(Entry(pos).payload); }
  // Internal pages: the entry whose child covers `target` (the last entry with
  // key <= target). With `known` (leading bytes the target shares with every
  // key of this page, as for Seek), also returns in it the bytes the target
  // shares with every key of that child: every key there lies between the
  // entry's key and the next one (or this page's own bounds at either end),
  // and shares with the target at least the smaller of their common prefixes
  // with it. Passed down, it lets each search skip what is already known
  // equal (URL keys share tens of bytes within a subtree).
  uint32_t FindChildEntry(Slice target, uint32_t* known = nullptr) const;

  // In-place edits. Each returns false, leaving the page unchanged, when the
  // result does not fit; the caller then splits. `restart_interval` bounds the
  // size of a restart block: an insert that makes its block longer than twice
  // the interval cuts that block in two (SplitBlock).
  bool Insert(const SeekResult& at, Slice key, EntryValue value, uint32_t restart_interval);
  bool ReplaceValue(uint32_t pos, EntryValue value);
  // Removes the entry at `pos` (found by Seek, `at.exact`). Never needs space.
  // Internal pages: not for the first entry (use Rebuild on decoded entries).
  void Erase(const SeekResult& at);
  void SetChild(uint32_t pos, uint32_t child);

  // Splits in two halves by bytes (TreeWriter::SplitInTwo). Each half is a
  // byte range of the page: entries after a restart point are encoded
  // against the key before them, which stays where it was, so only the first
  // entry of the right half needs its whole key (leaves), or the empty key
  // and then its successor's whole key (internal pages).
  //
  // The whole key of the entry at `pos` into `out` (kMaxKeySize bytes);
  // returns its size. Scans the restart block from its restart key.
  uint32_t CopyKey(uint32_t pos, uint8_t* out) const;
  // True when the entry at `pos` is a restart entry.
  bool IsRestart(uint32_t pos) const { return restart_offset(BlockOf(pos)) == pos; }
  // The entry boundary nearest to byte offset `target` where the page can be
  // cut with an entry on either side: an entry offset other than the first.
  // 0 when the page holds fewer than two entries.
  uint32_t CutNear(uint32_t target) const;
  // Bytes this page uses after MoveTail(cut, ...), and the page that
  // MoveTail fills (`cut_key_size`: the size of the key at cut).
  uint32_t HeadUsedBytes(uint32_t cut) const;
  uint32_t TailUsedBytes(uint32_t cut, uint32_t cut_key_size) const;
  // Moves the entries from `cut` (an entry offset other than the first) to
  // the end into `right` (page_size bytes), which becomes a valid page of the
  // same kind and level; this page keeps the entries before `cut`.
  // `cut_key` is the whole key of the entry at `cut` (CopyKey). The rest of
  // the tail is copied as it is, with its restart points moved. The caller
  // checks TailUsedBytes first: a leaf's first moved entry grows by the
  // prefix it shared with the key before it.
  void MoveTail(uint32_t cut, Slice cut_key, uint8_t* right);

 private:
  // Makes the middle entry of restart block `block` (of `entries` entries) a
  // restart entry. False, leaving the page unchanged, when the entry's whole
  // key and the restart slot do not fit: the longer block stays valid.
  bool SplitBlock(uint32_t block, uint32_t entries);
  // Whether the block of an insert at `at` (its new entry ending at
  // `new_end`, the block at `block_end`) may hold more than `limit` entries,
  // judged from its bytes (see node_page.cc).
  bool MayExceed(const SeekResult& at, uint32_t new_end, uint32_t block_end, uint32_t limit) const;
  void ShiftRestarts(uint32_t after, int delta, bool include_equal);
  void InsertRestart(uint32_t index, uint32_t offset);
  void RemoveRestart(uint32_t index);
  // Seek for one kind of page (the kind decides each entry's layout).
  // (One copy of the leaf's search for both ways: a copy without the
  // prefetches took a one-key commit ~2 more instruction-cache misses.)
  SeekResult SeekLeaf(Slice target, uint32_t known, bool prefetch) const;
  SeekResult SeekInternal(Slice target, uint32_t known) const;
  template <bool kLeaf>
  [[gnu::always_inline]] inline SeekResult SeekIn(Slice target, uint32_t known,
                                                  bool prefetch) const;

  uint8_t* page_;
  uint32_t page_size_;
};

// Whether an entry's header (two lengths in internal pages, three in leaves)
// has every length in one byte (below 128), from its first four bytes: the
// case EntryAt, NextAt and Seek decode without varint loops. An entry is at
// least 3 bytes and the restart array follows the entries, so the 4 bytes
// read are inside the page.
inline bool ShortHeader(uint32_t word, bool leaf) {
  return (word & (leaf ? 0x808080u : 0x8080u)) == 0;
}

// Size of an entry with a ShortHeader, from its first four bytes.
inline uint32_t ShortEntrySize(uint32_t word, bool leaf) {
  const uint32_t unshared = (word >> 8) & 0xff;
  if (!leaf) return 2 + unshared + 4;
  const uint32_t field = (word >> 16) & 0xff;
  return 3 + unshared + ((field & 1) ? 4 : (field >> 1));
}

// The first byte of the suffix of an entry with a ShortHeader, from its first
// four bytes (when the suffix is not empty).
inline uint8_t FirstSuffixByte(uint32_t word, bool leaf) {
  return static_cast<uint8_t>(leaf ? word >> 24 : word >> 16);
}

inline uint32_t NodePage::NextAt(uint32_t pos, bool leaf) const {
  const uint32_t word = DecodeFixed32(page_ + pos);
  if (ShortHeader(word, leaf)) return pos + ShortEntrySize(word, leaf);
  return EntryAt(pos, leaf).end;
}

inline EntryView NodePage::EntryAt(uint32_t pos, bool leaf) const {
  EntryView e;
  const uint8_t* start = page_ + pos;
  const uint8_t* p;
  // Fast path: every length in one byte, read with one load.
  const uint32_t word = DecodeFixed32(start);
  if (ShortHeader(word, leaf)) {
    e.shared = word & 0xff;
    e.unshared = (word >> 8) & 0xff;
    if (leaf) e.field = (word >> 16) & 0xff;
    p = start + (leaf ? 3 : 2);
  } else {
    p = DecodeVarint32Trusted(start, &e.shared);
    p = DecodeVarint32Trusted(p, &e.unshared);
    if (leaf) p = DecodeVarint32Trusted(p, &e.field);
  }
  e.header_size = static_cast<uint32_t>(p - start);
  e.suffix = p;
  e.payload = p + e.unshared;
  e.payload_size = (!leaf || (e.field & 1)) ? 4 : (e.field >> 1);
  e.end = pos + e.header_size + e.unshared + e.payload_size;
  return e;
}

// Builds a page from entries given in increasing key order.
class NodeBuilder {
 public:
  NodeBuilder(uint8_t* page, uint32_t page_size, PageType type, uint8_t level,
              uint32_t restart_interval);
  // Appends an entry; false when it does not fit (the page is unchanged).
  bool Add(Slice key, EntryValue value);
  // Writes the entry count and the restart array. The page is then valid.
  void Finish();
  uint32_t count() const { return count_; }
  // End of the entries added so far.
  uint32_t data_end() const { return data_end_; }
  // Size an entry would take if added now.
  uint32_t SizeIfAdded(Slice key, EntryValue value) const;

 private:
  uint8_t* page_;
  uint32_t page_size_;
  bool leaf_;
  uint32_t restart_interval_;
  uint32_t data_end_ = kPageHeaderSize;
  uint32_t count_ = 0;
  uint32_t since_restart_ = 0;
  // Restart offsets are kept at the end of the page, last first, while
  // entries are added (Add keeps room for them), and put in order by Finish:
  // a builder allocates nothing.
  uint32_t restarts_ = 0;
  uint32_t last_key_size_ = 0;
  uint8_t last_key_[kMaxKeySize];
};

// Every entry of a page with its whole key, for splits, merges and rebuilds.
// Keys live in `arena`; payloads point into `source`, a copy of the page.
struct DecodedEntry {
  uint32_t key_offset;
  uint32_t key_size;
  uint32_t field;
  uint32_t payload_offset;  // into the source copy
  uint32_t payload_size;
  uint32_t encoded_size;  // bytes the entry took in its page
};
struct DecodedNode {
  std::string source;  // copy of the page bytes
  std::string arena;   // whole keys, back to back
  std::vector<DecodedEntry> entries;
  Slice key(size_t i) const {
    return Slice(arena.data() + entries[i].key_offset, entries[i].key_size);
  }
  EntryValue value(size_t i) const {
    return EntryValue{entries[i].field,
                      Slice(source.data() + entries[i].payload_offset, entries[i].payload_size)};
  }
};
// Appends every entry of a trusted page to `out` (out->source must be empty or
// the same page: DecodeNode copies the page into it first when empty).
void DecodeNode(const uint8_t* page, uint32_t page_size, DecodedNode* out);

// The shortest key s with `left` < s <= `right` (requires left < right).
std::string ShortestSeparator(Slice left, Slice right);

// Length of the common prefix of a and b.
uint32_t CommonPrefix(Slice a, Slice b);

// Checks a node page read from disk so that the trusted functions above are
// safe on it: bounds of every entry and of the restart array, restart entries
// with shared = 0, exact shared lengths, strictly increasing keys, key sizes
// at most kMaxKeySize, internal pages' empty first key. The caller checks the
// page type and level it expects. Corruption with the reason otherwise.
Status ValidateNodePage(const uint8_t* page, uint32_t page_size, uint32_t page_no);

}  // namespace pbtree
