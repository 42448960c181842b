// The write path: put, overflow chains, copy-on-write of the root-to-leaf
// path, and splits. Deletes and merges are in btree_delete.cc.
#include <algorithm>
#include <cstring>

#include "engines/pbtree/btree.h"
#include "engines/pbtree/hot.h"

namespace pbtree {

TreeWriter::TreeWriter(Pager* pager, TreeState* tree, const WriteOptions& options)
    : pager_(pager), tree_(tree), options_(options), page_size_(pager->page_size()) {
  path_.reserve(kMaxDepth);
}

void TreeWriter::SetFingerLower(const uint8_t* leaf_page) {
  const NodePage leaf(const_cast<uint8_t*>(leaf_page), page_size_);
  finger_has_lower_ = leaf.data_end() != kPageHeaderSize;
  if (!finger_has_lower_) return;
  // A page's first entry is a restart point: its whole key.
  const EntryView first = leaf.Entry(kPageHeaderSize);
  finger_lower_size_ = first.unshared;
  std::memcpy(finger_lower_, first.suffix, first.unshared);
}

PBTREE_HOT bool TreeWriter::ParentCovers(Slice key) const {
  return parent_valid_ && pager_->page_changes() == parent_changes_ &&
         path_.size() == tree_->depth &&
         !(key < Slice(reinterpret_cast<const char*>(parent_lower_), parent_lower_size_)) &&
         (!parent_has_upper_ || key < Slice(parent_upper_));
}

PBTREE_HOT Status TreeWriter::Descend(Slice key, uint32_t stop_level, std::string* upper,
                                      bool* has_upper) {
  const bool finger = stop_level == 0 && upper == &upper_;
  if (finger && ReuseFinger(key, has_upper)) return Status::OK();
  return DescendPages(key, stop_level, upper, has_upper, finger);
}

PBTREE_HOT Status TreeWriter::DescendPages(Slice key, uint32_t stop_level, std::string* upper,
                                           bool* has_upper, bool finger) {
  finger_valid_ = false;
  leaf_cached_ = false;
  if (has_upper != nullptr) *has_upper = false;
  uint32_t page_no = tree_->root;
  uint32_t level = tree_->depth - 1;
  bool rightmost = true;
  bool leftmost = true;  // every entry followed so far was the first of its page
  const bool resume = finger && ParentCovers(key);
  if (resume) {
    // The leaf's parent covers the key (another leaf of it, or the same
    // leaf after a split in place): start there, with its upper bound.
    path_.resize(tree_->depth - 2);
    page_no = parent_page_;
    rightmost = parent_rightmost_;
    level = 1;
    *upper = parent_upper_;
    *has_upper = parent_has_upper_;
    ++descents_.from_parent;
  } else {
    parent_valid_ = false;
    path_.clear();
    ++descents_.from_root;
  }
  uint32_t known = 0;  // leading bytes the key shares with every key of the page
  for (;; --level) {
    const uint8_t* page;
    PBTREE_RETURN_IF_ERROR(ReadNode(pager_, page_no, level, kNoSnapshot, &page));
    if (level == stop_level) {
      path_.push_back(Level{page_no, 0, rightmost});
      if (finger) {
        SetFingerLower(page);
        finger_known_ = known;
      }
      known_ = known;
      descent_changes_ = pager_->page_changes();
      parent_changes_ = descent_changes_;  // nothing changed during the descent
      return Status::OK();
    }
    if (finger && level == 1 && !resume) NoteParent(page_no, rightmost, *upper, *has_upper);
    NodePage node(const_cast<uint8_t*>(page), page_size_);
    const uint32_t pos = node.FindChildEntry(key, &known);
    if (finger && level == 2) SetParentLower(node, pos, leftmost);
    EntryView e = node.Entry(pos);
    if (upper != nullptr && e.end < node.data_end()) {
      // The entry after the child's bounds the child; deeper pages bound it
      // more tightly, so the last one found wins. It shares its first
      // `shared` bytes with the followed entry's key, and so with the key,
      // which lies between the two: it is rebuilt from the key and its suffix.
      EntryView next = node.Entry(e.end);
      upper->assign(key.data(), next.shared);
      upper->append(reinterpret_cast<const char*>(next.suffix), next.unshared);
      *has_upper = true;
    }
    path_.push_back(Level{page_no, pos, rightmost});
    rightmost = rightmost && e.end == node.data_end();
    leftmost = leftmost && pos == kPageHeaderSize;
    page_no = DecodeFixed32(e.payload);
    pager_->Prefetch(page_no);
  }
}

void TreeWriter::SetParentLower(const NodePage& node, uint32_t pos, bool leftmost) {
  // The entry followed here bounds the leaf's parent from below. An
  // internal page's first key is empty: then only the tree's leftmost
  // parent has a bound (none); any other gets no parent finger.
  parent_lower_size_ = 0;
  parent_valid_ = pos != kPageHeaderSize || leftmost;
  if (pos != kPageHeaderSize) parent_lower_size_ = node.CopyKey(pos, parent_lower_);
}

void TreeWriter::NoteParent(uint32_t page_no, bool rightmost, const std::string& upper,
                            bool has_upper) {
  parent_page_ = page_no;
  parent_rightmost_ = rightmost;
  parent_has_upper_ = has_upper;
  if (has_upper) parent_upper_ = upper;
}

Status TreeWriter::MakePathWritable() {
  for (size_t i = 0; i < path_.size(); ++i) {
    uint32_t page_no;
    uint8_t* data;
    PBTREE_RETURN_IF_ERROR(pager_->MakeWritable(path_[i].page, &page_no, &data));
    if (page_no == path_[i].page) continue;
    if (i == 0) {
      tree_->root = page_no;
    } else {
      NodePage(pager_->DirtyData(path_[i - 1].page), page_size_)
          .SetChild(path_[i - 1].pos, page_no);
    }
    path_[i].page = page_no;
  }
  return Status::OK();
}

Status TreeWriter::MakeLeafWritable() {
  if (!pager_->KeepsNumber(path_.back().page)) return MakePathWritable();
  uint32_t page_no;
  uint8_t* data;
  return pager_->MakeWritable(path_.back().page, &page_no, &data);
}

Status TreeWriter::WriteOverflow(Slice value, uint32_t* first_page) {
  const uint32_t per_page = page_size_ - kPageHeaderSize;
  uint8_t* prev = nullptr;
  for (size_t done = 0; done < value.size(); done += per_page) {
    uint32_t page_no;
    uint8_t* data;
    pager_->NewPage(&page_no, &data);
    InitPage(data, page_size_, PageType::kOverflow, 0);
    const size_t n = std::min<size_t>(per_page, value.size() - done);
    std::memcpy(data + kPageHeaderSize, value.data() + done, n);
    // Dirty pages stay in memory, so `prev` is still valid here.
    if (prev == nullptr) {
      *first_page = page_no;
    } else {
      EncodeFixed32(prev + kOffNext, page_no);
    }
    prev = data;
  }
  return Status::OK();
}

Status TreeWriter::FreeOverflow(const EntryView& entry) {
  const uint32_t per_page = page_size_ - kPageHeaderSize;
  const uint32_t length = entry.field >> 1;
  uint32_t page_no = DecodeFixed32(entry.payload);
  for (uint32_t n = (length + per_page - 1) / per_page; n > 0; --n) {
    const uint8_t* page;
    PBTREE_RETURN_IF_ERROR(pager_->Read(page_no, kNoSnapshot, &page));
    if (GetPageType(page) != PageType::kOverflow) {
      return Status::Corruption(pager_->path() + ": page " + std::to_string(page_no) +
                                " is not an overflow page");
    }
    const uint32_t next = GetNext(page);
    pager_->FreePage(page_no);
    page_no = next;
  }
  return Status::OK();
}

Status TreeWriter::EncodeValue(Slice value, EntryValue* encoded) {
  if (value.size() > (UINT32_MAX >> 1)) return Status::InvalidArgument("value longer than 2 GiB");
  const uint32_t length = static_cast<uint32_t>(value.size());
  if (length <= MaxInlineValue(page_size_)) {
    *encoded = EntryValue{length << 1, value};
    return Status::OK();
  }
  uint32_t first = 0;
  PBTREE_RETURN_IF_ERROR(WriteOverflow(value, &first));
  EncodeFixed32(overflow_ref_, first);
  *encoded = EntryValue{(length << 1) | 1, Slice(reinterpret_cast<char*>(overflow_ref_), 4)};
  return Status::OK();
}

Status TreeWriter::Put(Slice key, Slice value) {
  if (key.size() > kMaxKeySize) return KeyTooLong(key.size());
  EntryValue encoded;
  PBTREE_RETURN_IF_ERROR(EncodeValue(value, &encoded));
  if (tree_->root == 0) {
    uint32_t page_no;
    uint8_t* data;
    pager_->NewPage(&page_no, &data);
    NodeBuilder builder(data, page_size_, PageType::kLeaf, 0, options_.leaf_restart_interval);
    builder.Add(key, encoded);
    builder.Finish();
    *tree_ = TreeState{page_no, 1, 1};
    return Status::OK();
  }
  PBTREE_RETURN_IF_ERROR(Descend(key, 0));
  PBTREE_RETURN_IF_ERROR(MakeLeafWritable());
  return PutInLeaf(key, encoded);
}

Status TreeWriter::PutInLeaf(Slice key, EntryValue encoded) {
  NodePage leaf(pager_->DirtyData(path_.back().page), page_size_);
  const SeekResult r = leaf.Seek(key, known_);
  if (r.exact) {
    EntryView old = leaf.Entry(r.pos);
    if (old.field & 1) PBTREE_RETURN_IF_ERROR(FreeOverflow(old));
    if (leaf.ReplaceValue(r.pos, encoded)) return Status::OK();
    return Split(path_.size() - 1, key, encoded);
  }
  ++tree_->entries;
  if (leaf.Insert(r, key, encoded, options_.leaf_restart_interval)) {
    return Status::OK();
  }
  return Split(path_.size() - 1, key, encoded);
}

void TreeWriter::NotePut(uint32_t leaf, bool inserted, Slice key) {
  last_put_leaf_ = inserted ? leaf : 0;
  if (!inserted) return;
  last_put_size_ = static_cast<uint32_t>(key.size());
  constexpr size_t kTail = sizeof(last_put_tail_);
  if (key.size() >= kTail) {
    std::memcpy(last_put_tail_, key.data() + key.size() - kTail, kTail);
  } else {
    std::memcpy(last_put_tail_ + kTail - key.size(), key.data(), key.size());
  }
}

bool TreeWriter::FollowsLastPut(const NodePage& node, uint32_t page_no, const SeekResult& r) {
  if (page_no != last_put_leaf_ || r.pos <= kPageHeaderSize) return false;
  // The entry before the new key's place, compared by its size and the end
  // of its suffix (no key rebuilt).
  const EntryView e = node.Entry(r.prev != 0 ? r.prev : PrevEntry(node, r.pos));
  const size_t n = std::min<size_t>(e.unshared, sizeof(last_put_tail_));
  return n > 0 && e.shared + e.unshared == last_put_size_ &&
         std::memcmp(e.suffix + e.unshared - n, last_put_tail_ + sizeof(last_put_tail_) - n, n) ==
             0;
}

bool TreeWriter::PlanSplit(const NodePage& node, size_t index, Slice key, EntryValue value,
                           const SeekResult& r, SplitPlan* plan) {
  const uint32_t page_no = path_[index].page;
  const bool leaf = node.is_leaf();
  const uint8_t level = GetLevel(node.data());
  const uint32_t end = node.data_end();
  std::string& separator = split_separators_[level];
  // Puts in increasing order into this leaf (FollowsLastPut): cut at the
  // new key's place, so that the left half ends full with it.
  const bool sequential = leaf && !r.exact && FollowsLastPut(node, page_no, r);
  plan->append = !r.exact && r.pos == end && (path_[index].rightmost || sequential);
  if (plan->append) {
    // Appending at the right edge of the tree, or after the last put at the
    // end of a leaf: the page stays full and the entry starts the next one
    // (an internal page's with the empty key).
    if (leaf) {
      uint32_t shared = r.prev_lcp;
      if (r.prev == 0) {
        const uint32_t size = node.CopyKey(LastEntry(node), before_cut_key_);
        shared = CommonPrefix(Slice(reinterpret_cast<const char*>(before_cut_key_), size), key);
      }
      separator.assign(key.data(), shared + 1);
    } else {
      separator.assign(key.data(), key.size());
    }
    plan->separator = separator;
    return true;
  }

  // Where to cut: the entry boundary nearest to the byte middle of the page
  // with the new entry in it (its size estimated as the old Split did).
  const int64_t old_size = r.exact ? node.Entry(r.pos).end - r.pos : 0;
  const int64_t new_size = 3 + static_cast<int64_t>(key.size()) - (r.prev != 0 ? r.prev_lcp : 0) +
                           static_cast<int64_t>(value.payload.size());
  const int64_t total = static_cast<int64_t>(end - kPageHeaderSize) + new_size - old_size;
  const int64_t entry_right = kPageHeaderSize + total / 2;         // the entry after the cut
  const int64_t entry_left = entry_right - (new_size - old_size);  // the entry before it
  // What an insert can need: the entry with its longest header, a restart
  // slot, and a byte more for the next entry's header.
  const uint64_t needed = 3 * kMaxVarint32Bytes + 3 + key.size() + value.payload.size();
  // After the last put, at the new key's place, when the left half can take it.
  const bool at_put = sequential && node.HeadUsedBytes(r.pos) + needed <= page_size_;
  int64_t target = r.pos;  // the entry is about the middle: cut at it
  if (!at_put && r.pos >= entry_right) {
    target = entry_right;
  } else if (!at_put && r.pos < entry_left) {
    target = entry_left;
  }
  const uint32_t cut = node.CutNear(static_cast<uint32_t>(
      std::clamp<int64_t>(target, kPageHeaderSize, static_cast<int64_t>(end))));
  if (cut == 0) return false;
  // A new key at the cut ends the left half (an internal page's right half
  // starts with the key handed to the parent).
  const bool into_left = r.exact ? r.pos < cut : r.pos <= cut;
  const uint32_t cut_key_size = node.CopyKey(cut, cut_key_);
  const Slice cut_key(reinterpret_cast<const char*>(cut_key_), cut_key_size);
  const uint32_t used = into_left ? node.HeadUsedBytes(cut) : node.TailUsedBytes(cut, cut_key_size);
  if (used + needed > page_size_) return false;

  // The separator: leaves hand up the shortest key between the two halves,
  // internal pages the right half's first key (which it then stores empty).
  if (leaf) {
    uint32_t shared;
    if (!r.exact && r.pos == cut) {
      shared = CommonPrefix(key, cut_key);  // the new key ends the left half
    } else if (!node.IsRestart(cut)) {
      shared = node.Entry(cut).shared;  // exact: the common prefix with the key before
    } else {
      const uint32_t size = node.CopyKey(PrevEntry(node, cut), before_cut_key_);
      shared = CommonPrefix(Slice(reinterpret_cast<const char*>(before_cut_key_), size), cut_key);
    }
    separator.assign(cut_key.data(), shared + 1);
  } else {
    separator.assign(cut_key.data(), cut_key.size());
  }
  plan->separator = separator;
  plan->cut = cut;
  plan->cut_key = cut_key;
  plan->into_left = into_left;
  return true;
}

Status TreeWriter::CutAsPlanned(NodePage* node, size_t index, const SplitPlan& plan, Slice key,
                                EntryValue value, uint32_t new_page, uint8_t* new_data) {
  const bool leaf = node->is_leaf();
  const uint32_t interval =
      leaf ? options_.leaf_restart_interval : options_.internal_restart_interval;
  if (plan.append) {
    if (leaf) NotePut(new_page, true, key);
    InitPage(new_data, page_size_, GetPageType(node->data()), GetLevel(node->data()));
    NodePage fresh(new_data, page_size_);
    const Slice first = leaf ? key : Slice();
    fresh.Insert(fresh.Seek(first), first, value, interval);
    return Status::OK();
  }
  node->MoveTail(plan.cut, plan.cut_key, new_data);
  NodePage half(plan.into_left ? node->data() : new_data, page_size_);
  const SeekResult at = half.Seek(key);
  const bool fits =
      at.exact ? half.ReplaceValue(at.pos, value) : half.Insert(at, key, value, interval);
  if (!fits) return Status::Corruption(pager_->path() + ": a split half cannot take its entry");
  if (leaf) NotePut(plan.into_left ? path_[index].page : new_page, !at.exact, key);
  return Status::OK();
}

Status TreeWriter::SplitInTwo(size_t index, Slice key, EntryValue value, bool* done) {
  *done = false;
  NodePage node(pager_->DirtyData(path_[index].page), page_size_);
  const SeekResult r = node.Seek(key);
  if (r.exact && !node.is_leaf()) {
    return Status::Corruption(pager_->path() + ": separator already present");
  }
  SplitPlan plan;
  if (!PlanSplit(node, index, key, value, r, &plan)) return Status::OK();
  uint32_t new_page;
  uint8_t* new_data;
  pager_->NewPage(&new_page, &new_data);
  PBTREE_RETURN_IF_ERROR(CutAsPlanned(&node, index, plan, key, value, new_page, new_data));
  *done = true;
  return InsertIntoParent(index, plan.separator, new_page);
}

Status TreeWriter::SplitInPlace(NodePage* leaf, const Item& item, const SeekResult& r, bool* done) {
  *done = false;
  const size_t index = path_.size() - 1;
  if (index == 0) return Status::OK();  // the root: a new root goes the usual way
  const uint64_t changes_before = pager_->page_changes();
  uint8_t* parent_data;
  // The leaf, its parent and the new page.
  pager_->WriteInPlaceAlso(path_[index - 1].page, 3, &parent_data);
  if (parent_data == nullptr) return Status::OK();
  NodePage parent(parent_data, page_size_);
  SplitPlan plan;
  SeekResult at;
  // The separator goes into the parent first, with its child set after:
  // Insert changes nothing when the entry does not fit. From there on
  // nothing can fail.
  EncodeFixed32(child_ref_, 0);
  const EntryValue child{0, Slice(reinterpret_cast<char*>(child_ref_), 4)};
  if (!PlanSplit(*leaf, index, item.key, item.value, r, &plan) ||
      (at = parent.Seek(plan.separator)).exact ||
      !parent.Insert(at, plan.separator, child, options_.internal_restart_interval)) {
    pager_->UndoInPlaceAlso(path_[index - 1].page);
    return Status::OK();
  }
  uint32_t new_page;
  uint8_t* new_data;
  pager_->NewPage(&new_page, &new_data);
  // Found again: an insert that cuts a restart block in two moves entries.
  parent.SetChild(parent.Seek(plan.separator).pos, new_page);
  // The parent kept its number and place, and its bounds: the next descent
  // may still start there (Descend).
  if (parent_changes_ == changes_before) parent_changes_ = pager_->page_changes();
  *done = true;
  ++tree_->entries;
  return CutAsPlanned(leaf, index, plan, item.key, item.value, new_page, new_data);
}

Status TreeWriter::InsertIntoParent(size_t index, Slice separator, uint32_t child) {
  PBTREE_RETURN_IF_ERROR(MakePathWritable());  // the parents change now
  if (index == 0) {
    // The root split: a new root above it, with the old root as first child.
    const uint8_t level = GetLevel(pager_->DirtyData(path_[0].page));
    uint32_t root;
    uint8_t* root_data;
    pager_->NewPage(&root, &root_data);
    InitPage(root_data, page_size_, PageType::kInternal, static_cast<uint8_t>(level + 1));
    NodePage fresh(root_data, page_size_);
    EncodeFixed32(child_ref_, path_[0].page);
    fresh.Insert(fresh.Seek(Slice()), Slice(),
                 EntryValue{0, Slice(reinterpret_cast<char*>(child_ref_), 4)},
                 options_.internal_restart_interval);
    tree_->root = root;
    ++tree_->depth;
    if (tree_->depth > kMaxDepth) return Status::Corruption("tree deeper than the format allows");
    path_.insert(path_.begin(), Level{root, kPageHeaderSize, true});
    index = 1;
  }
  return AddChild(index - 1, separator, child);
}

Status TreeWriter::AddChild(size_t index, Slice separator, uint32_t child) {
  NodePage node(pager_->DirtyData(path_[index].page), page_size_);
  EncodeFixed32(child_ref_, child);
  const EntryValue value{0, Slice(reinterpret_cast<char*>(child_ref_), 4)};
  const SeekResult r = node.Seek(separator);
  if (r.exact) return Status::Corruption(pager_->path() + ": separator already present");
  if (node.Insert(r, separator, value, options_.internal_restart_interval)) {
    return Status::OK();
  }
  return Split(index, separator, value);
}

Status TreeWriter::Split(size_t index, Slice key, EntryValue value) {
  bool done = false;
  PBTREE_RETURN_IF_ERROR(SplitInTwo(index, key, value, &done));
  if (done) return Status::OK();
  PBTREE_RETURN_IF_ERROR(MakePathWritable());  // the parents change too
  // Large entries: rebuild the page's entries with the new one into as many
  // pages as they need.
  const uint32_t page_no = path_[index].page;
  uint8_t* data = pager_->DirtyData(page_no);
  const bool leaf = GetPageType(data) == PageType::kLeaf;
  const uint8_t level = GetLevel(data);
  const PageType type = leaf ? PageType::kLeaf : PageType::kInternal;
  const uint32_t interval =
      leaf ? options_.leaf_restart_interval : options_.internal_restart_interval;

  decoded_.source.clear();
  decoded_.arena.clear();
  decoded_.entries.clear();
  DecodeNode(data, page_size_, &decoded_);
  const size_t n = decoded_.entries.size();
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (decoded_.key(mid) < key) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  const bool replace = lo < n && decoded_.key(lo) == key;
  items_.clear();
  for (size_t i = 0; i < n; ++i) {
    if (i == lo) items_.push_back(Item{key, value});
    if (i == lo && replace) continue;
    items_.push_back(Item{decoded_.key(i), decoded_.value(i)});
  }
  if (lo == n) items_.push_back(Item{key, value});
  const size_t m = items_.size();

  // Builds items [begin, end) into parts_[part]; false when they do not fit.
  // A right part of an internal page gives its first key to the parent.
  auto build = [&](size_t part, size_t begin, size_t end) {
    if (parts_.size() <= part) parts_.resize(part + 1);
    parts_[part].resize(page_size_);
    NodeBuilder builder(reinterpret_cast<uint8_t*>(parts_[part].data()), page_size_, type, level,
                        interval);
    for (size_t i = begin; i < end; ++i) {
      Slice k = (!leaf && i == begin) ? Slice() : items_[i].key;
      if (!builder.Add(k, items_[i].value)) return false;
    }
    builder.Finish();
    return true;
  };

  // Two pages when possible: split where the encoded bytes halve, or, when
  // appending at the right edge of the tree (sequential inserts), keep the
  // left page full and start the right one with the new entry.
  part_starts_.clear();
  size_t split = 1;
  if (m < 2) {
    // Only the greedy fill below applies.
  } else if (!replace && lo == n && path_[index].rightmost) {
    split = m - 1;
  } else {
    // Sizes as encoded in the old page; the new entry's estimated.
    auto size_of = [&](size_t i) -> uint64_t {
      if (i == lo) {
        const uint32_t shared = i == 0 ? 0 : CommonPrefix(items_[i - 1].key, key);
        return 3 + key.size() - shared + value.payload.size();
      }
      return decoded_.entries[i < lo || replace ? i : i - 1].encoded_size;
    };
    uint64_t total = 0;
    for (size_t i = 0; i < m; ++i) total += size_of(i);
    uint64_t acc = 0;
    for (split = 0; split < m - 1; ++split) {
      acc += size_of(split);
      if (2 * acc >= total) {
        ++split;
        break;
      }
    }
    split = std::clamp<size_t>(split, 1, m - 1);
  }
  if (m >= 2 && build(0, 0, split) && build(1, split, m)) {
    part_starts_ = {0, split};
  } else {
    // Some entries are large: fill pages one after the other. Every entry
    // fits an empty page on its own, so each page takes at least one.
    for (size_t begin = 0; begin < m;) {
      const size_t part = part_starts_.size();
      if (parts_.size() <= part) parts_.resize(part + 1);
      parts_[part].resize(page_size_);
      NodeBuilder builder(reinterpret_cast<uint8_t*>(parts_[part].data()), page_size_, type, level,
                          interval);
      size_t i = begin;
      for (; i < m; ++i) {
        Slice k = (!leaf && i == begin) ? Slice() : items_[i].key;
        if (!builder.Add(k, items_[i].value)) break;
      }
      builder.Finish();
      part_starts_.push_back(begin);
      begin = i;
    }
  }

  // Separators (copied: items_ and decoded_ are reused by the parent's split).
  std::vector<std::string> separators;
  std::vector<uint32_t> pages;
  for (size_t j = 1; j < part_starts_.size(); ++j) {
    const size_t s = part_starts_[j];
    separators.push_back(leaf ? ShortestSeparator(items_[s - 1].key, items_[s].key)
                              : std::string(items_[s].key));
  }
  std::memcpy(data, parts_[0].data(), page_size_);
  for (size_t j = 1; j < part_starts_.size(); ++j) {
    uint32_t new_page;
    uint8_t* new_data;
    pager_->NewPage(&new_page, &new_data);
    std::memcpy(new_data, parts_[j].data(), page_size_);
    pages.push_back(new_page);
  }

  if (index == 0) {
    // The root split: a new root above it, with the old root as first child.
    uint32_t root;
    uint8_t* root_data;
    pager_->NewPage(&root, &root_data);
    NodeBuilder builder(root_data, page_size_, PageType::kInternal, static_cast<uint8_t>(level + 1),
                        options_.internal_restart_interval);
    EncodeFixed32(child_ref_, page_no);
    builder.Add(Slice(), EntryValue{0, Slice(reinterpret_cast<char*>(child_ref_), 4)});
    builder.Finish();
    tree_->root = root;
    ++tree_->depth;
    if (tree_->depth > kMaxDepth) return Status::Corruption("tree deeper than the format allows");
  }
  for (size_t j = 0; j < pages.size(); ++j) {
    PBTREE_RETURN_IF_ERROR(InsertSeparator(level + 1, separators[j], pages[j]));
  }
  return Status::OK();
}

Status TreeWriter::InsertSeparator(uint32_t level, Slice separator, uint32_t child) {
  // Descending by the separator reaches the page that now covers it, even if
  // an earlier separator of the same split made that page split.
  PBTREE_RETURN_IF_ERROR(Descend(separator, level));
  PBTREE_RETURN_IF_ERROR(MakePathWritable());
  return AddChild(path_.size() - 1, separator, child);
}

}  // namespace pbtree
