// Sorted runs of puts (the put buffer's): each leaf reached is put into once.
//
// A batch loaded in key order mostly lands in a few gaps between existing
// keys, thousands of keys per gap. Inserting them one by one costs a search,
// a shift of the page's bytes and, every few keys, a split that decodes and
// rebuilds the page and inserts one separator into the parent by a new
// descent. Here the keys that fall into one leaf (those below its upper bound)
// are merged with the leaf's entries in one pass and built into full pages at
// once, and the new pages' separators go into the parent the same way; a leaf
// that receives only a few keys still takes them in place, as a single put
// would. The result is an ordinary tree: nothing here changes the format.
#include <algorithm>
#include <cstring>

#include "engines/pbtree/btree.h"
#include "engines/pbtree/hot.h"

namespace pbtree {
namespace {

// Fewer items than this go into a page in place (while they fit); more
// rebuild it. A rebuild decodes and re-encodes every entry of the page, which
// costs about as much as this many in-place inserts (a search and a shift of
// half the page each).
constexpr size_t kMinRebuildRun = 8;

// The first index in [begin, n) whose key is not below `bound` (n if none),
// given sorted keys and keys[begin] < bound: exponential, then binary search,
// so a run of r keys costs about 2 log r comparisons.
template <typename T>
size_t GallopBelow(const T* sorted, size_t begin, size_t n, Slice bound) {
  size_t lo = begin + 1;  // sorted[lo - 1] < bound
  size_t step = 1;
  while (lo + step <= n && sorted[lo + step - 1].key < bound) {
    lo += step;
    step *= 2;
  }
  size_t hi = std::min(n, lo + step - 1);  // sorted[hi] >= bound, or hi == n
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    if (sorted[mid].key < bound) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

}  // namespace

// Inlined into both callers: a call cost each one-key commit ~25 instructions.
[[gnu::always_inline]] inline Status TreeWriter::PutRun(const Item* items, size_t n,
                                                        bool has_upper) {
  bool in_place = false;
  if (n == 1) PBTREE_RETURN_IF_ERROR(PutInPlace(items[0], &in_place));
  if (!in_place) {
    PBTREE_RETURN_IF_ERROR(MakeLeafWritable());
    PBTREE_RETURN_IF_ERROR(MergeIntoNode(path_.size() - 1, items, n));
  }
  // Every page kept its number and place (the leaf took the run in place,
  // as a new version or a dirty page): the next descent may start here.
  finger_valid_ = pager_->page_changes() == descent_changes_;
  finger_has_upper_ = has_upper;
  return Status::OK();
}

PBTREE_HOT Status TreeWriter::PutSorted(const SortedPut* puts, size_t n) {
  const uint32_t max_inline = MaxInlineValue(page_size_);
  size_t i = 0;
  while (i < n) {
    const SortedPut& first = puts[i];
    if (tree_->root == 0 || first.key.size() > kMaxKeySize || first.value.size() > max_inline) {
      PBTREE_RETURN_IF_ERROR(Put(first.key, first.value));
      ++i;
      continue;
    }
    bool has_upper = false;
    PBTREE_RETURN_IF_ERROR(Descend(first.key, 0, &upper_, &has_upper));
    // Every put below the leaf's upper bound goes into the leaf; one that
    // needs the long way (an overflow value) ends the run.
    const size_t end = has_upper ? GallopBelow(puts, i, n, upper_) : n;
    run_.clear();
    for (; i < end; ++i) {
      const SortedPut& p = puts[i];
      if (p.key.size() > kMaxKeySize || p.value.size() > max_inline) break;
      run_.push_back(Item{p.key, EntryValue{static_cast<uint32_t>(p.value.size()) << 1, p.value}});
    }
    PBTREE_RETURN_IF_ERROR(PutRun(run_.data(), run_.size(), has_upper));
  }
  return Status::OK();
}

PBTREE_HOT Status TreeWriter::PutOne(Slice key, Slice value) {
  if (tree_->root == 0 || key.size() > kMaxKeySize || value.size() > MaxInlineValue(page_size_)) {
    return Put(key, value);
  }
  bool has_upper = false;
  if (!ReuseFinger(key, &has_upper)) {
    PBTREE_RETURN_IF_ERROR(DescendPages(key, 0, &upper_, &has_upper, /*finger=*/true));
  }
  const Item item{key, EntryValue{static_cast<uint32_t>(value.size()) << 1, value}};
  return PutRun(&item, 1, has_upper);
}

Status TreeWriter::MergeIntoNode(size_t index, const Item* items, size_t n) {
  uint8_t* data = pager_->DirtyData(path_[index].page);
  NodePage node(data, page_size_);
  const bool leaf = node.is_leaf();
  const uint32_t interval =
      leaf ? options_.leaf_restart_interval : options_.internal_restart_interval;

  if (n >= kMinRebuildRun) return RebuildNode(index, items, n);
  for (size_t done = 0; done < n; ++done) {
    const Item& item = items[done];
    // The run's first key is the one the descent followed.
    const SeekResult r = node.Seek(item.key, leaf && done == 0 ? known_ : 0);
    // The old value's overflow chain is freed only once the new value is
    // in: a rebuild replaces the entry otherwise.
    EntryView old;
    uint8_t old_ref[4];
    if (r.exact) {
      if (!leaf) return Status::Corruption(pager_->path() + ": separator already present");
      old = node.Entry(r.pos);
      std::memcpy(old_ref, old.payload, (old.field & 1) ? 4 : 0);
      old.payload = old_ref;
    }
    bool in = r.exact ? node.ReplaceValue(r.pos, item.value)
                      : node.Insert(r, item.key, item.value, interval);
    if (in && leaf) NotePut(path_[index].page, n == 1 && !r.exact, item.key);
    if (!in && done + 1 == n) {
      // The last item: cut the page in two instead of rebuilding it.
      PBTREE_RETURN_IF_ERROR(SplitInTwo(index, item.key, item.value, &in));
    }
    if (!in) return RebuildNode(index, items + done, n - done);
    if (old.field & 1) PBTREE_RETURN_IF_ERROR(FreeOverflow(old));
    if (!r.exact && leaf) ++tree_->entries;
  }
  return Status::OK();
}

PBTREE_HOT Status TreeWriter::PutInPlace(const Item& item, bool* done) {
  *done = false;
  const uint32_t page_no = path_.back().page;
  uint8_t* data;
  PBTREE_RETURN_IF_ERROR(pager_->WriteInPlace(page_no, &data));
  if (data == nullptr) return Status::OK();
  NodePage leaf(data, page_size_);
  const SeekResult r =
      leaf_cached_ ? leaf.SeekCachedLeaf(item.key, known_) : leaf.Seek(item.key, known_);
  // Replacing a value held in overflow pages frees them after, which can
  // fail: that goes the usual way. So does a value that does not fit (Insert
  // and ReplaceValue change nothing then); a new key that does not fit
  // splits the leaf in place when it can.
  const bool in = r.exact
                      ? (leaf.Entry(r.pos).field & 1) == 0 && leaf.ReplaceValue(r.pos, item.value)
                      : leaf.Insert(r, item.key, item.value, options_.leaf_restart_interval);
  if (!in) {
    if (!r.exact) PBTREE_RETURN_IF_ERROR(SplitInPlace(&leaf, item, r, done));
    if (!*done) pager_->UndoInPlace(page_no);
    return Status::OK();
  }
  NotePut(page_no, !r.exact, item.key);
  if (!r.exact) ++tree_->entries;
  *done = true;
  return Status::OK();
}

Status TreeWriter::RebuildNode(size_t index, const Item* items, size_t n) {
  // Merge the page's entries with the rest of the items. The items between
  // two old entries are found by a galloping search, not one comparison each.
  // The pages it builds go into the parents, which change too.
  PBTREE_RETURN_IF_ERROR(MakePathWritable());
  uint8_t* data = pager_->DirtyData(path_[index].page);
  const bool leaf = GetPageType(data) == PageType::kLeaf;
  const uint8_t level = GetLevel(data);
  decoded_.source.clear();
  decoded_.arena.clear();
  decoded_.entries.clear();
  DecodeNode(data, page_size_, &decoded_);
  const size_t old_count = decoded_.entries.size();
  items_.clear();
  size_t b = 0;
  bool last_is_new = false;
  for (size_t a = 0; a < old_count; ++a) {
    const Slice old_key = decoded_.key(a);
    // Items [b, stop) are below old_key.
    const size_t stop = b < n && items[b].key < old_key ? GallopBelow(items, b, n, old_key) : b;
    if (stop > b) {
      items_.insert(items_.end(), items + b, items + stop);
      if (leaf) tree_->entries += stop - b;
      b = stop;
    }
    if (b < n && items[b].key == old_key) {
      if (!leaf) return Status::Corruption(pager_->path() + ": separator already present");
      const DecodedEntry& d = decoded_.entries[a];
      if (d.field & 1) {
        EntryView old;
        old.field = d.field;
        old.payload = reinterpret_cast<const uint8_t*>(decoded_.source.data()) + d.payload_offset;
        PBTREE_RETURN_IF_ERROR(FreeOverflow(old));
      }
      items_.push_back(items[b++]);
      last_is_new = false;
      continue;
    }
    items_.push_back(Item{old_key, decoded_.value(a)});
    last_is_new = false;
  }
  if (b < n) {
    items_.insert(items_.end(), items + b, items + n);
    if (leaf) tree_->entries += n - b;
    last_is_new = true;
  }

  const bool append = last_is_new && path_[index].rightmost;
  BuildParts(leaf ? PageType::kLeaf : PageType::kInternal, level, append);
  std::memcpy(data, parts_[0].data(), page_size_);
  const size_t parts = part_starts_.size();
  if (parts == 1) return Status::OK();

  // The new pages and their separators, copied out of items_ and decoded_,
  // which the parent's merge reuses.
  Separators& up = separators_[level];
  up.keys.clear();
  up.ends.clear();
  up.children.resize(4 * (parts - 1));
  up.items.clear();
  for (size_t j = 1; j < parts; ++j) {
    uint32_t page_no;
    uint8_t* page;
    pager_->NewPage(&page_no, &page);
    std::memcpy(page, parts_[j].data(), page_size_);
    EncodeFixed32(up.children.data() + 4 * (j - 1), page_no);
    const size_t s = part_starts_[j];
    const Slice right = items_[s].key;
    // Leaves: the shortest separator (suffix truncation); internal pages
    // hand up their first key, which they store empty.
    const size_t length = leaf ? CommonPrefix(items_[s - 1].key, right) + 1 : right.size();
    up.keys.append(right.data(), length);
    up.ends.push_back(static_cast<uint32_t>(up.keys.size()));
  }
  for (size_t j = 0; j + 1 < parts; ++j) {
    const uint32_t begin = j == 0 ? 0 : up.ends[j - 1];
    const Slice key(up.keys.data() + begin, up.ends[j] - begin);
    const Slice child(reinterpret_cast<const char*>(up.children.data() + 4 * j), 4);
    up.items.push_back(Item{key, EntryValue{0, child}});
  }

  if (index == 0) {
    // The root split: a new root above it, with the old root as first child.
    uint32_t root;
    uint8_t* root_data;
    pager_->NewPage(&root, &root_data);
    NodeBuilder builder(root_data, page_size_, PageType::kInternal, static_cast<uint8_t>(level + 1),
                        options_.internal_restart_interval);
    EncodeFixed32(child_ref_, path_[0].page);
    builder.Add(Slice(), EntryValue{0, Slice(reinterpret_cast<char*>(child_ref_), 4)});
    builder.Finish();
    tree_->root = root;
    ++tree_->depth;
    if (tree_->depth > kMaxDepth) return Status::Corruption("tree deeper than the format allows");
    path_.insert(path_.begin(), Level{root, kPageHeaderSize, true});
    index = 1;
  }
  return MergeIntoNode(index - 1, up.items.data(), up.items.size());
}

void TreeWriter::BuildParts(PageType type, uint8_t level, bool append) {
  const bool leaf = type == PageType::kLeaf;
  const uint32_t interval =
      leaf ? options_.leaf_restart_interval : options_.internal_restart_interval;
  const size_t m = items_.size();
  item_ends_.resize(m);
  // Builds items [begin, end) into parts_[part]; returns the end of what fit.
  // A part of an internal page stores its first key empty.
  auto build = [&](size_t part, size_t begin, size_t end) {
    if (parts_.size() <= part) parts_.resize(part + 1);
    parts_[part].resize(page_size_);
    NodeBuilder builder(reinterpret_cast<uint8_t*>(parts_[part].data()), page_size_, type, level,
                        interval);
    size_t i = begin;
    for (; i < end; ++i) {
      const Slice k = (!leaf && i == begin) ? Slice() : items_[i].key;
      if (!builder.Add(k, items_[i].value)) break;
      item_ends_[i] = builder.data_end();
    }
    builder.Finish();
    return i;
  };

  // Full pages one after the other. Every entry fits an empty page on its
  // own, so each page takes at least one.
  part_starts_.clear();
  for (size_t begin = 0; begin < m;) {
    const size_t part = part_starts_.size();
    part_starts_.push_back(begin);
    begin = build(part, begin, m);
  }
  const size_t parts = part_starts_.size();
  if (append || parts < 2) return;

  // A last page under half full shares the last two pages' entries evenly
  // with the page before it, so that inserts next to it (and the random
  // inserts of a page split by one key) do not leave a nearly empty page.
  const size_t s0 = part_starts_[parts - 2];
  const size_t s1 = part_starts_[parts - 1];
  const uint32_t last_bytes = item_ends_[m - 1] - kPageHeaderSize;
  if (last_bytes >= (page_size_ - kPageHeaderSize) / 2) return;
  const uint64_t total = (item_ends_[s1 - 1] - kPageHeaderSize) + last_bytes;
  // The first split point whose left side reaches half of the bytes (sizes
  // as built: close enough, as only restart entries change size).
  size_t split = s0 + 1;
  while (split < s1 && 2 * (item_ends_[split - 1] - kPageHeaderSize) < total) ++split;
  if (split >= s1) return;
  if (build(parts, s0, split) != split || build(parts + 1, split, m) != m) return;
  std::swap(parts_[parts - 2], parts_[parts]);
  std::swap(parts_[parts - 1], parts_[parts + 1]);
  part_starts_[parts - 1] = split;
}

}  // namespace pbtree
