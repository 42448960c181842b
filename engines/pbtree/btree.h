// The B+tree over the pager: lookups, and the write path of one transaction
// (insert, overwrite, delete, splits, merges, overflow chains).
//
// Internal to pbtree; the public API is pbtree.h.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engines/pbtree/node_page.h"
#include "engines/pbtree/pager.h"
#include "engines/pbtree/status.h"

namespace pbtree {

// What a meta page says about the tree, or a write transaction's working copy.
struct TreeState {
  uint32_t root = 0;  // 0: empty
  uint32_t depth = 0;
  uint64_t entries = 0;
};

// Reads page_no as the snapshot `view` sees it (Pager::Read; kNoSnapshot:
// the newest, the writer's) and checks that it is a node page at `level`.
Status ReadNode(Pager* pager, uint32_t page_no, uint32_t level, uint64_t view,
                const uint8_t** page);

// InvalidArgument for a key longer than kMaxKeySize. Out of line and cold:
// the message's concatenations stay out of the put paths (hot.h).
[[gnu::cold]] Status KeyTooLong(size_t key_size);

// Copies the value of a leaf entry (inline or overflow) into *value.
Status ReadEntryValue(Pager* pager, const EntryView& entry, std::string* value);

// Point lookup in `tree` as the snapshot `view` sees it. NotFound when absent.
Status TreeGet(Pager* pager, const TreeState& tree, uint64_t view, Slice key, std::string* value);

// Rebuilds the whole key of the entry at `pos` of a trusted node page.
void KeyAt(const NodePage& node, uint32_t pos, std::string* key);
// Offset of the entry before `pos` (pos must not be the first entry).
uint32_t PrevEntry(const NodePage& node, uint32_t pos);
// Offset of the last entry of a non-empty page.
uint32_t LastEntry(const NodePage& node);

struct WriteOptions {
  uint32_t leaf_restart_interval = 16;
  uint32_t internal_restart_interval = 8;
};

// How the writes' descents reached their leaves (Stats).
struct DescentCounters {
  uint64_t from_root = 0;
  uint64_t from_parent = 0;  // the finger's parent (TreeWriter)
  uint64_t skipped = 0;      // the finger's leaf again
};

// One put of a sorted run (keys strictly increasing).
struct SortedPut {
  Slice key;
  Slice value;
};

// The write path of one transaction: edits `tree` (the transaction's working
// copy) through pager copy-on-write. Keeps scratch buffers between calls so
// that a put allocates nothing in the common case.
class TreeWriter {
 public:
  TreeWriter(Pager* pager, TreeState* tree, const WriteOptions& options);

  // Inserts or overwrites. InvalidArgument for a key over kMaxKeySize.
  Status Put(Slice key, Slice value);
  // Puts given in strictly increasing key order (PutBuffer; see
  // btree_merge.cc): one descent per leaf reached, and a leaf that receives
  // many keys is rebuilt once, merged with them, into full pages.
  Status PutSorted(const SortedPut* puts, size_t n);
  // PutSorted of one put (a one-key commit), without its loop and run.
  Status PutOne(Slice key, Slice value);
  // NotFound when the key is absent (nothing is written then).
  Status Delete(Slice key);

  const DescentCounters& descents() const { return descents_; }
  // A writer that replaces this one (after Reorganize) goes on counting.
  void KeepDescents(const DescentCounters& counters) { descents_ = counters; }

