// DB::Reorganize: a bulk rewrite of the committed tree into a new file, in key
// order, every page as full as it goes (leaves, then each internal level
// bottom-up), pages numbered in the order they are written so that a forward
// scan reads the file sequentially. The new file carries no free pages; it
// replaces the old one with rename(2), which is atomic: a crash leaves either
// the old file or the new one, plus possibly a stale "<path>.reorg" that the
// next Reorganize overwrites.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "engines/pbtree/btree.h"
#include "engines/pbtree/pbtree.h"

namespace pbtree {
namespace {

// Appends sealed pages to a new file, numbered from 2 (0 and 1 are the metas).
//
// It writes runs that end at the file's 2 MiB boundaries, 2 MiB at a time
// after the first. Linux sizes page-cache folios after the writes that create
// them, and a read mapping with huge pages (Options::huge_mapping) maps a
// whole large folio at a fault. Reads of the new file while the OS still
// caches it from these writes (seed 001's fresh-open gets) took 215 faults
// per 4,096 gets instead of 663 with runs of 1 MiB from page 2 (folios of at
// most 512 KiB), 13-16% less time per get in a scratch loop and 27-40% more
// gets/s in the harness's fresh-open phases (docs/reproductions.md, "pbtree,
// sixteenth round"). The checkpoints after it, which write single pages into
// those folios, took as long as before (14-15 ms after 65,536 one-key commits).
class PageAppender {
 public:
  PageAppender(int fd, std::string path, uint32_t page_size, uint64_t txn_id)
      : fd_(fd), path_(std::move(path)), page_size_(page_size), txn_id_(txn_id) {
    buffer_.resize(kRunBytes);
  }

  // Copies a finished page in and returns its number.
  Status Append(const uint8_t* page, uint32_t* page_no) {
    if (buffered_ > 0 && (uint64_t{next_page_} * page_size_) % kRunBytes == 0) {
      PBTREE_RETURN_IF_ERROR(Flush());
    }
    uint8_t* slot = buffer_.data() + static_cast<size_t>(buffered_) * page_size_;
    std::memcpy(slot, page, page_size_);
    *page_no = next_page_++;
    SealPage(slot, page_size_, *page_no, txn_id_);
    ++buffered_;
    return Status::OK();
  }

  Status Flush() {
    const size_t bytes = static_cast<size_t>(buffered_) * page_size_;
    const off_t offset = static_cast<off_t>(next_page_ - buffered_) * page_size_;
    size_t done = 0;
    while (done < bytes) {
      ssize_t w = ::pwrite(fd_, buffer_.data() + done, bytes - done, offset + done);
      if (w < 0) {
        if (errno == EINTR) continue;
        return Status::FromErrno("write " + path_, errno);
      }
      done += static_cast<size_t>(w);
    }
    buffered_ = 0;
    return Status::OK();
  }

  uint32_t next_page() const { return next_page_; }

 private:
  // A multiple of every page size (4-32 KiB), so runs stay whole pages.
  static constexpr uint64_t kRunBytes = uint64_t{2} << 20;
  int fd_;
  std::string path_;
  uint32_t page_size_;
  uint64_t txn_id_;
  std::vector<uint8_t> buffer_;
  uint32_t buffered_ = 0;
  uint32_t next_page_ = kFirstDataPage;
};

struct Child {
  std::string separator;  // lowest key the child may hold ("" for the first)
  uint32_t page;
};

class TreeRebuilder {
 public:
  TreeRebuilder(PageAppender* out, uint32_t page_size, const Options& options)
      : out_(out), page_size_(page_size), options_(options), scratch_(page_size) {}

