// Cursor: a root-to-leaf path of (page, entry offset) pairs plus the whole
// current key. The cursor's reader slot stays announced between calls (so a
// move costs no fence) and is refreshed at the start of each public call.
//
// Pages are looked up again on a move to another page (an index into the
// cache's page table), except the current leaf of a snapshot cursor: its
// bytes are kept between calls together with the slot's epoch then, and used
// again while the slot still has that epoch. A frame may be reused only after
// it was retired (ReaderTable::Retire, which advances the table's epoch) and
// every other thread's slot has announced a later epoch; Refresh announces the
// later epoch at the start of the next call, and the kept pointer is dropped
// then. A snapshot's pages do not change while it is pinned (no in-place
// commit with a slot pinned, no reuse of its pages), so a kept pointer shows
// the bytes a new lookup would find. A write transaction's cursor keeps
// nothing: its transaction changes pages in place. With the calls' fast paths
// inline (Refresh, Stale, ThisThread), a 100-row scan runs 21% fewer
// instructions and pbtree_read_bench's BM_Scan100 went 6.7 -> 4.8 us
// (docs/reproductions.md, "pbtree, sixteenth round").
#include <algorithm>

#include "engines/pbtree/btree.h"
#include "engines/pbtree/pbtree.h"

namespace pbtree {

Cursor::Cursor(DB* db, uint32_t root, uint32_t depth, const TreeState* live,
               const uint64_t* version, ReaderSlot* slot)
    : db_(db),
      root_(root),
      depth_(depth),
      live_(live),
      version_(version),
      slot_(slot),
      view_(slot->snapshot.load(std::memory_order_relaxed)) {
  if (version_ != nullptr) seen_version_ = *version_;
  path_.reserve(kMaxDepth);
}

Cursor::~Cursor() { db_->pager_->readers().Release(slot_); }

inline void Cursor::Refresh() { db_->pager_->readers().Refresh(slot_); }

void Cursor::Fail(Status s) {
  status_ = std::move(s);
  valid_ = false;
}

// A write transaction changed since the cursor last moved: take the current
// working tree. The caller re-seeks.
inline bool Cursor::Stale() {
  if (live_ == nullptr) return false;
  return WorkingTreeChanged();
}

bool Cursor::WorkingTreeChanged() {
  if (db_->active_write_ != nullptr) {
    Status s = db_->active_write_->ApplyPuts();
    if (!s.ok()) status_ = s;
  }
  if (*version_ == seen_version_) return false;
  seen_version_ = *version_;
  root_ = live_->root;
  depth_ = live_->depth;
  return true;
}

bool Cursor::Descend(uint32_t page_no, uint32_t level, bool leftmost) {
  Pager* pager = db_->pager_.get();
  for (;;) {
    const uint8_t* page;
    Status s = ReadNode(pager, page_no, level, view_, &page);
    if (!s.ok()) {
      Fail(s);
      return false;
    }
    NodePage node(const_cast<uint8_t*>(page), pager->page_size());
    const uint32_t pos = leftmost ? kPageHeaderSize : LastEntry(node);
    path_.push_back(Level{page_no, pos});
    if (level == 0) {
      KeepLeaf(page_no, page);
      return LoadKey();
    }
    page_no = node.ChildAt(pos);
    --level;
  }
}

// The current leaf's bytes; nullptr after a failure (status_ says which).
[[gnu::always_inline]] inline const uint8_t* Cursor::Leaf() {
  if (leaf_data_ != nullptr && leaf_page_ == path_.back().page &&
      leaf_epoch_ == slot_->epoch.load(std::memory_order_relaxed)) {
    return leaf_data_;
  }
  return ReadLeaf();
}

const uint8_t* Cursor::ReadLeaf() {
  const uint8_t* page;
  Status s = db_->pager_->Read(path_.back().page, view_, &page);
  if (!s.ok()) {
    Fail(s);
    return nullptr;
  }
  KeepLeaf(path_.back().page, page);
  return page;
}

void Cursor::KeepLeaf(uint32_t page_no, const uint8_t* data) {
  if (live_ != nullptr) return;
  leaf_page_ = page_no;
  leaf_data_ = data;
  leaf_epoch_ = slot_->epoch.load(std::memory_order_relaxed);
}

bool Cursor::LoadKey() {
  const uint8_t* page = Leaf();
  if (page == nullptr) return false;
  KeyAt(NodePage(const_cast<uint8_t*>(page), db_->pager_->page_size()), path_.back().pos, &key_);
  valid_ = true;
  return true;
}

void Cursor::SeekToFirst() {
  Refresh();
  Stale();
  status_ = Status::OK();
  valid_ = false;
  path_.clear();
  if (root_ != 0) Descend(root_, depth_ - 1, true);
}

void Cursor::SeekToLast() {
  Refresh();
  Stale();
  status_ = Status::OK();
  valid_ = false;
  path_.clear();
  if (root_ != 0) Descend(root_, depth_ - 1, false);
}

void Cursor::Seek(Slice target) {
  Refresh();
  Stale();
  status_ = Status::OK();
  valid_ = false;
  path_.clear();
  if (root_ == 0) return;
  Pager* pager = db_->pager_.get();
  uint32_t page_no = root_;
  uint32_t known = 0;  // leading bytes the target shares with every key of the page
  for (uint32_t level = depth_ - 1;; --level) {
    const uint8_t* page;
    Status s = ReadNode(pager, page_no, level, view_, &page);
    if (!s.ok()) return Fail(s);
    NodePage node(const_cast<uint8_t*>(page), pager->page_size());
    if (level > 0) {
      const uint32_t pos = node.FindChildEntry(target, &known);
      path_.push_back(Level{page_no, pos});
      page_no = node.ChildAt(pos);
      pager->PrefetchChild(page_no, /*leaf=*/level == 1);  // the scan reads on from there
      continue;
    }
    KeepLeaf(page_no, page);
    const SeekResult r = node.Seek(target, known);
    if (r.pos < node.data_end()) {
      path_.push_back(Level{page_no, r.pos});
      if (r.exact) {
        key_.assign(target);
        valid_ = true;
      } else {
        LoadKey();
      }
    } else {
      // Every key of this leaf is below the target: the next leaf's first.
      path_.push_back(Level{page_no, LastEntry(node)});
      NextLeaf();
    }
    return;
  }
}

void Cursor::SeekForPrev(Slice target) {
  Refresh();
  Seek(target);
  if (valid_) {
    if (key_ != target) StepBackward();
  } else if (status_.ok()) {
    SeekToLast();
  }
}

bool Cursor::StepForward() {
  Pager* pager = db_->pager_.get();
  const uint8_t* page = Leaf();
  if (page == nullptr) return false;
  NodePage leaf(const_cast<uint8_t*>(page), pager->page_size());
  const uint32_t next = leaf.Next(path_.back().pos);
  if (next >= leaf.data_end()) return NextLeaf();
  EntryView e = leaf.Entry(next);
  key_.resize(e.shared);
  key_.append(reinterpret_cast<const char*>(e.suffix), e.unshared);
  path_.back().pos = next;
  return true;
}

bool Cursor::NextLeaf() {
  Pager* pager = db_->pager_.get();
  for (size_t i = path_.size() - 1; i-- > 0;) {
    const uint8_t* page;
    Status s = pager->Read(path_[i].page, view_, &page);
    if (!s.ok()) {
      Fail(s);
      return false;
    }
    NodePage node(const_cast<uint8_t*>(page), pager->page_size());
    const uint32_t next = node.Next(path_[i].pos);
    if (next < node.data_end()) {
      path_[i].pos = next;
      path_.resize(i + 1);
      return Descend(node.ChildAt(next), static_cast<uint32_t>(depth_ - 2 - i), true);
    }
  }
  valid_ = false;  // past the last key
  return false;
}

bool Cursor::StepBackward() {
  Pager* pager = db_->pager_.get();
  const uint8_t* page = Leaf();
  if (page == nullptr) return false;
  NodePage leaf(const_cast<uint8_t*>(page), pager->page_size());
  if (path_.back().pos == kPageHeaderSize) return PrevLeaf();
  path_.back().pos = PrevEntry(leaf, path_.back().pos);
  KeyAt(leaf, path_.back().pos, &key_);
  return true;
}

bool Cursor::PrevLeaf() {
  Pager* pager = db_->pager_.get();
  for (size_t i = path_.size() - 1; i-- > 0;) {
    const uint8_t* page;
    Status s = pager->Read(path_[i].page, view_, &page);
    if (!s.ok()) {
      Fail(s);
      return false;
    }
    NodePage node(const_cast<uint8_t*>(page), pager->page_size());
    if (path_[i].pos != kPageHeaderSize) {
      path_[i].pos = PrevEntry(node, path_[i].pos);
      path_.resize(i + 1);
      return Descend(node.ChildAt(path_[i].pos), static_cast<uint32_t>(depth_ - 2 - i), false);
    }
  }
  valid_ = false;  // before the first key
  return false;
}

void Cursor::Next() {
  Refresh();
  if (!valid_) return;
  if (Stale()) {
    // The transaction changed: find our key again; if it is gone we are
    // already on its successor.
    const std::string key = key_;
    Seek(key);
    if (valid_ && key_ == key) StepForward();
    return;
  }
  StepForward();
}

void Cursor::Prev() {
  Refresh();
  if (!valid_) return;
  if (Stale()) {
    const std::string key = key_;
    Seek(key);
    if (valid_) {
      StepBackward();
    } else if (status_.ok()) {
      SeekToLast();  // every key is below the old one
    }
    return;
  }
  StepBackward();
}

bool Cursor::IndexInLeaf(uint32_t* index, uint32_t* count) {
  Pager* pager = db_->pager_.get();
  const uint8_t* page = Leaf();
  if (page == nullptr) return false;
  NodePage leaf(const_cast<uint8_t*>(page), pager->page_size());
  uint32_t i = 0;
  for (uint32_t p = kPageHeaderSize; p != path_.back().pos; p = leaf.Next(p)) ++i;
  *index = i;
  *count = leaf.count();
  return true;
}

// Moves to entry `index` of the current leaf, rebuilding the key on the way.
bool Cursor::PositionAt(uint32_t index) {
  Pager* pager = db_->pager_.get();
  const uint8_t* page = Leaf();
  if (page == nullptr) return false;
  NodePage leaf(const_cast<uint8_t*>(page), pager->page_size());
  uint32_t p = kPageHeaderSize;
  for (uint32_t i = 0;; ++i) {
    EntryView e = leaf.Entry(p);
    key_.resize(e.shared);
    key_.append(reinterpret_cast<const char*>(e.suffix), e.unshared);
    if (i == index) break;
    p = e.end;
  }
  path_.back().pos = p;
  return true;
}

void Cursor::Skip(uint64_t n) {
  Refresh();
  if (!valid_ || n == 0) return;
  if (Stale()) {
    const std::string key = key_;
    Seek(key);
    if (!valid_) return;
    if (key_ != key) --n;  // already on the successor
  }
  while (n > 0) {
    uint32_t index, count;
    if (!IndexInLeaf(&index, &count)) return;
    const uint64_t remaining = count - 1 - index;
    if (n <= remaining) {
      PositionAt(static_cast<uint32_t>(index + n));
      return;
    }
    n -= remaining + 1;
    if (!NextLeaf()) return;
  }
}

void Cursor::SkipBackward(uint64_t n) {
  Refresh();
  if (!valid_ || n == 0) return;
  if (Stale()) {
    const std::string key = key_;
    Seek(key);
    if (!valid_) {
      if (!status_.ok()) return;
      SeekToLast();
      --n;
    } else if (key_ != key) {
      StepBackward();
      --n;
    }
    if (!valid_) return;
  }
  while (n > 0) {
    uint32_t index, count;
    if (!IndexInLeaf(&index, &count)) return;
    if (n <= index) {
      PositionAt(static_cast<uint32_t>(index - n));
      return;
    }
    n -= index + 1;
    if (!PrevLeaf()) return;
  }
}

Slice Cursor::value() {
  Refresh();
  if (!valid_) return Slice();
  if (Stale()) {
    const std::string key = key_;
    Seek(key);
    if (!valid_) return Slice();
  }
  Pager* pager = db_->pager_.get();
  const uint8_t* page = Leaf();
  if (page == nullptr) return Slice();
  EntryView e = NodePage(const_cast<uint8_t*>(page), pager->page_size()).Entry(path_.back().pos);
  if (!(e.field & 1)) return Slice(reinterpret_cast<const char*>(e.payload), e.field >> 1);
  Status s = ReadEntryValue(pager, e, &value_);
  if (!s.ok()) {
    Fail(s);
    return Slice();
  }
  return value_;
}

}  // namespace pbtree
