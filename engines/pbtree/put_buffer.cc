#include "engines/pbtree/put_buffer.h"

#include "engines/pbtree/btree.h"
#include "engines/pbtree/sort_keys.h"

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
  if (entries_.size() == 1) {
    // One put (a one-key commit): nothing to sort.
    const Entry& e = entries_[0];
    Status s = writer->PutOne(Slice(base + e.offset, e.key_size),
                              Slice(base + e.offset + e.key_size, e.value_size));
    Clear();
    return s;
  }
  auto key_of = [&](uint32_t i) {
    return Slice(base + entries_[i].offset, entries_[i].key_size);
  };
  keys_.resize(entries_.size());
  for (uint32_t i = 0; i < entries_.size(); ++i) keys_[i] = key_of(i);
  // Equal keys stay in arrival order, so the last put of a key wins.
  SortKeys(keys_, &order_);
  // The last put of each key, in key order.
  sorted_.clear();
  for (size_t j = 0; j < order_.size(); ++j) {
    const uint32_t i = order_[j];
    if (j + 1 < order_.size() && keys_[order_[j + 1]] == keys_[i]) continue;
    const Entry& e = entries_[i];
    sorted_.push_back(SortedPut{key_of(i), Slice(base + e.offset + e.key_size, e.value_size)});
  }
  Status s = writer->PutSorted(sorted_.data(), sorted_.size());
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
