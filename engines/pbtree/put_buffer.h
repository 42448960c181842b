// PutBuffer: the puts of a write transaction, held back and applied in key
// order.
//
// A batch of random keys inserted one by one walks a random root-to-leaf path
// per key, and at a million keys most of those pages are not in the CPU's
// caches. Applied in key order, consecutive keys share their path (and often
// their leaf), so the same work costs a fraction of the memory traffic, and
// the keys that fall into one leaf are merged into it in one pass
// (TreeWriter::PutSorted); the sort costs less than it saves. Semantics do
// not change: every other operation of the transaction (get, delete, cursors,
// count, commit) applies the buffer first, and of equal keys the last put
// wins.
//
// Not thread-safe: owned by the DB, used by its one write transaction.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engines/pbtree/btree.h"
#include "engines/pbtree/status.h"

namespace pbtree {

class PutBuffer {
 public:
  // Copies key and value in. Returns true when the buffer should be applied
  // now (it holds max_entries puts or max_bytes bytes).
  bool Add(Slice key, Slice value);
  // Puts everything into the tree in key order and empties the buffer. On
  // error the buffer is emptied too (the transaction is then failed).
  Status Apply(TreeWriter* writer);
  void Clear();
  bool empty() const { return entries_.empty(); }

  static constexpr size_t kMaxEntries = 65536;
  static constexpr size_t kMaxBytes = 32 << 20;

 private:
  struct Entry {
    uint64_t offset;  // key then value in arena_
    uint32_t key_size;
    uint32_t value_size;
  };
  std::string arena_;
  std::vector<Entry> entries_;
  std::vector<Slice> keys_;
  std::vector<uint32_t> order_;
  std::vector<SortedPut> sorted_;
};

}  // namespace pbtree