 private:
  struct Level {
    uint32_t page;
    uint32_t pos;    // internal: the entry followed; leaf: unused
    bool rightmost;  // every entry followed so far was the last of its page
  };
  // The path from the root to the leaf for `key` (or to `stop_level`). With
  // `upper`, also the leaf's upper bound: the smallest separator above key
  // on the path, which the deepest page with an entry after the one followed
  // gives (*has_upper false when there is none: the leaf is the last one).
  Status Descend(Slice key, uint32_t stop_level, std::string* upper = nullptr,
                 bool* has_upper = nullptr);
  // Descend's two ways for a sorted put's key (stop_level 0, upper_): the
  // finger's leaf again when it covers the key (false otherwise, nothing
  // changed), else the pages from the root or the finger's parent.
  // PutOne takes them itself: the finger's test without a call.
  [[gnu::always_inline]] inline bool ReuseFinger(Slice key, bool* has_upper);
  Status DescendPages(Slice key, uint32_t stop_level, std::string* upper, bool* has_upper,
                      bool finger);
  // Makes every page on path_ writable, fixing child pointers and the root.
  Status MakePathWritable();
  // Makes the leaf at the end of path_ writable. When that keeps its page
  // number (Pager::KeepsNumber: dirty, or a new version of an unflushed
  // page) its parents stay as they are, until a split reaches them
  // (InsertIntoParent, Split and MergeIntoNode's rebuild make the whole path
  // writable first); otherwise the whole path, as MakePathWritable.
  Status MakeLeafWritable();
  Status WriteOverflow(Slice value, uint32_t* first_page);
  Status FreeOverflow(const EntryView& entry);
  Status EncodeValue(Slice value, EntryValue* encoded);

  // The page at path_[index] could not take a change: SplitInTwo, or, when
  // the entry is too large for a half, rebuild its entries with the new
  // entry `key`/`value` inserted (or replacing the entry with an equal key)
  // into as many pages as needed and link them into the parent.
  Status Split(size_t index, Slice key, EntryValue value);
  // The page at path_[index] (writable) could not take `key`/`value` in
  // place (insert, or a leaf's value replaced): cuts it in two byte ranges
  // near its byte middle (NodePage::MoveTail), puts the entry into the half
  // that covers it, and the new page's separator into the parent on path_
  // (InsertIntoParent), without decoding the page or descending again. At
  // the right edge of the tree (a key after the last, path_[index].rightmost)
  // the page is kept full and the entry starts a new page (sequential
  // inserts); a leaf whose last put's key is right before the new one is cut
  // there (FollowsLastPut). *done false, with nothing changed, when the
  // entry would not fit its half (large entries): Split's greedy fill does
  // that. path_ below `index` is stale afterwards, and path_ may have grown
  // a new root.
  Status SplitInTwo(size_t index, Slice key, EntryValue value, bool* done);
  // SplitInTwo's two steps. PlanSplit: where the page at path_[index] is cut
  // for `key`/`value` (at `r`, its place there) and the separator, with
  // nothing changed; false when the entry would not fit its half.
  // CutAsPlanned: the cut, into the new page `new_page`, and the entry put
  // into its half; the parent is the caller's.
  struct SplitPlan {
    bool append = false;  // the page stays whole, the entry starts the new page
    uint32_t cut = 0;
    Slice cut_key;  // the whole key at cut (in cut_key_)
    bool into_left = false;
    Slice separator;  // in split_separators_
  };
  bool PlanSplit(const NodePage& node, size_t index, Slice key, EntryValue value,
                 const SeekResult& r, SplitPlan* plan);
  Status CutAsPlanned(NodePage* node, size_t index, const SplitPlan& plan, Slice key,
                      EntryValue value, uint32_t new_page, uint8_t* new_data);
  // Adds (separator, child) to the parent of path_[index], splitting it in
  // turn when full (a new root above path_[0]).
  Status InsertIntoParent(size_t index, Slice separator, uint32_t child);
  // Adds (separator, child) to the writable internal page at path_[index],
  // splitting it when full.
  Status AddChild(size_t index, Slice separator, uint32_t child);
  // Adds (separator, child) to the internal page at `level` covering it.
  Status InsertSeparator(uint32_t level, Slice separator, uint32_t child);
  // After a delete: frees empty pages and merges underfull ones upwards.
  Status Rebalance();
  Status RemoveChildEntry(size_t parent_index);
  Status MergeWithSibling(size_t index, bool* merged);
  Status ShrinkRoot();

  // Inserts into (or updates) the leaf at the end of path_; splits when full.
  Status PutInLeaf(Slice key, EntryValue encoded);

