#include "engines/pbtree/put_buffer.h"

#include <algorithm>
#include <cstring>

#include "engines/pbtree/btree.h"

namespace pbtree {

bool PutBuffer::Add(Slice key, Slice value) {
  entries_.push_back(Entry{arena_.size(), static_cast<uint32_t>(key.size()),
                           static_cast<uint32_t>(value.size())});
  arena_.append(key);
  arena_.append(value);
  return entries_.size() >= kMaxEntries || arena_.size() >= kMaxBytes;
}

Status PutBuffer::Apply(TreeWriter* writer) {
  if (entries_.empty()) return Status::OK();
  const char* base = arena_.data();
  auto key_of = [&](uint32_t i) {
    return Slice(base + entries_[i].offset, entries_[i].key_size);
  };
  order_.resize(entries_.size());
  for (uint32_t i = 0; i < order_.size(); ++i) order_[i] = i;
  // Equal keys stay in arrival order, so the last put of a key wins.
  std::sort(order_.begin(), order_.end(), [&](uint32_t a, uint32_t b) {
    const int c = key_of(a).compare(key_of(b));
    return c < 0 || (c == 0 && a < b);
  });
  Status s;
  writer->ResetFinger();
  for (size_t j = 0; j < order_.size(); ++j) {
    if (j + 1 < order_.size()) __builtin_prefetch(base + entries_[order_[j + 1]].offset);
    const uint32_t i = order_[j];
    const Entry& e = entries_[i];
    s = writer->PutAscending(key_of(i), Slice(base + e.offset + e.key_size, e.value_size));
    if (!s.ok()) break;
  }
  writer->ResetFinger();
  Clear();
  return s;
}

void PutBuffer::Clear() {
  arena_.clear();
  entries_.clear();
  // Keep the memory of a normal-sized batch for the next one.
  if (arena_.capacity() > 2 * kMaxBytes) arena_.shrink_to_fit();
}

}  // namespace pbtree