  Status AddEntry(Slice key, Slice value) {
    EntryValue encoded{static_cast<uint32_t>(value.size()) << 1, value};
    if (value.size() > MaxInlineValue(page_size_)) {
      uint32_t first = 0;
      PBTREE_RETURN_IF_ERROR(WriteOverflow(value, &first));
      EncodeFixed32(ref_, first);
      encoded = EntryValue{encoded.field | 1, Slice(reinterpret_cast<char*>(ref_), 4)};
    }
    if (leaf_ == nullptr) StartLeaf(Slice());
    if (!leaf_->Add(key, encoded)) {
      PBTREE_RETURN_IF_ERROR(FinishLeaf());
      StartLeaf(ShortestSeparator(last_key_, key));
      leaf_->Add(key, encoded);  // an entry always fits an empty page
    }
    last_key_.assign(key);
    return Status::OK();
  }

  // Builds the internal levels; *root = 0 for an empty tree.
  Status Finish(uint32_t* root, uint32_t* depth) {
    if (leaf_ != nullptr) PBTREE_RETURN_IF_ERROR(FinishLeaf());
    *root = 0;
    *depth = 0;
    if (children_.empty()) return Status::OK();
    uint32_t level = 0;
    while (children_.size() > 1) {
      ++level;
      std::vector<Child> parents;
      std::unique_ptr<NodeBuilder> node;
      std::string node_separator;
      for (Child& child : children_) {
        EncodeFixed32(ref_, child.page);
        const EntryValue value{0, Slice(reinterpret_cast<char*>(ref_), 4)};
        if (node != nullptr && node->Add(child.separator, value)) continue;
        if (node != nullptr)
          PBTREE_RETURN_IF_ERROR(FinishNode(node.get(), &node_separator, &parents));
        node = std::make_unique<NodeBuilder>(scratch_.data(), page_size_, PageType::kInternal,
                                             static_cast<uint8_t>(level),
                                             options_.internal_restart_interval);
        node_separator = child.separator;
        node->Add(Slice(), value);  // the first key of an internal page is empty
      }
      PBTREE_RETURN_IF_ERROR(FinishNode(node.get(), &node_separator, &parents));
      children_ = std::move(parents);
    }
    *root = children_[0].page;
    *depth = level + 1;
    return Status::OK();
  }

 private:
  void StartLeaf(Slice separator) {
    leaf_ = std::make_unique<NodeBuilder>(scratch_.data(), page_size_, PageType::kLeaf, 0,
                                          options_.leaf_restart_interval);
    leaf_separator_.assign(separator);
  }

  Status FinishLeaf() { return FinishNode(leaf_.get(), &leaf_separator_, &children_); }

  Status FinishNode(NodeBuilder* node, std::string* separator, std::vector<Child>* level) {
    node->Finish();
    uint32_t page_no;
    PBTREE_RETURN_IF_ERROR(out_->Append(scratch_.data(), &page_no));
    level->push_back(Child{std::move(*separator), page_no});
    return Status::OK();
  }

  Status WriteOverflow(Slice value, uint32_t* first) {
    // Pages are numbered consecutively, so each one's successor is known.
    const uint32_t per_page = page_size_ - kPageHeaderSize;
    std::vector<uint8_t> page(page_size_);
    *first = out_->next_page();
    for (size_t done = 0; done < value.size(); done += per_page) {
      InitPage(page.data(), page_size_, PageType::kOverflow, 0);
      const size_t n = std::min<size_t>(per_page, value.size() - done);
      std::memcpy(page.data() + kPageHeaderSize, value.data() + done, n);
      const bool last = done + n >= value.size();
      EncodeFixed32(page.data() + kOffNext, last ? 0 : out_->next_page() + 1);
      uint32_t unused;
      PBTREE_RETURN_IF_ERROR(out_->Append(page.data(), &unused));
    }
    return Status::OK();
  }

