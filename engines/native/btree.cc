#include "engines/native/btree.h"

#include <cstring>
#include <string>
#include <vector>

namespace nativedb::internal {

uint64_t BTree::NewNode(uint32_t level) {
  const uint64_t node = arena_->AllocData(kNodeBytes);
  // Callers reserved room first (ReserveForInsert, BulkLoad), so this holds.
  uint64_t* words = arena_->Words(node);
  words[0] = words[1] = words[2] = 0;
  Header(node)->level = level;
  return node;
}

bool BTree::ReserveForInsert() const {
  // A split can climb to the root and add a new one.
  return arena_->Reserve((meta_->height + 2) * kNodeBytes);
}

uint32_t BTree::LeafLowerBound(uint64_t leaf, const KeyView& key, uint64_t rec) const {
  const char* base = arena_->base();
  const uint64_t* keys = LeafKeys(leaf);
  const uint64_t* recs = LeafRecs(leaf);
  uint32_t lo = 0;
  uint32_t hi = Header(leaf)->count;
  while (lo < hi) {
    const uint32_t mid = (lo + hi) / 2;
    if (CompareEntry(base, keys[mid], recs[mid], key, rec) < 0) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

uint32_t BTree::InnerChildFor(uint64_t node, const KeyView& key, uint64_t rec) const {
  const char* base = arena_->base();
  const uint64_t* keys = InnerKeys(node);
  const uint64_t* recs = InnerRecs(node);
  uint32_t lo = 0;
  uint32_t hi = Header(node)->count - 1;  // first separator > (key, rec), or the last child
  while (lo < hi) {
    const uint32_t mid = (lo + hi) / 2;
    if (CompareEntry(base, keys[mid], recs[mid], key, rec) > 0) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  return lo;
}

uint64_t BTree::Descend(const KeyView& key, uint64_t rec, Path* path) const {
  uint64_t node = meta_->root;
  for (uint64_t depth = 0; depth < meta_->height; ++depth) {
    const uint32_t child = InnerChildFor(node, key, rec);
    if (path != nullptr) {
      path->node[depth] = node;
      path->child[depth] = child;
    }
    node = InnerChildren(node)[child];
  }
  return node;
}

void BTree::Insert(uint64_t word, uint64_t rec) {
  ++meta_->entries;
  if (meta_->root == 0) {
    const uint64_t leaf = NewNode(0);
    LeafKeys(leaf)[0] = word;
    LeafRecs(leaf)[0] = rec;
    Header(leaf)->count = 1;
    meta_->root = meta_->first_leaf = meta_->last_leaf = leaf;
    meta_->height = 0;
    return;
  }
  const KeyView key = KeyOfWord(arena_->base(), word);
  Path path;
  uint64_t leaf = Descend(key, rec, &path);
  uint32_t pos = LeafLowerBound(leaf, key, rec);
  uint64_t right = 0;
  if (Header(leaf)->count == kLeafCapacity) {
    // Split: the upper half moves to a new leaf linked after this one.
    constexpr uint32_t kKept = kLeafCapacity / 2;
    right = NewNode(0);
    std::memcpy(LeafKeys(right), LeafKeys(leaf) + kKept, (kLeafCapacity - kKept) * 8);
    std::memcpy(LeafRecs(right), LeafRecs(leaf) + kKept, (kLeafCapacity - kKept) * 8);
    Header(right)->count = kLeafCapacity - kKept;
    Header(leaf)->count = kKept;
    const uint64_t next = *LeafNext(leaf);
    *LeafNext(right) = next;
    *LeafPrev(right) = leaf;
    *LeafNext(leaf) = right;
    if (next != 0) {
      *LeafPrev(next) = right;
    } else {
      meta_->last_leaf = right;
    }
    if (pos > kKept) {
      leaf = right;
      pos -= kKept;
    }
  }
  NodeHeader* h = Header(leaf);
  uint64_t* keys = LeafKeys(leaf);
  uint64_t* recs = LeafRecs(leaf);
  std::memmove(keys + pos + 1, keys + pos, (h->count - pos) * 8);
  std::memmove(recs + pos + 1, recs + pos, (h->count - pos) * 8);
  keys[pos] = word;
  recs[pos] = rec;
  ++h->count;
  if (right != 0) {
    InsertIntoParent(&path, static_cast<int>(meta_->height) - 1, LeafKeys(right)[0],
                     LeafRecs(right)[0], right);
  }
}

void BTree::InsertIntoParent(Path* path, int level, uint64_t word, uint64_t rec, uint64_t right) {
  constexpr uint32_t C = kInnerCapacity;
  for (; level >= 0; --level) {
    const uint64_t node = path->node[level];
    const uint32_t ci = path->child[level];
    NodeHeader* h = Header(node);
    uint64_t* keys = InnerKeys(node);
    uint64_t* recs = InnerRecs(node);
    uint64_t* children = InnerChildren(node);
    if (h->count < C) {
      const uint32_t seps_after = h->count - 1 - ci;
      std::memmove(keys + ci + 1, keys + ci, seps_after * 8);
      std::memmove(recs + ci + 1, recs + ci, seps_after * 8);
      std::memmove(children + ci + 2, children + ci + 1, seps_after * 8);
      keys[ci] = word;
      recs[ci] = rec;
      children[ci + 1] = right;
      ++h->count;
      return;
    }
    // Full: lay out the C + 1 children and C separators in order, give the
    // lower half to this node and the upper half to a new one; the middle
    // separator moves up.
    uint64_t tk[C], tr[C], tc[C + 1];
    std::memcpy(tk, keys, ci * 8);
    std::memcpy(tr, recs, ci * 8);
    tk[ci] = word;
    tr[ci] = rec;
    std::memcpy(tk + ci + 1, keys + ci, (C - 1 - ci) * 8);
    std::memcpy(tr + ci + 1, recs + ci, (C - 1 - ci) * 8);
    std::memcpy(tc, children, (ci + 1) * 8);
    tc[ci + 1] = right;
    std::memcpy(tc + ci + 2, children + ci + 1, (C - 1 - ci) * 8);

    constexpr uint32_t kLeft = (C + 1) / 2;
    const uint64_t sibling = NewNode(h->level);
    std::memcpy(keys, tk, (kLeft - 1) * 8);
    std::memcpy(recs, tr, (kLeft - 1) * 8);
    std::memcpy(children, tc, kLeft * 8);
    h->count = kLeft;
    std::memcpy(InnerKeys(sibling), tk + kLeft, (C - kLeft) * 8);
    std::memcpy(InnerRecs(sibling), tr + kLeft, (C - kLeft) * 8);
    std::memcpy(InnerChildren(sibling), tc + kLeft, (C + 1 - kLeft) * 8);
    Header(sibling)->count = C + 1 - kLeft;
    word = tk[kLeft - 1];
    rec = tr[kLeft - 1];
    right = sibling;
  }
  // The root split: a new root above the old one.
  const uint64_t root = NewNode(static_cast<uint32_t>(meta_->height + 1));
  InnerKeys(root)[0] = word;
  InnerRecs(root)[0] = rec;
  InnerChildren(root)[0] = meta_->root;
  InnerChildren(root)[1] = right;
  Header(root)->count = 2;
  meta_->root = root;
  ++meta_->height;
}

bool BTree::Erase(uint64_t word, uint64_t rec) {
  if (meta_->root == 0) return false;
  const KeyView key = KeyOfWord(arena_->base(), word);
  Path path;
  const uint64_t leaf = Descend(key, rec, &path);
  const uint32_t pos = LeafLowerBound(leaf, key, rec);
  NodeHeader* h = Header(leaf);
  uint64_t* keys = LeafKeys(leaf);
  uint64_t* recs = LeafRecs(leaf);
  if (pos >= h->count || keys[pos] != word || recs[pos] != rec) return false;
  // A separator equal to this entry borrows the entry's storage (a string,
  // say), which the caller frees next. Such separators lie on this path, just
  // left of the child taken; the entry after this one bounds the same
  // subtrees, so they move to it. (Without a next entry the subtree holds only
  // this entry and is removed below, separator and all.)
  uint64_t next_word = 0, next_rec = 0;
  if (pos + 1 < h->count) {
    next_word = keys[pos + 1];
    next_rec = recs[pos + 1];
  } else if (*LeafNext(leaf) != 0) {
    next_word = LeafKeys(*LeafNext(leaf))[0];
    next_rec = LeafRecs(*LeafNext(leaf))[0];
  }
  if (next_word != 0) {
    for (uint64_t depth = 0; depth < meta_->height; ++depth) {
      const uint32_t ci = path.child[depth];
      if (ci == 0) continue;
      uint64_t* sep_word = &InnerKeys(path.node[depth])[ci - 1];
      uint64_t* sep_rec = &InnerRecs(path.node[depth])[ci - 1];
      if (*sep_word == word && *sep_rec == rec) {
        *sep_word = next_word;
        *sep_rec = next_rec;
      }
    }
  }
  std::memmove(keys + pos, keys + pos + 1, (h->count - pos - 1) * 8);
  std::memmove(recs + pos, recs + pos + 1, (h->count - pos - 1) * 8);
  --h->count;
  --meta_->entries;
  if (h->count > 0) return true;

  const uint64_t prev = *LeafPrev(leaf);
  const uint64_t next = *LeafNext(leaf);
  if (prev != 0) {
    *LeafNext(prev) = next;
  } else {
    meta_->first_leaf = next;
  }
  if (next != 0) {
    *LeafPrev(next) = prev;
  } else {
    meta_->last_leaf = prev;
  }
  FreeNode(leaf);
  if (meta_->height == 0) {
    meta_->root = 0;
    return true;
  }
  RemoveChild(&path, static_cast<int>(meta_->height) - 1);
  return true;
}

void BTree::RemoveChild(Path* path, int level) {
  for (; level >= 0; --level) {
    const uint64_t node = path->node[level];
    const uint32_t ci = path->child[level];
    NodeHeader* h = Header(node);
    if (h->count > 1) {
      // Drop the child and the separator on its left (its right one for the
      // first child): the neighbour's range widens over the empty gap.
      const uint32_t sep = ci > 0 ? ci - 1 : 0;
      uint64_t* keys = InnerKeys(node);
      uint64_t* recs = InnerRecs(node);
      uint64_t* children = InnerChildren(node);
      std::memmove(keys + sep, keys + sep + 1, (h->count - 2 - sep) * 8);
      std::memmove(recs + sep, recs + sep + 1, (h->count - 2 - sep) * 8);
      std::memmove(children + ci, children + ci + 1, (h->count - 1 - ci) * 8);
      --h->count;
      break;
    }
    FreeNode(node);
    if (level == 0) {
      meta_->root = 0;
      meta_->height = 0;
      return;
    }
  }
  // A root with one child is one level too many.
  while (meta_->height > 0 && Header(meta_->root)->count == 1) {
    const uint64_t old = meta_->root;
    meta_->root = InnerChildren(old)[0];
    FreeNode(old);
    --meta_->height;
  }
}

void BTree::Clear() {
  if (meta_->root != 0) {
    // Level by level: each level's nodes are the children of the one above.
    std::vector<uint64_t> level{meta_->root};
    std::vector<uint64_t> below;
    while (!level.empty()) {
      below.clear();
      for (uint64_t node : level) {
        if (Header(node)->level > 0) {
          const uint64_t* children = InnerChildren(node);
          below.insert(below.end(), children, children + Header(node)->count);
        }
        FreeNode(node);
      }
      level.swap(below);
    }
  }
  meta_->root = meta_->first_leaf = meta_->last_leaf = 0;
  meta_->height = meta_->entries = 0;
}

Status BTree::BulkLoad(const IndexEntry* entries, size_t n) {
  if (n == 0) return Status::OK();
  // Leave an eighth of every node free, so the first inserts after a build do
  // not split every node they touch.
  constexpr size_t kLeafFill = kLeafCapacity - kLeafCapacity / 8;
  constexpr size_t kInnerFill = kInnerCapacity - kInnerCapacity / 8;
  const size_t leaves = (n + kLeafFill - 1) / kLeafFill;
  size_t nodes = leaves;
  for (size_t m = leaves; m > 1;) {
    m = (m + kInnerFill - 1) / kInnerFill;
    nodes += m;
  }
  if (!arena_->Reserve(nodes * kNodeBytes)) return arena_->FullError("index build");

  // Each level: its nodes and the first entry under each (the separators of
  // the level above). Entries are spread evenly, so no node is nearly empty.
  std::vector<uint64_t> level_nodes;
  std::vector<IndexEntry> level_firsts;
  level_nodes.reserve(leaves);
  level_firsts.reserve(leaves);
  size_t done = 0;
  uint64_t prev = 0;
  for (size_t i = 0; i < leaves; ++i) {
    const size_t take = n / leaves + (i < n % leaves ? 1 : 0);
    const uint64_t leaf = NewNode(0);
    uint64_t* keys = LeafKeys(leaf);
    uint64_t* recs = LeafRecs(leaf);
    for (size_t j = 0; j < take; ++j) {
      keys[j] = entries[done + j].word;
      recs[j] = entries[done + j].rec;
    }
    Header(leaf)->count = static_cast<uint32_t>(take);
    *LeafPrev(leaf) = prev;
    if (prev != 0) *LeafNext(prev) = leaf;
    prev = leaf;
    level_nodes.push_back(leaf);
    level_firsts.push_back(entries[done]);
    done += take;
  }
  meta_->first_leaf = level_nodes.front();
  meta_->last_leaf = level_nodes.back();

  uint32_t level = 0;
  std::vector<uint64_t> up_nodes;
  std::vector<IndexEntry> up_firsts;
  while (level_nodes.size() > 1) {
    ++level;
    const size_t m = level_nodes.size();
    const size_t groups = (m + kInnerFill - 1) / kInnerFill;
    up_nodes.clear();
    up_firsts.clear();
    size_t k = 0;
    for (size_t g = 0; g < groups; ++g) {
      const size_t take = m / groups + (g < m % groups ? 1 : 0);
      const uint64_t node = NewNode(level);
      uint64_t* children = InnerChildren(node);
      for (size_t j = 0; j < take; ++j) {
        children[j] = level_nodes[k + j];
        if (j > 0) {
          InnerKeys(node)[j - 1] = level_firsts[k + j].word;
          InnerRecs(node)[j - 1] = level_firsts[k + j].rec;
        }
      }
      Header(node)->count = static_cast<uint32_t>(take);
      up_nodes.push_back(node);
      up_firsts.push_back(level_firsts[k]);
      k += take;
    }
    level_nodes.swap(up_nodes);
    level_firsts.swap(up_firsts);
  }
  meta_->root = level_nodes.front();
  meta_->height = level;
  meta_->entries = n;
  return Status::OK();
}

TreePosition BTree::LowerBound(const KeyView& key, uint64_t rec) const {
  if (meta_->root == 0) return {};
  const uint64_t leaf = Descend(key, rec, nullptr);
  TreePosition p{leaf, LeafLowerBound(leaf, key, rec)};
  if (p.pos >= Header(leaf)->count) {
    p.leaf = *LeafNext(leaf);
    p.pos = 0;
  }
  return p;
}

TreePosition BTree::First() const { return TreePosition{meta_->first_leaf, 0}; }

TreePosition BTree::Last() const {
  if (meta_->last_leaf == 0) return {};
  return TreePosition{meta_->last_leaf, Header(meta_->last_leaf)->count - 1};
}

bool BTree::Next(TreePosition* p) const {
  if (p->leaf == 0) return false;
  if (++p->pos >= Header(p->leaf)->count) {
    p->leaf = *LeafNext(p->leaf);
    p->pos = 0;
  }
  return p->leaf != 0;
}

bool BTree::Prev(TreePosition* p) const {
  if (p->leaf == 0) return false;
  if (p->pos == 0) {
    p->leaf = *LeafPrev(p->leaf);
    p->pos = p->leaf != 0 ? Header(p->leaf)->count - 1 : 0;
  } else {
    --p->pos;
  }
  return p->leaf != 0;
}

}  // namespace nativedb::internal
