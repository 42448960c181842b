// BTree: the index structure, a B+tree of (field word, record offset) entries
// kept in the arena (nodes are data objects addressed by offset).
//
// Why a B+tree and not WhiteDB's T-tree: a T-tree node holds a key range but
// is visited like a binary-tree node, so a lookup in ten million entries takes
// some twenty dependent cache misses; a B+tree with 2 KiB nodes is three levels
// deep, each level one binary search over contiguous words. Its leaves are
// linked both ways, so all entries of one key, a range, or an ordered scan are
// one contiguous run read front to back (or back to front). And it can be
// bulk-loaded from sorted entries, which is how an index is built on existing
// data (database_index.cc): sort once, write leaves left to right.
//
// Entries are unique (key, record) pairs (key_order.h), so duplicate keys
// need no special case and an erase finds its entry exactly. An entry's word
// is the record's own field word: strings and bytes are not copied into the
// index. Separators in inner nodes are entries too (the first entry of the
// subtree on their right), and Erase moves any separator equal to the erased
// entry to its successor, so a separator never outlives the storage it points at.
//
// Node layout (kNodeBytes each):
//   leaf:  count u32, level u32 (0), next, prev, keys[kLeafCapacity],
//          recs[kLeafCapacity]
//   inner: count u32 (children), level u32 (> 0), keys[kInnerCapacity - 1],
//          recs[kInnerCapacity - 1], children[kInnerCapacity]
// Child i of an inner node holds the entries e with sep[i-1] <= e < sep[i].
// Deletion removes a leaf only when it becomes empty (no merging of half-empty
// nodes): separators stay valid bounds, and an index that shrinks a lot can be
// rebuilt by DropIndex + CreateIndex.
//
// Not thread-safe: changes need the write lock, reads the read lock.
#pragma once

#include <cstddef>
#include <cstdint>

#include "engines/native/arena.h"
#include "engines/native/format.h"
#include "engines/native/key_order.h"
#include "engines/native/status.h"

namespace nativedb::internal {

constexpr uint64_t kNodeBytes = 2048;
constexpr uint32_t kLeafHeaderBytes = 24;
constexpr uint32_t kLeafCapacity = (kNodeBytes - kLeafHeaderBytes) / 16;
constexpr uint32_t kInnerCapacity = (kNodeBytes - 8 + 16) / 24;  // children
constexpr int kMaxHeight = 24;

struct IndexEntry {
  uint64_t word;
  uint64_t rec;
};

// A place in the leaf chain; leaf 0 means "past the end" (or before the start).
struct TreePosition {
  uint64_t leaf = 0;
  uint32_t pos = 0;
};

class BTree {
 public:
  BTree(Arena* arena, format::IndexMeta* meta) : arena_(arena), meta_(meta) {}

  // True when the arena has room for one Insert, splits included. Call it
  // before changing anything, so a full arena leaves the database unchanged.
  bool ReserveForInsert() const;
  // Inserts a pair that is not in the tree; room was checked by ReserveForInsert.
  void Insert(uint64_t word, uint64_t rec);
  // Removes the pair; false when it is not in the tree.
  bool Erase(uint64_t word, uint64_t rec);
  // Frees every node; the tree is empty afterwards.
  void Clear();
  // Builds an empty tree from `n` entries sorted by CompareEntry order. Full
  // (and the tree left empty) when the arena has no room.
  Status BulkLoad(const IndexEntry* entries, size_t n);

  // The first entry >= (key, rec).
  TreePosition LowerBound(const KeyView& key, uint64_t rec) const;
  TreePosition First() const;
  TreePosition Last() const;
  // Moves one entry; returns false (and leaves *p past the edge) at the end.
  bool Next(TreePosition* p) const;
  bool Prev(TreePosition* p) const;
  uint64_t WordAt(TreePosition p) const { return LeafKeys(p.leaf)[p.pos]; }
  uint64_t RecAt(TreePosition p) const { return LeafRecs(p.leaf)[p.pos]; }

  // Checks structure and order: sorted leaves, separators bounding their
  // subtrees, links, counts. Corruption naming the first fault.
  Status Verify() const;

  // Layout accessors, shared with the bulk loader.
  struct NodeHeader {
    uint32_t count;
    uint32_t level;
  };
  NodeHeader* Header(uint64_t node) const {
    return reinterpret_cast<NodeHeader*>(arena_->Bytes(node));
  }
  uint64_t* LeafNext(uint64_t leaf) const { return arena_->Words(leaf) + 1; }
  uint64_t* LeafPrev(uint64_t leaf) const { return arena_->Words(leaf) + 2; }
  uint64_t* LeafKeys(uint64_t leaf) const { return arena_->Words(leaf) + kLeafHeaderBytes / 8; }
  uint64_t* LeafRecs(uint64_t leaf) const { return LeafKeys(leaf) + kLeafCapacity; }
  uint64_t* InnerKeys(uint64_t node) const { return arena_->Words(node) + 1; }
  uint64_t* InnerRecs(uint64_t node) const { return InnerKeys(node) + (kInnerCapacity - 1); }
  uint64_t* InnerChildren(uint64_t node) const { return InnerRecs(node) + (kInnerCapacity - 1); }

 private:
  struct Path {
    uint64_t node[kMaxHeight];
    uint32_t child[kMaxHeight];
  };

  uint64_t NewNode(uint32_t level);
  void FreeNode(uint64_t node) { arena_->FreeData(node, kNodeBytes); }
  // Index of the first entry in `leaf` >= (key, rec).
  uint32_t LeafLowerBound(uint64_t leaf, const KeyView& key, uint64_t rec) const;
  // The child of `node` whose range holds (key, rec).
  uint32_t InnerChildFor(uint64_t node, const KeyView& key, uint64_t rec) const;
  // Descends to the leaf whose range holds (key, rec), recording the path.
  uint64_t Descend(const KeyView& key, uint64_t rec, Path* path) const;
  // Inserts separator (word, rec) and `right` after child `after` of the
  // inner node at path level `level`, splitting upwards as needed.
  void InsertIntoParent(Path* path, int level, uint64_t word, uint64_t rec, uint64_t right);
  // Removes the emptied node at path level `level` + 1 from its parent.
  void RemoveChild(Path* path, int level);
  Status VerifyNode(uint64_t node, uint32_t level, const IndexEntry* low, const IndexEntry* high,
                    uint64_t* entries) const;

  Arena* arena_;
  format::IndexMeta* meta_;
};

}  // namespace nativedb::internal
