// Lookups and helpers shared by the tree's readers and writers.
#include <algorithm>
#include <cstring>

#include "engines/pbtree/btree.h"

namespace pbtree {

Status ReadNode(Pager* pager, uint32_t page_no, uint32_t level, uint64_t view,
                const uint8_t** page) {
  PBTREE_RETURN_IF_ERROR(pager->Read(page_no, view, page));
  const PageType want = level == 0 ? PageType::kLeaf : PageType::kInternal;
  if (GetPageType(*page) != want || GetLevel(*page) != level) {
    return Status::Corruption(pager->path() + ": page " + std::to_string(page_no) +
                              " is not the tree page its parent names (level " +
                              std::to_string(level) + ")");
  }
  return Status::OK();
}

Status ReadEntryValue(Pager* pager, const EntryView& entry, std::string* value) {
  const uint32_t length = entry.field >> 1;
  if (!(entry.field & 1)) {
    value->assign(reinterpret_cast<const char*>(entry.payload), length);
    return Status::OK();
  }
  // The entry's page may be evicted by the reads below: take what we need.
  uint32_t page_no = DecodeFixed32(entry.payload);
  const uint32_t per_page = pager->page_size() - kPageHeaderSize;
  value->resize(length);
  uint32_t done = 0;
  while (done < length) {
    if (page_no == 0) {
      return Status::Corruption(pager->path() + ": overflow chain shorter than its value");
    }
    const uint8_t* page;
    // Overflow pages are written once and never changed: one version.
    PBTREE_RETURN_IF_ERROR(pager->Read(page_no, kNoSnapshot, &page));
    if (GetPageType(page) != PageType::kOverflow) {
      return Status::Corruption(pager->path() + ": page " + std::to_string(page_no) +
                                " is not an overflow page");
    }
    const uint32_t n = std::min(per_page, length - done);
    std::memcpy(value->data() + done, page + kPageHeaderSize, n);
    done += n;
    page_no = GetNext(page);
  }
  return Status::OK();
}

Status TreeGet(Pager* pager, const TreeState& tree, uint64_t view, Slice key, std::string* value) {
  if (tree.root == 0) return Status::NotFound();
  const uint32_t page_size = pager->page_size();
  uint32_t page_no = tree.root;
  const uint8_t* page;
  uint32_t known = 0;  // leading bytes the key shares with every key of the page
  for (uint32_t level = tree.depth - 1; level > 0; --level) {
    PBTREE_RETURN_IF_ERROR(ReadNode(pager, page_no, level, view, &page));
    NodePage node(const_cast<uint8_t*>(page), page_size);
    page_no = node.ChildAt(node.FindChildEntry(key, &known));
    pager->PrefetchChild(page_no, /*leaf=*/level == 1);
  }
  PBTREE_RETURN_IF_ERROR(ReadNode(pager, page_no, 0, view, &page));
  NodePage leaf(const_cast<uint8_t*>(page), page_size);
  SeekResult r = leaf.Seek(key, known);
  if (!r.exact) return Status::NotFound();
  return ReadEntryValue(pager, leaf.Entry(r.pos), value);
}

void KeyAt(const NodePage& node, uint32_t pos, std::string* key) {
  uint32_t p = node.restart_offset(node.BlockOf(pos));
  key->clear();
  for (;;) {
    EntryView e = node.Entry(p);
    key->resize(e.shared);
    key->append(reinterpret_cast<const char*>(e.suffix), e.unshared);
    if (p == pos) return;
    p = e.end;
  }
}

uint32_t PrevEntry(const NodePage& node, uint32_t pos) {
  uint32_t block = node.BlockOf(pos);
  if (node.restart_offset(block) == pos) --block;
  uint32_t p = node.restart_offset(block);
  for (;;) {
    uint32_t next = node.Next(p);
    if (next >= pos) return p;
    p = next;
  }
}

uint32_t LastEntry(const NodePage& node) {
  uint32_t p = node.restart_offset(node.restarts() - 1);
  const uint32_t end = node.data_end();
  for (;;) {
    uint32_t next = node.Next(p);
    if (next >= end) return p;
    p = next;
  }
}

}  // namespace pbtree
