// Building node pages from sorted entries, and decoding them back.
#include <cassert>
#include <cstring>

#include "engines/pbtree/node_page.h"

namespace pbtree {

NodeBuilder::NodeBuilder(uint8_t* page, uint32_t page_size, PageType type, uint8_t level,
                         uint32_t restart_interval)
    : page_(page),
      page_size_(page_size),
      leaf_(type == PageType::kLeaf),
      restart_interval_(restart_interval < 1 ? 1 : restart_interval) {
  InitHeader(page, type, level);  // Finish zeroes the free space
}

uint32_t NodeBuilder::SizeIfAdded(Slice key, EntryValue value) const {
  const bool restart = count_ == 0 || since_restart_ >= restart_interval_;
  const uint32_t shared =
      restart ? 0 : CommonPrefix(Slice(reinterpret_cast<const char*>(last_key_), last_key_size_), key);
  const uint32_t unshared = static_cast<uint32_t>(key.size()) - shared;
  return EntryHeaderSize(leaf_, shared, unshared, value.field) + unshared +
         static_cast<uint32_t>(value.payload.size()) + (restart ? 2 : 0);
}

bool NodeBuilder::Add(Slice key, EntryValue value) {
  assert(key.size() <= kMaxKeySize);
  const bool restart = count_ == 0 || since_restart_ >= restart_interval_;
  const uint32_t shared =
      restart ? 0 : CommonPrefix(Slice(reinterpret_cast<const char*>(last_key_), last_key_size_), key);
  const uint32_t unshared = static_cast<uint32_t>(key.size()) - shared;
  const uint32_t size = EntryHeaderSize(leaf_, shared, unshared, value.field) + unshared +
                        static_cast<uint32_t>(value.payload.size());
  const size_t restart_bytes = 2 * (restarts_ + (restart ? 1 : 0));
  if (data_end_ + size + restart_bytes > page_size_) return false;

  uint8_t* p = page_ + data_end_;
  p = PutEntryHeader(p, leaf_, shared, unshared, value.field);
  if (unshared > 0) std::memcpy(p, key.data() + shared, unshared);
  p += unshared;
  if (!value.payload.empty()) std::memcpy(p, value.payload.data(), value.payload.size());
  if (restart) {
    ++restarts_;
    EncodeFixed16(page_ + page_size_ - 2 * restarts_, static_cast<uint16_t>(data_end_));
    since_restart_ = 0;
  }
  ++since_restart_;
  data_end_ += size;
  ++count_;
  if (unshared > 0) std::memcpy(last_key_ + shared, key.data() + shared, unshared);
  last_key_size_ = static_cast<uint32_t>(key.size());
  return true;
}

void NodeBuilder::Finish() {
  EncodeFixed16(page_ + kOffCount, static_cast<uint16_t>(count_));
  EncodeFixed16(page_ + kOffRestarts, static_cast<uint16_t>(restarts_));
  EncodeFixed16(page_ + kOffDataEnd, static_cast<uint16_t>(data_end_));
  uint8_t* base = page_ + page_size_ - 2 * restarts_;
  // Free space is zero, so a page's bytes depend only on its entries.
  std::memset(page_ + data_end_, 0, base - (page_ + data_end_));
  // The offsets were stored last first: reverse them into ascending order.
  for (uint32_t i = 0, j = restarts_; i + 1 < j; ++i, --j) {
    uint8_t a[2];
    std::memcpy(a, base + 2 * i, 2);
    std::memcpy(base + 2 * i, base + 2 * (j - 1), 2);
    std::memcpy(base + 2 * (j - 1), a, 2);
  }
}

void DecodeNode(const uint8_t* page, uint32_t page_size, DecodedNode* out) {
  const size_t base = out->source.size();
  out->source.append(reinterpret_cast<const char*>(page), page_size);
  NodePage node(const_cast<uint8_t*>(page), page_size);
  const uint32_t end = node.data_end();
  uint32_t prev_offset = 0;
  for (uint32_t pos = kPageHeaderSize; pos < end;) {
    EntryView e = node.Entry(pos);
    const uint32_t key_offset = static_cast<uint32_t>(out->arena.size());
    out->arena.append(out->arena, prev_offset, e.shared);
    out->arena.append(reinterpret_cast<const char*>(e.suffix), e.unshared);
    DecodedEntry d;
    d.key_offset = key_offset;
    d.key_size = e.shared + e.unshared;
    d.field = e.field;
    d.payload_offset = static_cast<uint32_t>(base + (e.payload - page));
    d.payload_size = e.payload_size;
    d.encoded_size = e.end - pos;
    out->entries.push_back(d);
    prev_offset = key_offset;
    pos = e.end;
  }
}

std::string ShortestSeparator(Slice left, Slice right) {
  const uint32_t lcp = CommonPrefix(left, right);
  return std::string(right.substr(0, lcp + 1));
}

}  // namespace pbtree
