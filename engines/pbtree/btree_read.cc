// Lookups and helpers shared by the tree's readers and writers.
#include <algorithm>
#include <cstring>

#include "engines/pbtree/btree.h"
#include "engines/pbtree/hot.h"

namespace pbtree {

PBTREE_HOT Status ReadNode(Pager* pager, uint32_t page_no, uint32_t level, uint64_t view,
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

Status KeyTooLong(size_t key_size) {
  return Status::InvalidArgument("key of " + std::to_string(key_size) + " bytes (at most " +
                                 std::to_string(kMaxKeySize) + ")");
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

namespace {

// Descends from the root of `tree` to the leaf whose range holds `key`: its
// page number, and in *known the leading bytes the key shares with every key
// there. kBounds: also the separator that bounds that leaf from above, in
// upper[0, *upper_size) (kMaxKeySize bytes), or *upper_size = UINT32_MAX when
// it is the tree's last leaf. (A template so that a lookup's descent, inlined
// into it, carries none of that.)
template <bool kBounds>
Status FindLeaf(Pager* pager, const TreeState& tree, uint64_t view, Slice key, uint32_t* leaf,
                uint32_t* known, uint8_t* upper, uint32_t* upper_size) {
  const uint32_t page_size = pager->page_size();
  uint32_t page_no = tree.root;
  *known = 0;
  if (kBounds) *upper_size = UINT32_MAX;
  for (uint32_t level = tree.depth - 1; level > 0; --level) {
    const uint8_t* page;
    PBTREE_RETURN_IF_ERROR(ReadNode(pager, page_no, level, view, &page));
    NodePage node(const_cast<uint8_t*>(page), page_size);
    const EntryView e = node.Entry(node.FindChildEntry(key, known));
    if (kBounds && e.end < node.data_end()) {
      // The entry after the child's bounds it, deeper pages more tightly. It
      // shares its first `shared` bytes with the followed entry's key, and
      // so with the key, which lies between the two (TreeWriter::Descend).
      const EntryView next = node.Entry(e.end);
      if (next.shared > key.size() || next.shared + next.unshared > kMaxKeySize) {
        return Status::Corruption(pager->path() + ": page " + std::to_string(page_no) +
                                  " has a key that does not bound its child");
      }
      std::memcpy(upper, key.data(), next.shared);
      std::memcpy(upper + next.shared, next.suffix, next.unshared);
      *upper_size = next.shared + next.unshared;
    }
    page_no = DecodeFixed32(e.payload);
    pager->PrefetchChild(page_no, /*leaf=*/level == 1);
  }
  *leaf = page_no;
  return Status::OK();
}

// The leaf a thread's lookups found last, per thread (Tokyo Cabinet's B+tree
// keeps such a "history leaf"): a lookup whose key lies within that leaf's
// bounds reads it without the descent. It is keyed by the open file
// (Pager::id) and the snapshot: in one snapshot of one file a page number
// names the same bytes for as long as any reader can use that snapshot, so
// the bounds cannot go stale (a lookup of snapshot `view` holds it pinned,
// and a snapshot can be pinned again only while it is the last commit). The
// writer's own view (kNoSnapshot) changes under it and never uses it. The
// bounds are taken only when two descents in a row end at the same leaf, so
// lookups spread over the tree pay one comparison of ids for it.
struct ReadFinger {
  uint64_t pager_id = 0;  // 0: none
  uint64_t view = 0;
  uint32_t root = 0;
  uint32_t leaf = 0;
  bool covers = false;  // lower and upper hold the leaf's bounds
  uint32_t lower_size = 0;
  uint32_t upper_size = 0;          // UINT32_MAX: the last leaf, no upper bound
  uint8_t lower[kMaxKeySize] = {};  // the leaf's first key
  uint8_t upper[kMaxKeySize] = {};  // the separator above the leaf

  bool Covers(const Pager* pager, const TreeState& tree, uint64_t v, Slice key) const {
    if (!covers || pager_id != pager->id() || view != v || root != tree.root) return false;
    if (key < Slice(reinterpret_cast<const char*>(lower), lower_size)) return false;
    return upper_size == UINT32_MAX ||
           key < Slice(reinterpret_cast<const char*>(upper), upper_size);
  }

  // A descent for `key` ended at `page_no`: whether it is the second in a
  // row there (then TakeBounds).
  bool Again(const Pager* pager, const TreeState& tree, uint64_t v, uint32_t page_no) {
    const bool again = pager_id == pager->id() && view == v && root == tree.root && leaf == page_no;
    covers = false;
    pager_id = pager->id();
    view = v;
    root = tree.root;
    leaf = page_no;
    return again;
  }

  // The bounds of the leaf that Again named: a second descent for `key`
  // that keeps the separator above it, and the leaf's first key.
  [[gnu::noinline]] Status TakeBounds(Pager* pager, const TreeState& tree, Slice key) {
    uint32_t found = 0;
    uint32_t known;
    PBTREE_RETURN_IF_ERROR(
        FindLeaf<true>(pager, tree, view, key, &found, &known, upper, &upper_size));
    const uint8_t* page;
    PBTREE_RETURN_IF_ERROR(ReadNode(pager, leaf, 0, view, &page));
    NodePage node(const_cast<uint8_t*>(page), pager->page_size());
    if (found != leaf || node.data_end() == kPageHeaderSize) return Status::OK();
    // A page's first entry is a restart point: its whole key.
    const EntryView first = node.Entry(kPageHeaderSize);
    if (first.shared != 0 || first.unshared > kMaxKeySize) return Status::OK();
    std::memcpy(lower, first.suffix, first.unshared);
    lower_size = first.unshared;
    covers = true;
    return Status::OK();
  }
};

thread_local ReadFinger tls_finger;

}  // namespace

Status TreeGet(Pager* pager, const TreeState& tree, uint64_t view, Slice key, std::string* value) {
  if (tree.root == 0) return Status::NotFound();
  ReadFinger* finger = view == kNoSnapshot ? nullptr : &tls_finger;
  uint32_t page_no;
  uint32_t known = 0;  // leading bytes the key shares with every key of the leaf
  if (finger != nullptr && finger->Covers(pager, tree, view, key)) {
    page_no = finger->leaf;
  } else {
    PBTREE_RETURN_IF_ERROR(
        FindLeaf<false>(pager, tree, view, key, &page_no, &known, nullptr, nullptr));
    if (finger != nullptr && finger->Again(pager, tree, view, page_no)) {
      PBTREE_RETURN_IF_ERROR(finger->TakeBounds(pager, tree, key));
    }
  }
  const uint8_t* page;
  PBTREE_RETURN_IF_ERROR(ReadNode(pager, page_no, 0, view, &page));
  NodePage leaf(const_cast<uint8_t*>(page), pager->page_size());
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
