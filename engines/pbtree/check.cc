// DB::Check and DB::GetStats: one walk over the committed state, reading
// every page from disk (not the cache), so that what is verified is the file.
#include <algorithm>

#include "engines/pbtree/btree.h"
#include "engines/pbtree/commit_queue.h"
#include "engines/pbtree/pbtree.h"

namespace pbtree {
namespace {

class CommittedWalk {
 public:
  CommittedWalk(Pager* pager, Stats* stats)
      : pager_(pager),
        meta_(pager->committed()),
        page_size_(pager->page_size()),
        stats_(stats),
        used_(meta_.page_count, 0),
        buffers_(kMaxDepth + 1, std::vector<uint8_t>(page_size_)) {}

  Status Run(CheckReport* report) {
    used_[kMetaPage0] = used_[kMetaPage1] = 1;
    if (meta_.root != 0) {
      PBTREE_RETURN_IF_ERROR(Node(meta_.root, meta_.depth - 1, nullptr, nullptr));
    }
    if (entries_ != meta_.entries) {
      return Fail("the tree holds " + std::to_string(entries_) + " keys, the meta page says " +
                  std::to_string(meta_.entries));
    }
    PBTREE_RETURN_IF_ERROR(FreeMapPages());
    report->pages_checked = pages_checked_;
    report->entries = entries_;
    report->free_pages = free_pages_;
    return Status::OK();
  }

 private:
  Status Fail(const std::string& what) { return Status::Corruption(pager_->path() + ": " + what); }

  Status Mark(uint32_t page_no) {
    if (page_no < kFirstDataPage || page_no >= meta_.page_count) {
      return Fail("reference to page " + std::to_string(page_no) + " outside the file");
    }
    if (used_[page_no]) return Fail("page " + std::to_string(page_no) + " is used twice");
    used_[page_no] = 1;
    ++pages_checked_;
    return Status::OK();
  }

  // Checks the subtree at page_no: keys k with lower <= k < upper (null:
  // unbounded).
  Status Node(uint32_t page_no, uint32_t level, const std::string* lower,
              const std::string* upper) {
    PBTREE_RETURN_IF_ERROR(Mark(page_no));
    uint8_t* page = buffers_[level].data();
    PBTREE_RETURN_IF_ERROR(pager_->ReadUncached(page_no, page));
    const PageType want = level == 0 ? PageType::kLeaf : PageType::kInternal;
    if (GetPageType(page) != want || GetLevel(page) != level) {
      return Fail("page " + std::to_string(page_no) + " is not at level " + std::to_string(level));
    }
    NodePage node(page, page_size_);
    DecodedNode decoded;
    DecodeNode(page, page_size_, &decoded);
    const size_t n = decoded.entries.size();
    auto out_of_range = [&](Slice key) {
      return (lower != nullptr && key < Slice(*lower)) ||
             (upper != nullptr && key >= Slice(*upper));
    };
    if (level == 0) {
      stats_->leaf_pages++;
      leaf_used_ += node.used_bytes();
      for (size_t i = 0; i < n; ++i) {
        Slice key = decoded.key(i);
        if (out_of_range(key)) {
          return Fail("page " + std::to_string(page_no) + ": key outside its parent's range");
        }
      }
      // Per-entry figures from the page itself.
      for (uint32_t pos = kPageHeaderSize; pos < node.data_end();) {
        EntryView e = node.Entry(pos);
        stats_->key_bytes_raw += e.shared + e.unshared;
        stats_->key_bytes_stored += VarintLength(e.shared) + VarintLength(e.unshared) + e.unshared;
        stats_->value_bytes += e.field >> 1;
        if (e.field & 1) PBTREE_RETURN_IF_ERROR(Overflow(e));
        pos = e.end;
      }
      entries_ += n;
      return Status::OK();
    }
    stats_->internal_pages++;
    internal_used_ += node.used_bytes();
    stats_->separator_bytes += node.data_end() - kPageHeaderSize;
    std::vector<std::string> keys(n);
    std::vector<uint32_t> children(n);
    for (size_t i = 0; i < n; ++i) {
      keys[i] = std::string(decoded.key(i));
      children[i] =
          DecodeFixed32(reinterpret_cast<const uint8_t*>(decoded.value(i).payload.data()));
      if (i > 0 && out_of_range(keys[i])) {
        return Fail("page " + std::to_string(page_no) + ": separator outside its parent's range");
      }
      if (i > 0 && lower != nullptr && keys[i] == *lower) {
        return Fail("page " + std::to_string(page_no) + ": separator equals its lower bound");
      }
    }
    for (size_t i = 0; i < n; ++i) {
      const std::string* lo = i == 0 ? lower : &keys[i];
      const std::string* hi = i + 1 < n ? &keys[i + 1] : upper;
      PBTREE_RETURN_IF_ERROR(Node(children[i], level - 1, lo, hi));
    }
    return Status::OK();
  }