  struct Item {
    Slice key;
    EntryValue value;
  };
  // Puts items (sorted, strictly increasing, all inside the key range of the
  // page at path_[index], which is writable) into that page: in place while
  // few and they fit, else by rebuilding it merged with them into as many
  // full pages as needed, whose separators then go into the parent the same
  // way. Leaves: an equal key's value is replaced. Internal pages: items are
  // (separator, child) pairs. path_ below `index` is stale afterwards.
  Status MergeIntoNode(size_t index, const Item* items, size_t n);
  // PutSorted's items for the leaf Descend reached (below its upper bound):
  // one in place when it can, else merged; then the finger is kept.
  [[gnu::always_inline]] inline Status PutRun(const Item* items, size_t n, bool has_upper);
  // A run of one item into the leaf where it is (Pager::WriteInPlace), when
  // the pager allows it and it fits; *done false otherwise, nothing changed.
  Status PutInPlace(const Item& item, bool* done);
  // PutInPlace's leaf (changed in place, `item` not inserted at `r` for
  // lack of room) split in place too, with its parent, when no reader can
  // see them (Pager::WriteInPlaceAlso) and the separator fits the parent:
  // a split commit then copies no page. *done false otherwise, nothing
  // changed.
  Status SplitInPlace(NodePage* leaf, const Item& item, const SeekResult& r, bool* done);
  // MergeIntoNode's second way: the page's entries and the items merged and
  // built into full pages (a long function, kept out of the hot one-key path).
  Status RebuildNode(size_t index, const Item* items, size_t n);
  // Builds items_ into parts_ (first items in part_starts_): pages filled one
  // after the other, then, unless `append` (items_ end at the right edge of
  // the tree, where later keys will go), the last two balanced when the last
  // is under half full.
  void BuildParts(PageType type, uint8_t level, bool append);

