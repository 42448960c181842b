// FreeMap: which pages are free, which of them a writer may reuse now, and the
// bitmap pages that persist the free set (format in format.h).
//
// Bit p of the map is 1 when page p is unreachable from the committed tree.
// A page that transaction N stops using ("freed by N") is free in N's map but
// is reusable only when no reader still looks at a snapshot older than N
// (ReleasePending), and never within N itself: the previous commit, which a
// crash during N falls back to, may still reach it. A page allocated and freed
// within one transaction was never committed and is reusable at once.
//
// The map pages themselves are copy-on-write like every other page: a commit
// gives each map page whose bits changed a fresh page and frees the old one
// (PrepareCommit).
//
// Not thread-safe: owned by the Pager and used by the writer only.
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

#include "engines/pbtree/status.h"

namespace pbtree {

class FreeMap {
 public:
  explicit FreeMap(uint32_t page_size);

  // Bits covered by one map page.
  uint32_t bits_per_map_page() const { return bits_per_page_; }

  // Starts from a committed state: `page_count` pages, all in use, described by
  // `map_pages` (to be filled by LoadMapPage).
  void Reset(uint32_t page_count, std::vector<uint32_t> map_pages);
  // Reads map page `index` (already checksummed). Corruption when its header
  // names another index. Every free page becomes reusable.
  Status LoadMapPage(uint32_t index, const uint8_t* page);
  // Corruption when the loaded map frees a page it must not (the metas, a map
  // page) or disagrees with the meta's free-page count.
  Status CheckLoaded(uint32_t expected_free) const;

  bool IsFree(uint32_t page_no) const {
    return page_no < page_count_ && (free_[page_no >> 6] >> (page_no & 63) & 1);
  }
  uint32_t page_count() const { return page_count_; }
  uint32_t free_count() const { return free_count_; }
  const std::vector<uint32_t>& map_pages() const { return map_pages_; }

  // Makes pages freed by transactions <= `oldest_snapshot` reusable (every
  // pending page when `no_readers`). Inline: most commits find none pending.
  void ReleasePending(uint64_t oldest_snapshot, bool no_readers) {
    if (!pending_.empty()) ReleasePendingPages(oldest_snapshot, no_readers);
  }

  // Write transaction. Allocate returns the lowest reusable page, or grows the
  // file by one page. FreeCommitted frees a page of the committed state;
  // FreeUncommitted one allocated by this transaction.
  uint32_t Allocate();
  void FreeCommitted(uint32_t page_no);
  void FreeUncommitted(uint32_t page_no);
  // The committed pages the open transaction freed so far. The pager takes
  // out of it, before Commit, the pages that must wait for the next
  // checkpoint (commits through the log, wal.h) and hands them back with
  // AddPending once that checkpoint is written.
  const std::vector<uint32_t>& freed_committed() const { return freed_committed_; }
  std::vector<uint32_t>* mutable_freed_committed() { return &freed_committed_; }
  // `pages` (free already) become reusable once no reader older than
  // `txn_id` remains.
  void AddPending(uint64_t txn_id, const std::vector<uint32_t>& pages);
  // Every map page counts as changed (the next PrepareCommit gives each a
  // fresh page): commits through the log change the bits without writing
  // the map, so a checkpoint writes all of it.
  void MarkAllDirty();

  // Gives a fresh page to every map page whose bits changed (allocating and
  // freeing as needed) and lists their indexes in `indexes`. After this, only
  // EncodeMapPage, Commit or Abort may be called.
  void PrepareCommit(std::vector<uint32_t>* indexes);
  // Writes map page `index` (header and bits; the caller seals it).
  void EncodeMapPage(uint32_t index, uint8_t* page) const;
  // The transaction `txn_id` is durable: its freed pages become pending.
  void Commit(uint64_t txn_id);
  // Forgets everything done since the last Commit.
  void Abort();

  uint64_t pending_pages() const;

 private:
  void ReleasePendingPages(uint64_t oldest_snapshot, bool no_readers);
  void EnsureBits(uint32_t pages);
  void SetFree(uint32_t page_no, bool free);
  void SetReusable(uint32_t page_no, bool reusable);
  void MarkIndexDirty(uint32_t page_no);

  // One entry per page (in txn_id order), so that a commit allocates nothing.
  struct Pending {
    uint64_t txn_id;
    uint32_t page;
  };

  uint32_t page_size_;
  uint32_t bits_per_page_;
  uint32_t page_count_ = 0;
  uint32_t free_count_ = 0;
  std::vector<uint64_t> free_;
  std::vector<uint64_t> reusable_;
  std::vector<uint32_t> map_pages_;
  size_t search_word_ = 0;      // no reusable page below this word
  size_t run_search_word_ = 0;  // no run of 8 reusable pages starts below this word
  uint32_t last_allocated_ = 0;
  std::deque<Pending> pending_;

  // Undo information for the open transaction.
  uint32_t committed_page_count_ = 0;
  uint32_t committed_free_count_ = 0;
  std::vector<uint32_t> committed_map_pages_;
  std::vector<uint32_t> allocated_;        // taken from the reusable set
  std::vector<uint32_t> freed_committed_;  // pending once committed
  std::vector<uint8_t> index_dirty_;
  std::vector<uint8_t> index_fresh_;
  std::vector<uint32_t> dirty_indexes_;
};

}  // namespace pbtree