  PageAppender* out_;
  uint32_t page_size_;
  Options options_;
  std::vector<uint8_t> scratch_;  // the page being built (a leaf, or an internal page)
  std::unique_ptr<NodeBuilder> leaf_;
  std::string leaf_separator_;
  std::string last_key_;
  std::vector<Child> children_;
  uint8_t ref_[4];
};

}  // namespace

Status DB::Reorganize() {
  if (pager_->read_only()) return Status::NotSupported(path_ + ": opened read-only");
  if (active_write_ != nullptr || pager_->readers().PinnedCount() > 0) {
    return Status::Busy(path_ + ": reorganize needs every transaction and cursor closed");
  }
  // Everything into the file and the log emptied: the new file continues
  // from the last commit, and no old record can follow it.
  PBTREE_RETURN_IF_ERROR(pager_->Checkpoint());
  const std::string tmp = path_ + ".reorg";
  const uint32_t page_size = pager_->page_size();
  const uint64_t txn_id = pager_->committed().txn_id + 1;
  int fd = ::open(tmp.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return Status::FromErrno("open " + tmp, errno);
  auto fail = [&](Status s) {
    ::close(fd);
    ::unlink(tmp.c_str());
    return s;
  };

  PageAppender out(fd, tmp, page_size, txn_id);
  TreeRebuilder rebuilder(&out, page_size, options_);
  Meta meta;
  {
    std::unique_ptr<Cursor> cursor = NewCursor();
    for (cursor->SeekToFirst(); cursor->Valid(); cursor->Next()) {
      const std::string key(cursor->key());
      Slice value = cursor->value();
      if (!cursor->status().ok()) break;
      Status s = rebuilder.AddEntry(key, value);
      if (!s.ok()) return fail(s);
    }
    if (!cursor->status().ok()) return fail(cursor->status());
    meta.entries = pager_->committed().entries;
  }
  Status s = rebuilder.Finish(&meta.root, &meta.depth);
  if (!s.ok()) return fail(s);

  // A free map with no free page, covering the map pages themselves.
  FreeMap map(page_size);
  const uint32_t bits = map.bits_per_map_page();
  uint32_t map_count = 1;
  while (static_cast<uint64_t>(out.next_page()) + map_count >
         static_cast<uint64_t>(map_count) * bits) {
    ++map_count;
  }
  if (map_count > MaxFreeMapPages(page_size)) {
    return fail(Status::NotSupported(path_ + ": file too large for one meta page's free map"));
  }
  std::vector<uint8_t> page(page_size);
  for (uint32_t i = 0; i < map_count; ++i) {
    InitPage(page.data(), page_size, PageType::kFreeMap, 0);
    EncodeFixed32(page.data() + kOffNext, i);
    uint32_t page_no = 0;
    s = out.Append(page.data(), &page_no);
    if (!s.ok()) return fail(s);
    meta.free_map_pages.push_back(page_no);
  }
  s = out.Flush();
  if (!s.ok()) return fail(s);

  meta.txn_id = txn_id;
  meta.page_size = page_size;
  meta.page_count = out.next_page();
  meta.free_pages = 0;
  for (uint32_t slot = 0; slot < 2; ++slot) {
    EncodeMeta(meta, slot, page.data());
    if (::pwrite(fd, page.data(), page_size, static_cast<off_t>(slot) * page_size) !=
        static_cast<ssize_t>(page_size)) {
      return fail(Status::FromErrno("write " + tmp, errno));
    }
  }
  if (options_.sync == SyncMode::kCommit && ::fsync(fd) != 0) {
    return fail(Status::FromErrno("fsync " + tmp, errno));
  }
  ::close(fd);
  if (::rename(tmp.c_str(), path_.c_str()) != 0) {
    Status err = Status::FromErrno("rename " + tmp + " to " + path_, errno);
    ::unlink(tmp.c_str());
    return err;
  }
  // From here the file at path_ is the new one. The old handle's lock is on
  // the old (now unlinked) file, so the new pager can lock the new one.
  ReleaseWriterSlot();  // a slot of the old pager's reader table
  std::unique_ptr<Pager> old = std::move(pager_);
  s = OpenPager();
  if (!s.ok()) {
    pager_ = std::move(old);  // keeps serving the old snapshot
    OpenPagerWriter();
    return s.WithContext("reopen after reorganize");
  }
  // The new pager's frames reuse the old one's memory, which is faulted in.
  pager_->AdoptCacheMemory(old.get());
  if (options_.sync == SyncMode::kCommit) PBTREE_RETURN_IF_ERROR(SyncDirectoryOf(path_));
  return Status::OK();
}

}  // namespace pbtree
