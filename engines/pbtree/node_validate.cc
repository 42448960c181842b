// Validation of node pages read from disk (contract in node_page.h).
#include <cstring>

#include "engines/pbtree/node_page.h"

namespace pbtree {
namespace {

Status Bad(uint32_t page_no, const char* what) {
  return Status::Corruption("page " + std::to_string(page_no) + ": " + what);
}

}  // namespace

Status ValidateNodePage(const uint8_t* page, uint32_t page_size, uint32_t page_no) {
  const PageType type = GetPageType(page);
  if (type != PageType::kLeaf && type != PageType::kInternal) return Bad(page_no, "not a node page");
  const bool leaf = type == PageType::kLeaf;
  const uint32_t level = GetLevel(page);
  if (leaf != (level == 0) || level >= kMaxDepth) return Bad(page_no, "bad level");
  const uint32_t count = GetCount(page);
  const uint32_t nr = DecodeFixed16(page + kOffRestarts);
  const uint32_t end = DecodeFixed16(page + kOffDataEnd);
  if (count == 0 || nr == 0 || nr > count) return Bad(page_no, "bad entry or restart count");
  if (end < kPageHeaderSize || end + 2 * nr > page_size) return Bad(page_no, "bad data end");
  const uint8_t* restarts = page + page_size - 2 * nr;

  uint8_t key[kMaxKeySize];
  uint32_t key_size = 0;
  uint32_t next_restart = 0;
  uint32_t n = 0;
  uint32_t pos = kPageHeaderSize;
  const uint8_t* limit = page + end;
  while (pos < end) {
    const bool is_restart = next_restart < nr && DecodeFixed16(restarts + 2 * next_restart) == pos;
    if (n == 0 && !is_restart) return Bad(page_no, "first entry is not a restart");
    uint32_t shared, unshared, field = 0;
    const uint8_t* p = DecodeVarint32(page + pos, limit, &shared);
    if (p != nullptr) p = DecodeVarint32(p, limit, &unshared);
    if (p != nullptr && leaf) p = DecodeVarint32(p, limit, &field);
    if (p == nullptr) return Bad(page_no, "truncated entry header");
    if (is_restart && shared != 0) return Bad(page_no, "restart entry shares a prefix");
    if (shared > key_size) return Bad(page_no, "shared prefix longer than previous key");
    if (unshared > kMaxKeySize - shared) return Bad(page_no, "key too long");
    uint32_t payload = (!leaf || (field & 1)) ? 4 : field >> 1;
    if (static_cast<uint64_t>(limit - p) < static_cast<uint64_t>(unshared) + payload) {
      return Bad(page_no, "entry runs past the data end");
    }
    const uint8_t* suffix = p;
    if (n == 0) {
      if (!leaf && unshared != 0) return Bad(page_no, "first internal key is not empty");
    } else if (is_restart) {
      size_t m = unshared < key_size ? unshared : key_size;
      int c = std::memcmp(suffix, key, m);
      if (c < 0 || (c == 0 && unshared <= key_size)) return Bad(page_no, "keys out of order");
    } else {
      if (unshared == 0) return Bad(page_no, "duplicate key");
      if (shared < key_size && suffix[0] <= key[shared]) {
        return Bad(page_no, "keys out of order or shared prefix not exact");
      }
    }
    std::memcpy(key + shared, suffix, unshared);
    key_size = shared + unshared;
    if (is_restart) ++next_restart;
    pos = static_cast<uint32_t>((p - page) + unshared + payload);
    ++n;
  }
  if (pos != end) return Bad(page_no, "entries do not end at the data end");
  if (n != count) return Bad(page_no, "entry count mismatch");
  if (next_restart != nr) return Bad(page_no, "restart offsets do not match entries");
  return Status::OK();
}

}  // namespace pbtree