  Status Overflow(const EntryView& e) {
    const uint32_t per_page = page_size_ - kPageHeaderSize;
    const uint32_t length = e.field >> 1;
    if (length <= MaxInlineValue(page_size_)) return Fail("short value stored in overflow pages");
    uint32_t page_no = DecodeFixed32(e.payload);
    uint8_t* page = buffers_[kMaxDepth].data();
    for (uint32_t n = (length + per_page - 1) / per_page; n > 0; --n) {
      PBTREE_RETURN_IF_ERROR(Mark(page_no));
      PBTREE_RETURN_IF_ERROR(pager_->ReadUncached(page_no, page));
      if (GetPageType(page) != PageType::kOverflow) {
        return Fail("page " + std::to_string(page_no) + " is not an overflow page");
      }
      stats_->overflow_pages++;
      page_no = GetNext(page);
      if ((n == 1) != (page_no == 0)) return Fail("overflow chain length does not match its value");
    }
    return Status::OK();
  }

  Status FreeMapPages() {
    FreeMap map(page_size_);
    map.Reset(meta_.page_count, meta_.free_map_pages);
    uint8_t* page = buffers_[kMaxDepth].data();
    for (uint32_t i = 0; i < meta_.free_map_pages.size(); ++i) {
      PBTREE_RETURN_IF_ERROR(Mark(meta_.free_map_pages[i]));
      PBTREE_RETURN_IF_ERROR(pager_->ReadUncached(meta_.free_map_pages[i], page));
      PBTREE_RETURN_IF_ERROR(map.LoadMapPage(i, page).WithContext(pager_->path()));
      stats_->free_map_pages++;
    }
    for (uint32_t p = kFirstDataPage; p < meta_.page_count; ++p) {
      const bool free = map.IsFree(p);
      if (free && used_[p]) return Fail("page " + std::to_string(p) + " is both in use and free");
      if (!free && !used_[p])
        return Fail("page " + std::to_string(p) + " is lost (not in use, not free)");
      free_pages_ += free;
    }
    if (free_pages_ != meta_.free_pages) return Fail("free page count differs from the meta page");
    stats_->free_pages = free_pages_;
    stats_->leaf_fill =
        stats_->leaf_pages ? double(leaf_used_) / (stats_->leaf_pages * page_size_) : 0;
    stats_->internal_fill =
        stats_->internal_pages ? double(internal_used_) / (stats_->internal_pages * page_size_) : 0;
    return Status::OK();
  }

  Pager* pager_;
  const Meta& meta_;
  uint32_t page_size_;
  Stats* stats_;
  std::vector<uint8_t> used_;
  std::vector<std::vector<uint8_t>> buffers_;  // one per level, the last for overflow/map pages
  uint64_t entries_ = 0;
  uint64_t pages_checked_ = 0;
  uint64_t free_pages_ = 0;
  uint64_t leaf_used_ = 0;
  uint64_t internal_used_ = 0;
};

}  // namespace

// Both verify the file: commits still only in the log are written first (a
// read-only handle, which cannot write them, refuses).
Status DB::CheckpointForWalk() {
  if (!pager_->HasUnflushed()) return Status::OK();
  if (options_.read_only) {
    return Status::NotSupported(path_ + ": its log holds commits not yet in the file; open it "
                                "read-write to check it");
  }
  return Checkpoint();
}

Status DB::Check(CheckReport* report) {
  PBTREE_RETURN_IF_ERROR(CheckpointForWalk());
  Stats stats;
  CheckReport local;
  return CommittedWalk(pager_.get(), &stats).Run(report != nullptr ? report : &local);
}

Status DB::GetStats(Stats* stats) {
  *stats = Stats();
  PBTREE_RETURN_IF_ERROR(CheckpointForWalk());
  CheckReport report;
  PBTREE_RETURN_IF_ERROR(CommittedWalk(pager_.get(), stats).Run(&report));
  const Meta& m = pager_->committed();
  stats->page_size = m.page_size;
  stats->txn_id = m.txn_id;
  stats->depth = m.depth;
  stats->entries = m.entries;
  stats->file_pages = m.page_count;
  const PagerCounters c = pager_->counters();
  stats->cache_misses = c.cache_misses;
  stats->cached_pages = pager_->cached_pages();
  stats->pages_written = c.pages_written;
  stats->write_calls = c.write_calls;
  stats->syncs = c.syncs;
  stats->commits = c.commits;
  stats->in_place_commits = c.in_place_commits;
  const DescentCounters& d = writer_->descents();
  stats->descents_from_root = d.from_root;
  stats->descents_from_parent = d.from_parent;
  stats->descents_skipped = d.skipped;
  if (commit_queue_ != nullptr) {
    stats->group_commits = commit_queue_->groups();
    stats->grouped_writes = commit_queue_->grouped_writes();
  }
  stats->recovered_from_bad_meta = pager_->recovered_from_bad_meta();
  stats->huge_mapping = pager_->huge_mapping();
  return Status::OK();
}

}  // namespace pbtree
