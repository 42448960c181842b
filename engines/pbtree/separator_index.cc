#include "engines/pbtree/separator_index.h"

#include <algorithm>
#include <new>
#include <string>

#include "engines/pbtree/node_page.h"

namespace pbtree {

SeparatorIndex* SeparatorIndex::Build(const uint8_t* page, uint32_t page_size) {
  NodePage node(const_cast<uint8_t*>(page), page_size);
  const uint32_t n = node.count();
  // Whole keys first, to size the one allocation.
  std::string keys;
  std::vector<uint32_t> ends, children;
  std::vector<uint16_t> positions;
  uint32_t previous = 0;  // offset of the previous key in `keys`
  for (uint32_t pos = kPageHeaderSize; pos < node.data_end();) {
    const EntryView e = node.EntryAt(pos, /*leaf=*/false);
    const uint32_t start = static_cast<uint32_t>(keys.size());
    keys.append(keys, previous, e.shared);
    keys.append(reinterpret_cast<const char*>(e.suffix), e.unshared);
    previous = start;
    ends.push_back(static_cast<uint32_t>(keys.size()));
    children.push_back(DecodeFixed32(e.payload));
    positions.push_back(static_cast<uint16_t>(pos));
    pos = e.end;
  }
  void* block = ::operator new (sizeof(SeparatorIndex) + 10 * size_t{n} + keys.size());
  SeparatorIndex* index = new (block) SeparatorIndex();
  index->count_ = n;
  index->key_bytes_ = static_cast<uint32_t>(keys.size());
  uint8_t* out = reinterpret_cast<uint8_t*>(index + 1);
  std::memcpy(out, ends.data(), 4 * size_t{n});
  std::memcpy(out + 4 * size_t{n}, children.data(), 4 * size_t{n});
  std::memcpy(out + 8 * size_t{n}, positions.data(), 2 * size_t{n});
  std::memcpy(out + 10 * size_t{n}, keys.data(), keys.size());
  return index;
}

void SeparatorIndex::Free(SeparatorIndex* index) {
  if (index == nullptr) return;
  index->~SeparatorIndex();
  ::operator delete(index);
}

uint32_t SeparatorIndex::Find(Slice target, uint32_t* known) const {
  const uint8_t* t = reinterpret_cast<const uint8_t*>(target.data());
  const size_t tn = target.size();
  const uint8_t* keys = this->keys();
  const uint8_t* ends = this->ends();
  // Entries [lo, hi) may hold the answer; entry 0's empty key is below any
  // target, so the search never compares it.
  uint32_t lo = 0, hi = count_;
  size_t lcp_lo = std::min<size_t>(*known, tn), lcp_hi = lcp_lo;
  while (hi - lo > 1) {
    const uint32_t mid = (lo + hi) / 2;
    const uint32_t start = Load32(ends + 4 * (mid - 1));
    const uint8_t* k = keys + start;
    const size_t kn = Load32(ends + 4 * mid) - start;
    const size_t n = std::min(kn, tn);
    const size_t skip = std::min(std::min(lcp_lo, lcp_hi), n);
    const size_t c = skip + MismatchAt(k + skip, t + skip, n - skip);
    bool below;
    if (c == n) {
      if (kn == tn) {  // the target is this separator
        *known = static_cast<uint32_t>(std::min(tn, lcp_hi));
        return mid;
      }
      below = kn < tn;  // a proper prefix of the target is below it
    } else {
      below = k[c] < t[c];
    }
    if (below) {
      lo = mid;
      lcp_lo = c;
    } else {
      hi = mid;
      lcp_hi = c;
    }
  }
  *known = static_cast<uint32_t>(std::min(lcp_lo, lcp_hi));
  return lo;
}

}  // namespace pbtree
