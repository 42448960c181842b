// Search and in-place edits of node pages; the layout is in node_page.h.
#include "engines/pbtree/node_page.h"

#include <algorithm>
#include <cassert>
#include <cstring>

#include "engines/pbtree/hot.h"

namespace pbtree {
uint32_t CommonPrefix(Slice a, Slice b) {
  size_t n = std::min(a.size(), b.size());
  return static_cast<uint32_t>(MismatchAt(reinterpret_cast<const uint8_t*>(a.data()),
                                          reinterpret_cast<const uint8_t*>(b.data()), n));
}

uint32_t NodePage::BlockOf(uint32_t pos) const {
  uint32_t lo = 0, hi = restarts() - 1;
  while (lo < hi) {
    uint32_t mid = (lo + hi + 1) / 2;
    if (restart_offset(mid) <= pos) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  return lo;
}

PBTREE_HOT SeekResult NodePage::Seek(Slice target, uint32_t known) const {
  return is_leaf() ? SeekLeaf(target, known, /*prefetch=*/true) : SeekInternal(target, known);
}

// Out of line and not templates: GCC places a template's instances in
// sections of their own, outside the hot run (hot.h).
PBTREE_HOT SeekResult NodePage::SeekLeaf(Slice target, uint32_t known, bool prefetch) const {
  return SeekIn<true>(target, known, prefetch);
}

PBTREE_HOT SeekResult NodePage::SeekInternal(Slice target, uint32_t known) const {
  return SeekIn<false>(target, known, /*prefetch=*/true);
}

template <bool kLeaf>
SeekResult NodePage::SeekIn(Slice target, uint32_t known, bool prefetch) const {
  // A search is mostly waiting for memory: ask for the lines it will touch
  // early and all at once (the restart array at the end of the page, the
  // restart entries, then the chosen block) instead of one miss at a time.
  if (prefetch) __builtin_prefetch(page_ + page_size_ - 64);
  SeekResult r;
  const uint32_t nr = restarts();
  const uint32_t end = data_end();
  if (nr == 0) {
    r.pos = end;
    r.pos_is_restart = true;
    return r;
  }
  const uint8_t* t = reinterpret_cast<const uint8_t*>(target.data());
  const size_t tn = target.size();
  constexpr bool leaf = kLeaf;

  if (prefetch && nr <= 8) {
    for (uint32_t i = 1; i < nr; ++i) __builtin_prefetch(page_ + restart_offset(i));
  }
  // The last restart whose (whole) key is <= target; block 0 when none is.
  // Comparing a restart key also gives its common prefix with the target,
  // which the scan of its block starts from. The restarts in [lo, hi] share
  // at least min(lcp_lo, lcp_hi) bytes with the target (LCP bounds, starting
  // from what the caller knows), so each comparison starts there.
  uint32_t lo = 0, hi = nr - 1;
  const size_t known_bytes = std::min<size_t>(known, tn);
  size_t lcp_lo = known_bytes, lcp_hi = known_bytes;
  uint32_t lo_lcp = 0;
  bool lo_probed = false;
  size_t above_lcp = 0;  // common prefix of the last restart found above the target
  while (lo < hi) {
    const uint32_t mid = (lo + hi + 1) / 2;
    const uint32_t off = restart_offset(mid);
    EntryView e = EntryAt(off, leaf);
    const size_t n = std::min<size_t>(e.unshared, tn);
    const size_t skip = std::min(std::min(lcp_lo, lcp_hi), n);
    const size_t c = skip + MismatchAt(e.suffix + skip, t + skip, n - skip);
    if (c == n && e.unshared == tn) {
      r.pos = off;
      r.block = mid;
      r.exact = true;
      r.next_lcp = static_cast<uint32_t>(tn);
      r.pos_is_restart = true;
      return r;
    }
    const bool below = c == n ? e.unshared < tn : e.suffix[c] < t[c];
    if (below) {
      lo = mid;
      lo_lcp = static_cast<uint32_t>(c);
      lo_probed = true;
      lcp_lo = c;
    } else {
      hi = mid - 1;
      lcp_hi = c;
      above_lcp = c;
    }
  }
  const uint32_t block = lo;
  const uint32_t block_end = block + 1 < nr ? restart_offset(block + 1) : end;
  r.block = block;
  // If the scan runs to the end of the block, the next entry is the restart
  // the search last found above the target (block + 1).
  r.next_lcp = static_cast<uint32_t>(above_lcp);
  // The scan stops halfway through the block on average. Seven lines after
  // the restart's, the last ones clamped to the page (a fixed count, without
  // a loop's tests: lines past the block's end cost a little bandwidth).
  if (prefetch) {
    const uint32_t first_line = restart_offset(block) + 64;
    const uint32_t last_line = page_size_ - 64;
    for (uint32_t i = 0; i < 7; ++i) {
      __builtin_prefetch(page_ + std::min(first_line + 64 * i, last_line));
    }
  }

  // Scan the block keeping m = common prefix of the last key below the target
  // and the target. An entry sharing more than m bytes with that key is still
  // below the target; one sharing fewer is above it; only an entry sharing
  // exactly m bytes needs its suffix compared.
  uint32_t pos = restart_offset(block);
  uint32_t prev = 0;
  uint32_t m = 0;
  uint32_t in_block = 0;
  if (lo_probed) {
    // The restart key is below the target: start after it.
    prev = pos;
    pos = EntryAt(pos, leaf).end;
    m = lo_lcp;
    in_block = 1;
  }
  while (pos < block_end) {
    if (in_block > 0) {
      // Most entries of a scan are stepped over without a decoded EntryView:
      // with one-byte lengths (the common case) their first four bytes
      // decide. An entry sharing more than m bytes with the key before it
      // is below the target; so is one sharing exactly m whose first suffix
      // byte is below the target's byte m (the key's first m bytes are the
      // target's, so its common prefix with the target stays m): keys that
      // share a long prefix and then differ early, as URLs in one directory
      // do, give many of those. (A loop of its own, so that the compiler
      // keeps it in registers.) The target's byte m; with no such byte, no
      // first byte is below it.
      const uint32_t target_byte = m < tn ? t[m] : 0;
      // (Pointers, not offsets: 32-bit offsets cost each step moves to widen
      // them into addresses.)
      const uint8_t* at = page_ + pos;
      const uint8_t* before = page_ + prev;
      const uint8_t* const stop = page_ + block_end;
      uint32_t stepped = 0;
      for (;;) {
        const uint32_t word = DecodeFixed32(at);
        if (!ShortHeader(word, leaf)) break;
        const uint32_t shared = word & 0xff;
        // Sharing fewer bytes, or a first byte not below the target's: the
        // full comparison below decides. (An entry after a block's first
        // always has a suffix: keys strictly increase, so none is a prefix
        // of the key before it.)
        if (shared < m || (shared == m && FirstSuffixByte(word, leaf) >= target_byte)) break;
        before = at;
        at += ShortEntrySize(word, leaf);
        ++stepped;
        if (at >= stop) break;
      }
      pos = static_cast<uint32_t>(at - page_);
      prev = static_cast<uint32_t>(before - page_);
      in_block += stepped;
      if (pos >= block_end) break;
    }
    EntryView e = EntryAt(pos, leaf);
    // The entry's key is its first `base` bytes (shared with the previous
    // key) and its suffix; its first `skip` bytes equal the target's.
    size_t base = 0, skip;
    if (in_block > 0) {
      if (e.shared > m) {
        prev = pos;
        pos = e.end;
        ++in_block;
        continue;
      }
      if (e.shared < m) {
        r.next_lcp = e.shared;
        break;
      }
      base = skip = m;
    } else {
      skip = std::min<size_t>(known_bytes, e.unshared);  // a restart: its whole key
    }
    const size_t key_size = base + e.unshared;
    const size_t n = std::min(key_size, tn);
    const size_t c = skip + MismatchAt(e.suffix + (skip - base), t + skip, n - skip);
    bool below;
    if (c == n) {
      if (key_size == tn) {
        r.exact = true;
        r.next_lcp = static_cast<uint32_t>(tn);
        break;
      }
      below = key_size < tn;  // the stored key is a proper prefix of the target
    } else {
      below = e.suffix[c - base] < t[c];
    }
    if (!below) {
      r.next_lcp = static_cast<uint32_t>(c);
      break;
    }
    m = static_cast<uint32_t>(c);
    prev = pos;
    pos = e.end;
    ++in_block;
  }
  r.pos = pos;
  r.prev = prev;
  r.prev_lcp = prev == 0 ? 0 : m;
  r.in_block = in_block;
  r.pos_is_restart = pos == block_end || in_block == 0;
  return r;
}

PBTREE_HOT uint32_t NodePage::FindChildEntry(Slice target, uint32_t* known) const {
  const uint32_t inherited = known != nullptr ? *known : 0;
  SeekResult r = Seek(target, inherited);
  // The first key of an internal page is empty, so prev is set unless the
  // target equals a restart key (exact) or is the empty key.
  const uint32_t entry = (r.exact || r.prev == 0) ? r.pos : r.prev;
  if (known != nullptr) {
    // Bounds of the child: the entry's key (the page's own lower bound for
    // the empty first key; the target itself when equal) and the next key
    // (the page's own upper bound after the last entry).
    const uint32_t lower = entry == kPageHeaderSize ? inherited
                           : r.exact                ? static_cast<uint32_t>(target.size())
                                                    : r.prev_lcp;
    const bool has_next = r.exact ? Next(r.pos) < data_end() : r.pos < data_end();
    const uint32_t upper = !has_next ? inherited : r.exact ? inherited : r.next_lcp;
    *known = std::min(lower, upper);
  }
  return entry;
}

void NodePage::ShiftRestarts(uint32_t after, int delta, bool include_equal) {
  const uint32_t nr = restarts();
  uint8_t* base = page_ + page_size_ - 2 * nr;
  for (uint32_t i = 0; i < nr; ++i) {
    uint32_t off = DecodeFixed16(base + 2 * i);
    if (off > after || (include_equal && off == after)) {
      EncodeFixed16(base + 2 * i, static_cast<uint16_t>(static_cast<int>(off) + delta));
    }
  }
}

void NodePage::InsertRestart(uint32_t index, uint32_t offset) {
  const uint32_t nr = restarts();
  uint8_t* base = page_ + page_size_ - 2 * nr;
  std::memmove(base - 2, base, 2 * index);
  EncodeFixed16(base - 2 + 2 * index, static_cast<uint16_t>(offset));
  EncodeFixed16(page_ + kOffRestarts, static_cast<uint16_t>(nr + 1));
}

void NodePage::RemoveRestart(uint32_t index) {
  const uint32_t nr = restarts();
  uint8_t* base = page_ + page_size_ - 2 * nr;
  std::memmove(base + 2, base, 2 * index);
  EncodeFixed16(page_ + kOffRestarts, static_cast<uint16_t>(nr - 1));
}

// The entries after an insert's position are counted one by one (each step
// reads the entry before it): a one-key commit spent half of its insert
// there. The count matters only near the limit, so it is taken only when one
// of two estimates from the block's bytes comes within an eighth of it: the
// entries before the insert's end as a sample of the block (its restart
// entry, which stores a whole key, left out), and the page's average entry.
// Blocks of entries of like sizes are cut exactly where the count alone
// would cut them; a block whose entries after the insert are much smaller
// than both the ones before it and the page's average is counted later, once
// its bytes reach the mark.
[[gnu::always_inline]] inline bool NodePage::MayExceed(const SeekResult& at, uint32_t new_end,
                                                       uint32_t block_end, uint32_t limit) const {
  if (at.in_block == 0) return true;  // the new entry starts the block: no sample
  const uint32_t block_start = restart_offset(at.block);
  const uint64_t sample_start = NextAt(block_start, is_leaf());
  const uint64_t sample_bytes = new_end - sample_start;  // at.in_block entries
  const uint64_t rest_bytes = block_end - sample_start;
  const uint64_t scaled_limit = 7 * uint64_t{limit};
  // 1 + in_block * rest / sample >= 7/8 limit
  if (8 * (sample_bytes + at.in_block * rest_bytes) >= scaled_limit * sample_bytes) return true;
  // block bytes / page average >= 7/8 limit
  const uint64_t block_bytes = block_end - block_start;
  return 8 * block_bytes * count() >= scaled_limit * (data_end() - kPageHeaderSize);
}

PBTREE_HOT bool NodePage::Insert(const SeekResult& at, Slice key, EntryValue value,
                                 uint32_t restart_interval) {
  const bool leaf = is_leaf();
  const uint32_t end = data_end();
  const uint32_t pos = at.pos;
  // prev == 0: the key goes first in its block (only possible in block 0) and
  // becomes the restart entry there.
  const bool at_block_start = at.prev == 0;
  const uint32_t shared = at_block_start ? 0 : at.prev_lcp;
  const uint32_t unshared = static_cast<uint32_t>(key.size()) - shared;

  // Headers are sized first and written in place after the move (a copy
  // from a buffer was a call each).
  const uint32_t new_size = EntryHeaderSize(leaf, shared, unshared, value.field) + unshared +
                            static_cast<uint32_t>(value.payload.size());

  // The following entry, if in the same block, is re-encoded against the new
  // key: its shared length can only grow, so it gives up `drop` suffix bytes.
  const bool reencode_next = pos < end && (at_block_start || !at.pos_is_restart);
  uint32_t next_unshared = 0, next_field = 0;
  uint32_t next_header_size = 0;
  uint32_t replaced = 0;  // bytes at pos that the new bytes replace
  if (reencode_next) {
    EntryView k = Entry(pos);
    const uint32_t drop = at.next_lcp - k.shared;
    next_unshared = k.unshared - drop;
    next_field = k.field;
    next_header_size = EntryHeaderSize(leaf, at.next_lcp, next_unshared, next_field);
    replaced = k.header_size + drop;
  }
  const bool new_restart = at_block_start && pos == end;
  const int delta = static_cast<int>(new_size + next_header_size) - static_cast<int>(replaced);
  const int needed = delta + (new_restart ? 2 : 0);
  if (needed > static_cast<int>(free_bytes())) return false;

  std::memmove(page_ + pos + replaced + delta, page_ + pos + replaced, end - pos - replaced);
  uint8_t* p = PutEntryHeader(page_ + pos, leaf, shared, unshared, value.field);
  if (unshared > 0) std::memcpy(p, key.data() + shared, unshared);
  p += unshared;
  if (!value.payload.empty()) std::memcpy(p, value.payload.data(), value.payload.size());
  p += value.payload.size();
  if (reencode_next) PutEntryHeader(p, leaf, at.next_lcp, next_unshared, next_field);

  EncodeFixed16(page_ + kOffDataEnd, static_cast<uint16_t>(end + delta));
  EncodeFixed16(page_ + kOffCount, static_cast<uint16_t>(count() + 1));
  if (new_restart) {
    InsertRestart(0, pos);
  } else {
    // A restart at pos keeps pointing at pos when the new key took its place
    // (block start); otherwise the entry at pos moved right.
    ShiftRestarts(pos, delta, !at_block_start);
  }

  // Keep restart blocks short so that searches stay cheap: a block that grew
  // past twice the interval is cut in two where it is (SplitBlock), which
  // touches one entry and the bytes after it instead of rebuilding the page.
  if (restart_interval > 0) {
    const uint32_t nr = restarts();
    const uint32_t block_end = at.block + 1 < nr ? restart_offset(at.block + 1) : data_end();
    if (MayExceed(at, pos + new_size, block_end, 2 * restart_interval)) {
      uint32_t in_block = at.in_block + 1;
      for (uint32_t q = pos + new_size; q < block_end; q = NextAt(q, leaf)) ++in_block;
      if (in_block > 2 * restart_interval) SplitBlock(at.block, in_block);
    }
  }
  return true;
}

bool NodePage::SplitBlock(uint32_t block, uint32_t entries) {
  const bool leaf = is_leaf();
  const uint32_t end = data_end();
  // The middle entry and its whole key.
  uint32_t q = restart_offset(block);
  for (uint32_t i = 0; i < entries / 2; ++i) q = NextAt(q, leaf);
  const EntryView e = EntryAt(q, leaf);
  uint8_t key[kMaxKeySize];
  const uint32_t key_size = CopyKey(q, key);
  // As a restart it stores its whole key: it grows by the prefix it shared
  // with the key before it (give or take a byte of header), plus the slot.
  uint8_t header[3 * kMaxVarint32Bytes];
  const uint32_t header_size =
      static_cast<uint32_t>(PutEntryHeader(header, leaf, 0, key_size, e.field) - header);
  const uint32_t old_bytes = e.header_size + e.unshared;
  const uint32_t new_bytes = header_size + key_size;
  const uint32_t delta = new_bytes - old_bytes;
  if (delta + 2 > free_bytes()) return false;
  std::memmove(page_ + q + new_bytes, page_ + q + old_bytes, end - q - old_bytes);
  std::memcpy(page_ + q, header, header_size);
  std::memcpy(page_ + q + header_size, key, key_size);
  EncodeFixed16(page_ + kOffDataEnd, static_cast<uint16_t>(end + delta));
  ShiftRestarts(q, static_cast<int>(delta), false);
  InsertRestart(block + 1, q);
  return true;
}

bool NodePage::ReplaceValue(uint32_t pos, EntryValue value) {
  assert(is_leaf());
  EntryView e = Entry(pos);
  const uint32_t end = data_end();
  uint8_t header[3 * kMaxVarint32Bytes];
  const uint32_t header_size = static_cast<uint32_t>(
      PutEntryHeader(header, true, e.shared, e.unshared, value.field) - header);
  const uint32_t new_size = header_size + e.unshared + static_cast<uint32_t>(value.payload.size());
  const int delta = static_cast<int>(new_size) - static_cast<int>(e.end - pos);
  if (delta > static_cast<int>(free_bytes())) return false;
  uint8_t suffix[kMaxKeySize];
  std::memcpy(suffix, e.suffix, e.unshared);
  std::memmove(page_ + e.end + delta, page_ + e.end, end - e.end);
  uint8_t* p = page_ + pos;
  std::memcpy(p, header, header_size);
  std::memcpy(p + header_size, suffix, e.unshared);
  if (!value.payload.empty()) {
    std::memcpy(p + header_size + e.unshared, value.payload.data(), value.payload.size());
  }
  EncodeFixed16(page_ + kOffDataEnd, static_cast<uint16_t>(end + delta));
  ShiftRestarts(pos, delta, false);
  return true;
}

void NodePage::Erase(const SeekResult& at) {
  const bool leaf = is_leaf();
  const uint32_t pos = at.pos;
  assert(at.exact && (leaf || pos != kPageHeaderSize));
  const uint32_t end = data_end();
  const uint32_t nr = restarts();
  EntryView e = Entry(pos);
  const bool e_is_restart = at.prev == 0;
  const uint32_t next = e.end;
  const bool next_is_restart = at.block + 1 < nr && restart_offset(at.block + 1) == next;
  const bool next_in_block = next < end && !next_is_restart;

  uint8_t bytes[3 * kMaxVarint32Bytes + kMaxKeySize];
  uint32_t new_bytes = 0;
  uint32_t replaced = e.end - pos;
  if (next_in_block) {
    // The next key loses its reference: it now shares min(e.shared, k.shared)
    // bytes with the key before the erased one and takes over the erased
    // key's bytes in between.
    EntryView k = Entry(next);
    const uint32_t ns = std::min(e.shared, k.shared);
    const uint32_t add = k.shared - ns;
    uint8_t* p = PutEntryHeader(bytes, leaf, ns, k.unshared + add, k.field);
    std::memcpy(p, e.suffix + (ns - e.shared), add);
    new_bytes = static_cast<uint32_t>(p - bytes) + add;
    replaced += k.header_size;
  } else if (e_is_restart) {
    RemoveRestart(at.block);
  }
  const int delta = static_cast<int>(new_bytes) - static_cast<int>(replaced);
  std::memmove(page_ + pos + replaced + delta, page_ + pos + replaced, end - pos - replaced);
  std::memcpy(page_ + pos, bytes, new_bytes);
  EncodeFixed16(page_ + kOffDataEnd, static_cast<uint16_t>(end + delta));
  EncodeFixed16(page_ + kOffCount, static_cast<uint16_t>(count() - 1));
  ShiftRestarts(pos, delta, false);
}

void NodePage::SetChild(uint32_t pos, uint32_t child) {
  EntryView e = Entry(pos);
  EncodeFixed32(page_ + (e.payload - page_), child);
}

uint32_t NodePage::CopyKey(uint32_t pos, uint8_t* out) const {
  const bool leaf = is_leaf();
  for (uint32_t p = restart_offset(BlockOf(pos));;) {
    const EntryView e = EntryAt(p, leaf);
    std::memcpy(out + e.shared, e.suffix, e.unshared);
    if (p == pos) return e.shared + e.unshared;
    p = e.end;
  }
}

uint32_t NodePage::CutNear(uint32_t target) const {
  const bool leaf = is_leaf();
  const uint32_t end = data_end();
  if (count() < 2) return 0;
  target = std::clamp<uint32_t>(target, kPageHeaderSize, end - 1);
  // The entry [p, e) holding the target byte; the nearer of its two ends
  // unless that is an end of the page.
  uint32_t p = restart_offset(BlockOf(target));
  uint32_t e = NextAt(p, leaf);
  while (e <= target) {
    p = e;
    e = NextAt(p, leaf);
  }
  const bool p_ok = p != kPageHeaderSize;
  const bool e_ok = e != end;
  if (p_ok && (!e_ok || target - p <= e - target)) return p;
  return e;  // e_ok: with two entries or more, one of the two ends is inside
}

uint32_t NodePage::HeadUsedBytes(uint32_t cut) const {
  const uint32_t block = BlockOf(cut);
  const uint32_t head_restarts = restart_offset(block) == cut ? block : block + 1;
  return cut + 2 * head_restarts;
}

uint32_t NodePage::TailUsedBytes(uint32_t cut, uint32_t cut_key_size) const {
  const bool leaf = is_leaf();
  const uint32_t end = data_end();
  const EntryView f = EntryAt(cut, leaf);
  uint32_t size = kPageHeaderSize;
  uint32_t from = f.end;
  if (leaf) {
    size += VarintLength(0) + VarintLength(cut_key_size) + VarintLength(f.field) + cut_key_size +
            f.payload_size;
  } else {
    size += VarintLength(0) + VarintLength(0) + 4;
    if (f.end < end) {
      const EntryView g = EntryAt(f.end, false);
      if (g.shared != 0) {
        const uint32_t k = g.shared + g.unshared;
        size += VarintLength(0) + VarintLength(k) + k + 4;
        from = g.end;
      }
    }
  }
  // The first entry is a restart, and so is every later restart entry.
  const uint32_t tail_restarts = 1 + (restarts() - BlockOf(cut) - 1);
  return size + (end - from) + 2 * tail_restarts;
}

void NodePage::MoveTail(uint32_t cut, Slice cut_key, uint8_t* right) {
  const bool leaf = is_leaf();
  const uint32_t end = data_end();
  const uint32_t nr = restarts();
  const uint32_t block = BlockOf(cut);
  const uint32_t head_restarts = restart_offset(block) == cut ? block : block + 1;

  // The right page: its first entry re-encoded, then the rest as it is.
  InitHeader(right, GetPageType(page_), GetLevel(page_));
  uint8_t* p = right + kPageHeaderSize;
  const EntryView f = EntryAt(cut, leaf);
  uint32_t from = f.end;
  if (leaf) {
    // A restart: its whole key.
    p = PutEntryHeader(p, true, 0, static_cast<uint32_t>(cut_key.size()), f.field);
    std::memcpy(p, cut_key.data(), cut_key.size());
    p += cut_key.size();
    std::memcpy(p, f.payload, f.payload_size);
    p += f.payload_size;
  } else {
    // The empty first key (the cut key goes to the parent); the entry after
    // it then shares nothing with the key before it and stores its whole key.
    p = PutEntryHeader(p, false, 0, 0, 0);
    std::memcpy(p, f.payload, 4);
    p += 4;
    if (f.end < end) {
      const EntryView g = EntryAt(f.end, false);
      if (g.shared != 0) {
        const uint32_t k = g.shared + g.unshared;
        p = PutEntryHeader(p, false, 0, k, 0);
        std::memcpy(p, cut_key.data(), g.shared);
        std::memcpy(p + g.shared, g.suffix, g.unshared);
        p += k;
        std::memcpy(p, g.payload, 4);
        p += 4;
        from = g.end;
      }
    }
  }
  const uint32_t copy_at = static_cast<uint32_t>(p - right);
  std::memcpy(p, page_ + from, end - from);
  const uint32_t right_end = copy_at + (end - from);
  uint32_t moved = 0;
  for (uint32_t q = cut; q < end; q = NextAt(q, leaf)) ++moved;
  // Restarts after the cut lie at or after `from` (an entry re-encoded above
  // is not one) and move with the copied bytes.
  const uint32_t right_restarts = nr - block;
  uint8_t* base = right + page_size_ - 2 * right_restarts;
  EncodeFixed16(base, static_cast<uint16_t>(kPageHeaderSize));
  for (uint32_t i = block + 1; i < nr; ++i) {
    EncodeFixed16(base + 2 * (i - block),
                  static_cast<uint16_t>(restart_offset(i) - from + copy_at));
  }
  EncodeFixed16(right + kOffCount, static_cast<uint16_t>(moved));
  EncodeFixed16(right + kOffRestarts, static_cast<uint16_t>(right_restarts));
  EncodeFixed16(right + kOffDataEnd, static_cast<uint16_t>(right_end));

  // This page: the entries before the cut and their restarts.
  uint8_t* old_base = page_ + page_size_ - 2 * nr;
  uint8_t* new_base = page_ + page_size_ - 2 * head_restarts;
  std::memmove(new_base, old_base, 2 * head_restarts);
  // Free space on either page keeps whatever bytes it had (node_page.h).
  EncodeFixed16(page_ + kOffCount, static_cast<uint16_t>(count() - moved));
  EncodeFixed16(page_ + kOffRestarts, static_cast<uint16_t>(head_restarts));
  EncodeFixed16(page_ + kOffDataEnd, static_cast<uint16_t>(cut));
}

}  // namespace pbtree
