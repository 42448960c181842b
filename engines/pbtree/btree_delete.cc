// The delete path: erase, then free empty pages and merge underfull ones
// (used bytes below a quarter page) with a sibling when both fit one page.
// There is no redistribution between siblings: Reorganize() restores full
// pages when a workload leaves many half-empty ones.
#include <cstring>

#include "engines/pbtree/btree.h"

namespace pbtree {

Status TreeWriter::Delete(Slice key) {
  if (tree_->root == 0 || key.size() > kMaxKeySize) return Status::NotFound();
  PBTREE_RETURN_IF_ERROR(Descend(key, 0));
  {
    const uint8_t* page;
    PBTREE_RETURN_IF_ERROR(pager_->Read(path_.back().page, kNoSnapshot, &page));
    if (!NodePage(const_cast<uint8_t*>(page), page_size_).Seek(key).exact) {
      return Status::NotFound();
    }
  }
  PBTREE_RETURN_IF_ERROR(MakePathWritable());
  NodePage leaf(pager_->DirtyData(path_.back().page), page_size_);
  const SeekResult r = leaf.Seek(key);
  EntryView e = leaf.Entry(r.pos);
  if (e.field & 1) PBTREE_RETURN_IF_ERROR(FreeOverflow(e));
  leaf.Erase(r);
  --tree_->entries;
  return Rebalance();
}

Status TreeWriter::Rebalance() {
  for (size_t i = path_.size() - 1; i > 0; --i) {
    NodePage node(pager_->DirtyData(path_[i].page), page_size_);
    if (node.count() > 0 && node.used_bytes() >= page_size_ / 4) break;
    if (node.count() == 0) {
      pager_->FreePage(path_[i].page);
      PBTREE_RETURN_IF_ERROR(RemoveChildEntry(i - 1));
      continue;
    }
    bool merged = false;
    PBTREE_RETURN_IF_ERROR(MergeWithSibling(i, &merged));
    if (!merged) break;
  }
  return ShrinkRoot();
}

Status TreeWriter::RemoveChildEntry(size_t parent_index) {
  uint8_t* data = pager_->DirtyData(path_[parent_index].page);
  NodePage parent(data, page_size_);
  const uint32_t pos = path_[parent_index].pos;
  if (pos != kPageHeaderSize) {
    KeyAt(parent, pos, &key_scratch_);
    parent.Erase(parent.Seek(key_scratch_));
    return Status::OK();
  }
  // The first entry goes: the next one becomes first and loses its key (the
  // first key of an internal page is always empty). Rebuild the page. The
  // rebuilt page can need more bytes than the old one, whose in-place inserts
  // made restart blocks up to twice the interval long: then the interval
  // doubles until it fits, as with one restart (every key prefix-compressed
  // against the one before) it takes fewer bytes than before.
  decoded_.source.clear();
  decoded_.arena.clear();
  decoded_.entries.clear();
  DecodeNode(data, page_size_, &decoded_);
  const size_t n = decoded_.entries.size();
  page_scratch_.resize(page_size_);
  uint8_t* fresh = reinterpret_cast<uint8_t*>(page_scratch_.data());
  for (uint32_t interval = options_.internal_restart_interval;; interval *= 2) {
    NodeBuilder builder(fresh, page_size_, PageType::kInternal, GetLevel(data), interval);
    size_t i = 1;
    while (i < n && builder.Add(i == 1 ? Slice() : decoded_.key(i), decoded_.value(i))) ++i;
    if (i == n || interval >= n) {
      if (i != n) return Status::Corruption(pager_->path() + ": internal page does not shrink");
      builder.Finish();
      std::memcpy(data, fresh, page_size_);
      return Status::OK();
    }
  }
}

Status TreeWriter::MergeWithSibling(size_t index, bool* merged) {
  *merged = false;
  const Level& up = path_[index - 1];
  NodePage parent(pager_->DirtyData(up.page), page_size_);
  uint32_t left_pos, right_pos;
  const uint32_t after = parent.Next(up.pos);
  if (after < parent.data_end()) {
    left_pos = up.pos;
    right_pos = after;
  } else if (up.pos != kPageHeaderSize) {
    left_pos = PrevEntry(parent, up.pos);
    right_pos = up.pos;
  } else {
    return Status::OK();  // an only child: nothing to merge with
  }
  const uint32_t level = GetLevel(pager_->DirtyData(path_[index].page));
  // Both children writable (the one on the path already is).
  uint32_t children[2];
  const uint32_t positions[2] = {left_pos, right_pos};
  for (int k = 0; k < 2; ++k) {
    uint32_t child = parent.ChildAt(positions[k]);
    const uint8_t* unused;
    PBTREE_RETURN_IF_ERROR(ReadNode(pager_, child, level, kNoSnapshot, &unused));
    uint8_t* data;
    uint32_t writable;
    PBTREE_RETURN_IF_ERROR(pager_->MakeWritable(child, &writable, &data));
    if (writable != child) parent.SetChild(positions[k], writable);
    children[k] = writable;
  }
  uint8_t* left = pager_->DirtyData(children[0]);
  uint8_t* right = pager_->DirtyData(children[1]);
  const bool leaf = level == 0;

  decoded_.source.clear();
  decoded_.arena.clear();
  decoded_.entries.clear();
  DecodeNode(left, page_size_, &decoded_);
  const size_t left_count = decoded_.entries.size();
  DecodeNode(right, page_size_, &decoded_);
  // The right page's first key is empty in an internal page; the parent's
  // separator takes its place.
  if (!leaf) KeyAt(parent, right_pos, &separator_);

  page_scratch_.resize(page_size_);
  NodeBuilder builder(reinterpret_cast<uint8_t*>(page_scratch_.data()), page_size_,
                      leaf ? PageType::kLeaf : PageType::kInternal, static_cast<uint8_t>(level),
                      leaf ? options_.leaf_restart_interval : options_.internal_restart_interval);
  for (size_t i = 0; i < decoded_.entries.size(); ++i) {
    Slice k = (!leaf && i == left_count) ? Slice(separator_) : decoded_.key(i);
    if (!builder.Add(k, decoded_.value(i))) return Status::OK();  // does not fit: leave both
  }
  builder.Finish();
  std::memcpy(left, page_scratch_.data(), page_size_);
  pager_->FreePage(children[1]);
  KeyAt(parent, right_pos, &key_scratch_);
  parent.Erase(parent.Seek(key_scratch_));
  *merged = true;
  return Status::OK();
}

Status TreeWriter::ShrinkRoot() {
  while (tree_->root != 0) {
    const uint8_t* page;
    PBTREE_RETURN_IF_ERROR(pager_->Read(tree_->root, kNoSnapshot, &page));
    NodePage root(const_cast<uint8_t*>(page), page_size_);
    if (root.count() == 0) {
      pager_->FreePage(tree_->root);
      *tree_ = TreeState{};
      return Status::OK();
    }
    if (root.is_leaf() || root.count() > 1) return Status::OK();
    const uint32_t child = root.ChildAt(kPageHeaderSize);
    pager_->FreePage(tree_->root);
    tree_->root = child;
    --tree_->depth;
  }
  return Status::OK();
}

}  // namespace pbtree
