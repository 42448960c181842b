#include "engines/pbtree/sort_keys.h"

#include <algorithm>
#include <cstring>
#include <utility>

namespace pbtree {
namespace {

// Key bytes compared per step: 15, so that a 16th byte can say where the key
// ends and one 128-bit comparison orders two keys at this depth.
constexpr size_t kStep = 15;
constexpr uint64_t kContinues = kStep;

// A key at the current depth: its next 15 bytes as a big-endian integer
// (zero-padded past its end), then a byte holding how many of them it has
// (kContinues when it has all 15, and maybe more). A key that ends sorts
// before a longer one with the same padded bytes, which it prefixes.
struct Slot {
  uint64_t hi;  // bytes 0-7
  uint64_t lo;  // bytes 8-14, then the length byte
  uint32_t index;
  bool continues() const { return (lo & 0xff) == kContinues; }
};

inline bool ByteLess(const Slot& a, const Slot& b) {
  return a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo);
}
inline bool SameBytes(const Slot& a, const Slot& b) { return a.hi == b.hi && a.lo == b.lo; }

void Fill(const Slice* keys, Slot* s, size_t n, size_t depth) {
  for (size_t i = 0; i < n; ++i) {
    const Slice& k = keys[s[i].index];
    const size_t left = k.size() - depth;
    uint64_t w[2] = {0, 0};
    uint64_t length = kContinues;
    if (left >= 16) {
      std::memcpy(w, k.data() + depth, 16);
    } else {
      std::memcpy(w, k.data() + depth, std::min(left, kStep));
      length = std::min<uint64_t>(left, kContinues);
    }
    s[i].hi = __builtin_bswap64(w[0]);
    s[i].lo = (__builtin_bswap64(w[1]) & ~uint64_t{0xff}) | length;
  }
}

// Groups this small are sorted by insertion, comparing the filled bytes and
// only on a tie the keys' remaining bytes.
constexpr size_t kSmallGroup = 16;

void SortSmall(const Slice* keys, Slot* s, size_t n, size_t depth) {
  // Keys of one directory share tens of bytes: step over them together.
  for (;;) {
    size_t same = 1;
    while (same < n && SameBytes(s[same], s[0])) ++same;
    if (same < n || n < 2 || !s[0].continues()) break;
    depth += kStep;
    Fill(keys, s, n, depth);
  }
  auto less = [&](const Slot& a, const Slot& b) {
    if (a.hi != b.hi) return a.hi < b.hi;
    if (a.lo != b.lo) return a.lo < b.lo;
    if (a.continues()) {
      const int c =
          keys[a.index].substr(depth + kStep).compare(keys[b.index].substr(depth + kStep));
      if (c != 0) return c < 0;
    }
    return a.index < b.index;
  };
  for (size_t i = 1; i < n; ++i) {
    const Slot v = s[i];
    size_t j = i;
    for (; j > 0 && less(v, s[j - 1]); --j) s[j] = s[j - 1];
    s[j] = v;
  }
}

// Sorts s[0, n), keys whose first `depth` bytes are equal, by three-way
// partitioning on their next kStep bytes (multikey quicksort with kStep-byte
// characters): the keys equal to the pivot there go on to depth + kStep, the
// others stay at this depth. `filled`: the slots already hold this depth's
// bytes.
void SortGroup(const Slice* keys, Slot* s, size_t n, size_t depth, bool filled) {
  if (!filled) Fill(keys, s, n, depth);
  while (n > kSmallGroup) {
    Slot a = s[0], b = s[n / 2], c = s[n - 1];
    if (ByteLess(b, a)) std::swap(a, b);
    if (ByteLess(c, b)) b = ByteLess(c, a) ? a : c;
    const Slot pivot = b;  // the median of three
    size_t lt = 0, i = 0, gt = n;
    while (i < gt) {
      if (ByteLess(s[i], pivot)) {
        std::swap(s[lt++], s[i++]);
      } else if (ByteLess(pivot, s[i])) {
        std::swap(s[i], s[--gt]);
      } else {
        ++i;
      }
    }
    if (pivot.continues()) {
      if (gt - lt > 1) SortGroup(keys, s + lt, gt - lt, depth + kStep, false);
    } else {
      // Equal keys (they end here): by index.
      std::sort(s + lt, s + gt, [](const Slot& x, const Slot& y) { return x.index < y.index; });
    }
    // The smaller side by recursion, the larger by the loop: the stack stays
    // logarithmic in n at each depth.
    if (lt < n - gt) {
      SortGroup(keys, s, lt, depth, true);
      s += gt;
      n -= gt;
    } else {
      SortGroup(keys, s + gt, n - gt, depth, true);
      n = lt;
    }
  }
  SortSmall(keys, s, n, depth);
}

}  // namespace

void SortKeys(const std::vector<Slice>& keys, std::vector<uint32_t>* order) {
  if (keys.size() <= 1) {
    order->assign(keys.size(), 0);
    return;
  }
  std::vector<Slot> slots(keys.size());
  for (size_t i = 0; i < keys.size(); ++i) slots[i].index = static_cast<uint32_t>(i);
  SortGroup(keys.data(), slots.data(), slots.size(), 0, false);
  order->resize(keys.size());
  for (size_t i = 0; i < slots.size(); ++i) (*order)[i] = slots[i].index;
}

}  // namespace pbtree
