// BTree::Verify: the structural checks the tests run after random changes.
#include <string>

#include "engines/native/btree.h"

namespace nativedb::internal {

Status BTree::VerifyNode(uint64_t node, uint32_t level, const IndexEntry* low,
                         const IndexEntry* high, uint64_t* entries) const {
  const char* base = arena_->base();
  auto less = [base](const IndexEntry& a, const IndexEntry& b) {
    return CompareEntry(base, a.word, a.rec, KeyOfWord(base, b.word), b.rec) < 0;
  };
  const NodeHeader* h = Header(node);
  const std::string where = "index node " + std::to_string(node);
  if (h->level != level) return Status::Corruption(where + ": wrong level");
  if (h->count == 0) return Status::Corruption(where + ": empty");
  if (level == 0) {
    if (h->count > kLeafCapacity) return Status::Corruption(where + ": overfull leaf");
    for (uint32_t i = 0; i < h->count; ++i) {
      const IndexEntry e{LeafKeys(node)[i], LeafRecs(node)[i]};
      if (low != nullptr && less(e, *low)) return Status::Corruption(where + ": below its range");
      if (high != nullptr && !less(e, *high)) {
        return Status::Corruption(where + ": above its range");
      }
    }
    *entries += h->count;
    return Status::OK();
  }
  if (h->count > kInnerCapacity) return Status::Corruption(where + ": overfull inner node");
  // Separators borrow the storage of live entries: each must still be its
  // record's field word, or it may point at freed memory.
  for (uint32_t i = 0; i + 1 < h->count; ++i) {
    const uint64_t* rec = arena_->Words(InnerRecs(node)[i]);
    if (format::ChunkKindOf(rec[0]) != format::kChunkRecord ||
        meta_->field >= format::ChunkFieldsOf(rec[0]) ||
        rec[1 + meta_->field] != InnerKeys(node)[i]) {
      return Status::Corruption(where + ": separator is not a live entry");
    }
  }
  for (uint32_t i = 0; i < h->count; ++i) {
    IndexEntry sep_low, sep_high;
    const IndexEntry* child_low = low;
    const IndexEntry* child_high = high;
    if (i > 0) {
      sep_low = IndexEntry{InnerKeys(node)[i - 1], InnerRecs(node)[i - 1]};
      child_low = &sep_low;
    }
    if (i + 1 < h->count) {
      sep_high = IndexEntry{InnerKeys(node)[i], InnerRecs(node)[i]};
      child_high = &sep_high;
      if (i > 0 && !less(sep_low, sep_high)) {
        return Status::Corruption(where + ": separators out of order");
      }
    }
    NATIVEDB_RETURN_IF_ERROR(
        VerifyNode(InnerChildren(node)[i], level - 1, child_low, child_high, entries));
  }
  return Status::OK();
}

Status BTree::Verify() const {
  if (meta_->root == 0) {
    if (meta_->entries != 0 || meta_->first_leaf != 0 || meta_->last_leaf != 0) {
      return Status::Corruption("empty index with entries or leaves");
    }
    return Status::OK();
  }
  uint64_t in_tree = 0;
  NATIVEDB_RETURN_IF_ERROR(
      VerifyNode(meta_->root, static_cast<uint32_t>(meta_->height), nullptr, nullptr, &in_tree));
  if (in_tree != meta_->entries) return Status::Corruption("index entry count is off");
  // The leaf chain: every entry once, strictly increasing, links both ways.
  const char* base = arena_->base();
  uint64_t in_chain = 0;
  uint64_t prev_leaf = 0;
  bool have_prev = false;
  IndexEntry prev_entry{};
  for (uint64_t leaf = meta_->first_leaf; leaf != 0; leaf = *LeafNext(leaf)) {
    if (*LeafPrev(leaf) != prev_leaf) return Status::Corruption("broken leaf back-link");
    for (uint32_t i = 0; i < Header(leaf)->count; ++i) {
      const IndexEntry e{LeafKeys(leaf)[i], LeafRecs(leaf)[i]};
      if (have_prev && CompareEntry(base, prev_entry.word, prev_entry.rec, KeyOfWord(base, e.word),
                                    e.rec) >= 0) {
        return Status::Corruption("leaf chain out of order");
      }
      prev_entry = e;
      have_prev = true;
      ++in_chain;
    }
    prev_leaf = leaf;
  }
  if (prev_leaf != meta_->last_leaf) return Status::Corruption("last leaf is wrong");
  if (in_chain != meta_->entries) return Status::Corruption("leaf chain count is off");
  return Status::OK();
}

}  // namespace nativedb::internal