  Pager* pager_;
  TreeState* tree_;
  WriteOptions options_;
  uint32_t page_size_;
  std::vector<Level> path_;
  std::string key_scratch_;
  std::string page_scratch_;
  std::string separator_;
  uint8_t overflow_ref_[4];
  uint8_t child_ref_[4];
  DecodedNode decoded_;
  std::vector<Item> items_;          // entries of a page being split, with the new one
  std::vector<std::string> parts_;   // pages built by a split
  std::vector<size_t> part_starts_;  // first item of each part
  std::vector<uint32_t> item_ends_;  // BuildParts: data end of its part after each item
  // PutSorted: the leaf's upper bound and the puts that go into the leaf.
  std::string upper_;
  // After Descend: the leading bytes its key shares with every key of the
  // page it stopped at (NodePage::FindChildEntry), for that page's Seek.
  uint32_t known_ = 0;
  // The finger: path_ and upper_ as the last sorted put (PutSorted) left
  // them, when no page of the tree changed number or place meanwhile
  // (Pager::page_changes). A descent for a key that lies in that leaf (not
  // below its first key, below its upper bound) reuses them: consecutive
  // one-key commits into one part of the tree, as seed 001's inserts, skip
  // the internal pages. Any other descent (delete, separator, large value)
  // drops it.
  [[gnu::always_inline]] inline bool FingerCovers(Slice key) const;
  bool finger_valid_ = false;
  bool finger_has_upper_ = false;
  // known_ as the descent to the finger's leaf left it: the leading bytes
  // its key shares with the leaf's bounds (the parents' separators). Every
  // key between those bounds shares them, so it holds for each key the
  // finger covers, and for every key of the leaf while it keeps its place.
  uint32_t finger_known_ = 0;
  // The last Descend reused the finger: its leaf is the one the last put
  // changed, in the CPU's cache (NodePage::SeekCachedLeaf).
  bool leaf_cached_ = false;
  // The leaf's first key when the descent reached it (none when it was
  // empty): a lower bound checked without reading the leaf again. Keys
  // between the parents' separator and it belong to the leaf too, so a
  // first key that changed since (an insert below it, a delete of it) only
  // sends some keys the long way.
  void SetFingerLower(const uint8_t* leaf_page);
  bool finger_has_lower_ = false;
  uint32_t finger_lower_size_ = 0;
  uint8_t finger_lower_[kMaxKeySize];
  // The finger's parent: the leaf's parent page as the last full descent
  // for a sorted put found it, with its bounds (the separators above it),
  // while no page changed number or place but by a split in place of one
  // of its leaves, which leaves the parent's place and bounds as they were
  // (SplitInPlace). A put the finger misses but the parent covers (seed
  // 001's next directory, the other half of a split leaf) searches only
  // the parent: in a tree of four levels, one internal page instead of
  // three. A tree of two levels has none.
  bool ParentCovers(Slice key) const;
  // Descend's steps: the lower bound from the entry followed on the page
  // above the parent; the parent's page, place and upper bound.
  void SetParentLower(const NodePage& node, uint32_t pos, bool leftmost);
  void NoteParent(uint32_t page_no, bool rightmost, const std::string& upper, bool has_upper);
  DescentCounters descents_;
  bool parent_valid_ = false;
  uint64_t parent_changes_ = 0;  // Pager::page_changes() while it stands
  uint32_t parent_page_ = 0;
  bool parent_rightmost_ = false;
  bool parent_has_upper_ = false;
  std::string parent_upper_;
  uint32_t parent_lower_size_ = 0;
  uint8_t parent_lower_[kMaxKeySize];
  uint64_t descent_changes_ = 0;  // Pager::page_changes() when Descend ended
  std::vector<Item> run_;
  // MergeIntoNode: (separator, child) pairs for the parent of a rebuilt page,
  // by the rebuilt page's level (copies: items_ and decoded_ are reused).
  struct Separators {
    std::string keys;               // back to back
    std::vector<uint32_t> ends;     // end of each key in `keys`
    std::vector<uint8_t> children;  // u32 LE page numbers
    std::vector<Item> items;
  };
  Separators separators_[kMaxDepth];
  // SplitInTwo: the whole key at the cut (and the one before it), and the
  // separator it hands to the parent, by the split page's level.
  uint8_t cut_key_[kMaxKeySize];
  uint8_t before_cut_key_[kMaxKeySize];
  std::string split_separators_[kMaxDepth];
  // The leaf the last one-key put inserted a key into, and a fingerprint of
  // that key (its size and last eight bytes), or leaf 0 when the last put
  // inserted nothing. A split of that leaf by a put whose place is right
  // after that key cuts there (SplitInTwo): puts in increasing order into a
  // gap between two keys of the tree (a prefix's next records) then fill
  // their leaves, as at the tree's right edge, where a cut at the middle
  // left each half full and split it again after half as many puts; InnoDB's
  // page header keeps the last insert's place for the same choice. (Seed
  // 001's new keys do not benefit: a directory's files come in random
  // order.) Only a hint: a stale one costs a split its choice, never
  // correctness.
  void NotePut(uint32_t leaf, bool inserted, Slice key);
  bool FollowsLastPut(const NodePage& node, uint32_t page_no, const SeekResult& r);
  uint32_t last_put_leaf_ = 0;
  uint32_t last_put_size_ = 0;
  uint8_t last_put_tail_[8] = {};  // its last bytes, right-aligned
};

inline bool TreeWriter::FingerCovers(Slice key) const {
  // Pages that kept their numbers and places since the last descent: its
  // path (the root and depth among it) still stands.
  if (!finger_valid_ || pager_->page_changes() != descent_changes_) return false;
  if (finger_has_upper_ && !(key < Slice(upper_))) return false;
  return finger_has_lower_ &&
         !(key < Slice(reinterpret_cast<const char*>(finger_lower_), finger_lower_size_));
}

inline bool TreeWriter::ReuseFinger(Slice key, bool* has_upper) {
  if (!FingerCovers(key)) return false;
  // The last sorted put's leaf holds keys on both sides of this one (or is
  // the last leaf): same path, same upper bound.
  *has_upper = finger_has_upper_;
  ++descents_.skipped;
  known_ = finger_known_;
  leaf_cached_ = true;
  descent_changes_ = pager_->page_changes();
  return true;
}

}  // namespace pbtree
