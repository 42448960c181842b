#include "engines/pbtree/pager.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>

#include "engines/pbtree/hot.h"
#include "engines/pbtree/node_page.h"

namespace pbtree {
namespace {

std::atomic<uint64_t> next_pager_id{1};  // Pager::id()

Status PreadFully(int fd, uint8_t* buf, size_t n, uint64_t offset, const std::string& path,
                  size_t* got) {
  size_t done = 0;
  while (done < n) {
    ssize_t r = ::pread(fd, buf + done, n - done, static_cast<off_t>(offset + done));
    if (r < 0) {
      if (errno == EINTR) continue;
      return Status::FromErrno("read " + path, errno);
    }
    if (r == 0) break;
    done += static_cast<size_t>(r);
  }
  *got = done;
  return Status::OK();
}

// Finds the newest valid meta page. Tries every legal page size, since the
// size itself is stored in the (possibly damaged) meta pages.
Status ChooseMeta(int fd, const std::string& path, uint64_t file_size, Meta* meta,
                  bool* recovered) {
  std::vector<uint8_t> buf(2 * kMaxPageSize);
  size_t got = 0;
  PBTREE_RETURN_IF_ERROR(PreadFully(fd, buf.data(), buf.size(), 0, path, &got));
  for (uint32_t ps = kMinPageSize; ps <= kMaxPageSize; ps *= 2) {
    if (got < 2ull * ps) continue;
    Meta metas[2];
    Status st[2];
    for (uint32_t slot = 0; slot < 2; ++slot) {
      st[slot] = DecodeMeta(buf.data() + slot * ps, ps, slot, &metas[slot]);
    }
    if (!st[0].ok() && !st[1].ok()) continue;
    const int best = !st[0].ok()   ? 1
                     : !st[1].ok() ? 0
                                   : (metas[1].txn_id > metas[0].txn_id ? 1 : 0);
    *recovered = !st[0].ok() || !st[1].ok();
    *meta = metas[best];
    const uint64_t needed = static_cast<uint64_t>(meta->page_count) * ps;
    if (needed > file_size) {
      return Status::Corruption(path + ": truncated: the file has " + std::to_string(file_size) +
                                " bytes, its meta page needs " + std::to_string(needed));
    }
    return Status::OK();
  }
  // No valid meta: tell a damaged pbtree file from something else. The page
  // size claimed by whichever slot still has the magic names the slots.
  uint32_t claimed = 0;
  for (uint32_t ps = kMinPageSize; ps <= kMaxPageSize && claimed == 0; ps *= 2) {
    for (uint32_t off : {0u, ps}) {
      if (got > off && ClaimedPageSize(buf.data() + off, got - off) == ps) {
        claimed = ps;
        break;
      }
    }
  }
  if (claimed == 0) {
    if (HasMagic(buf.data(), got)) {
      return Status::Corruption(path + ": meta page 0 has a bad page size field");
    }
    return Status::InvalidArgument(path + ": not a pbtree file (no pbtree magic)");
  }
  if (got < 2ull * claimed) {
    return Status::Corruption(path + ": truncated: " + std::to_string(file_size) +
                              " bytes, too short for two meta pages of " + std::to_string(claimed) +
                              " bytes");
  }
  Meta unused;
  Status s0 = DecodeMeta(buf.data(), claimed, 0, &unused);
  Status s1 = DecodeMeta(buf.data() + claimed, claimed, 1, &unused);
  return Status::Corruption(path + ": no valid meta page (" + s0.message() + "; " + s1.message() +
                            ")");
}

}  // namespace

Status SyncDirectoryOf(const std::string& path) {
  std::string dir = ".";
  size_t slash = path.rfind('/');
  if (slash != std::string::npos) dir = slash == 0 ? "/" : path.substr(0, slash);
  int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd < 0) return Status::FromErrno("open directory " + dir, errno);
  int rc = ::fsync(dfd);
  int err = errno;
  ::close(dfd);
  if (rc != 0) return Status::FromErrno("fsync directory " + dir, err);
  return Status::OK();
}

Pager::Pager(std::string path, const PagerOptions& options, int fd, const Meta& meta)
    : id_(next_pager_id.fetch_add(1, std::memory_order_relaxed)),
      path_(std::move(path)),
      options_(options),
      fd_(fd),
      page_size_(meta.page_size),
      committed_(meta),
      free_map_(meta.page_size),
      cache_(meta.page_size, options.cache_bytes / meta.page_size, uint64_t{1} << 32, &readers_) {
  Publish();
}

PBTREE_HOT void Pager::Publish() {
  // A sequence lock: readers retry while the count is odd or has moved.
  const uint64_t seq = snapshot_seq_.load(std::memory_order_relaxed);
  snapshot_seq_.store(seq + 1, std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_release);
  snapshot_pages_.store(committed_.page_count, std::memory_order_relaxed);
  snapshot_root_.store(committed_.root, std::memory_order_relaxed);
  snapshot_depth_.store(committed_.depth, std::memory_order_relaxed);
  snapshot_entries_.store(committed_.entries, std::memory_order_relaxed);
  snapshot_txn_.store(committed_.txn_id, std::memory_order_relaxed);
  snapshot_seq_.store(seq + 2, std::memory_order_release);
}

Snapshot Pager::snapshot() const {
  for (;;) {
    const uint64_t seq = snapshot_seq_.load(std::memory_order_acquire);
    Snapshot s;
    s.txn_id = snapshot_txn_.load(std::memory_order_relaxed);
    s.root = snapshot_root_.load(std::memory_order_relaxed);
    s.depth = snapshot_depth_.load(std::memory_order_relaxed);
    s.entries = snapshot_entries_.load(std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_acquire);
    if ((seq & 1) == 0 && snapshot_seq_.load(std::memory_order_relaxed) == seq) return s;
  }
}

Snapshot Pager::PinLatest(ReaderSlot* slot) {
  for (;;) {
    const Snapshot s = snapshot();
    slot->snapshot.store(s.txn_id, std::memory_order_relaxed);
    readers_.Enter(slot);  // ends with the full fence the protocol needs
    // Still the last commit: any writer that reads the pins from now on sees
    // this one (reader_table.h). Else pin the newer commit.
    if (snapshot_txn_.load(std::memory_order_relaxed) == s.txn_id) return s;
  }
}

PagerCounters Pager::counters() const {
  PagerCounters c = counters_;
  c.cache_misses = cache_misses_.load(std::memory_order_relaxed);
  return c;
}

Pager::~Pager() {
  if (map_ != nullptr) ::munmap(const_cast<uint8_t*>(map_), map_bytes_);
  if (fd_ >= 0) ::close(fd_);
}

void Pager::MapFile() {
  if (!options_.mmap_reads) return;
  // A reservation of address space, not memory: twice the file, at least
  // 16 GiB, so the mapping need not move (readers hold pointers into it)
  // while the file grows. Pages past it are read with pread.
  const uint64_t want = std::max<uint64_t>(uint64_t{16} << 30, 2 * file_size_);
  const uint64_t pages = std::min<uint64_t>(want / page_size_, UINT32_MAX);
  const size_t bytes = static_cast<size_t>(pages) * page_size_;
  void* m = ::mmap(nullptr, bytes, PROT_READ, MAP_SHARED, fd_, 0);
  if (m == MAP_FAILED) return;  // reads stay on pread
  map_ = static_cast<const uint8_t*>(m);
  map_bytes_ = bytes;
  checked_.reset(new std::atomic<uint64_t>[pages / 64 + 1]());
  if (options_.huge_mapping) {
    const long memory_pages = ::sysconf(_SC_PHYS_PAGES);
    const long memory_page_size = ::sysconf(_SC_PAGESIZE);
    if (memory_pages > 0 && memory_page_size > 0) {
      huge_limit_ =
          static_cast<uint64_t>(memory_pages) * static_cast<uint64_t>(memory_page_size) / 4;
    }
  }
  ExtendMapped();
}

void Pager::ExtendMapped() {
  if (map_ == nullptr) return;
  const uint64_t pages = std::min<uint64_t>(file_size_ / page_size_, map_bytes_ / page_size_);
  mapped_pages_.store(static_cast<uint32_t>(pages), std::memory_order_release);
  AdviseMapping();
}

void Pager::AdviseMapping() {
  const bool want = huge_limit_ > 0 && file_size_ <= huge_limit_;
  if (want == huge_mapped_.load(std::memory_order_relaxed)) return;
  void* map = const_cast<uint8_t*>(map_);
  if (want) {
    // Fails (EINVAL) on a kernel without transparent huge pages: the reads
    // then keep the 128 KiB read-around of AdviseChunkOnce.
    huge_mapped_.store(::madvise(map, map_bytes_, MADV_HUGEPAGE) == 0, std::memory_order_relaxed);
  } else {
    // The file outgrew the limit: faults from now on map ordinary pages.
    ::madvise(map, map_bytes_, MADV_NOHUGEPAGE);
    huge_mapped_.store(false, std::memory_order_relaxed);
  }
}

Status Pager::Open(const std::string& path, const PagerOptions& options,
                   std::unique_ptr<Pager>* pager) {
  if (!IsValidPageSize(options.page_size)) {
    return Status::InvalidArgument("page size " + std::to_string(options.page_size) +
                                   " (must be 4096, 8192, 16384 or 32768)");
  }
  int flags = O_CLOEXEC | (options.read_only ? O_RDONLY : O_RDWR);
  if (!options.read_only && options.create_if_missing) flags |= O_CREAT;
  int fd = ::open(path.c_str(), flags, 0644);
  if (fd < 0) {
    if (errno == ENOENT) return Status::NotFound(path + ": no such file");
    return Status::FromErrno("open " + path, errno);
  }
  auto fail = [fd](Status s) {
    ::close(fd);
    return s;
  };
  if (::flock(fd, (options.read_only ? LOCK_SH : LOCK_EX) | LOCK_NB) != 0) {
    if (errno == EWOULDBLOCK) return fail(Status::Busy(path + ": locked by another handle"));
    return fail(Status::FromErrno("lock " + path, errno));
  }
  struct stat st;
  if (::fstat(fd, &st) != 0) return fail(Status::FromErrno("stat " + path, errno));
  const uint64_t file_size = static_cast<uint64_t>(st.st_size);

  Meta meta;
  bool recovered = false;
  if (file_size == 0) {
    if (options.read_only) return fail(Status::InvalidArgument(path + ": empty file"));
    // A new database: both meta slots describe the empty tree at txn 0.
    meta.page_size = options.page_size;
    std::vector<uint8_t> page(meta.page_size);
    for (uint32_t slot = 0; slot < 2; ++slot) {
      EncodeMeta(meta, slot, page.data());
      if (::pwrite(fd, page.data(), page.size(), static_cast<off_t>(slot) * meta.page_size) !=
          static_cast<ssize_t>(page.size())) {
        return fail(Status::FromErrno("write " + path, errno));
      }
    }
    if (options.sync_on_commit) {
      if (::fdatasync(fd) != 0) return fail(Status::FromErrno("fdatasync " + path, errno));
      Status s = SyncDirectoryOf(path);
      if (!s.ok()) return fail(s);
    }
  } else {
    Status s = ChooseMeta(fd, path, file_size, &meta, &recovered);
    if (!s.ok()) return fail(s);
  }
  std::unique_ptr<Pager> p(new Pager(path, options, fd, meta));
  p->recovered_ = recovered;
  p->file_size_ = std::max<uint64_t>(file_size, 2ull * meta.page_size);
  p->MapFile();
  PBTREE_RETURN_IF_ERROR(p->LoadFreeMap());
  if (options.wal) {
    PBTREE_RETURN_IF_ERROR(WriteAheadLog::Open(path + "-log", options.read_only,
                                               options.sync_on_commit, options.wal_checkpoint_bytes,
                                               &p->log_));
    // A commit acknowledged in a new log must not vanish with the log's name.
    if (options.sync_on_commit && p->log_->created()) {
      PBTREE_RETURN_IF_ERROR(SyncDirectoryOf(path));
    }
  }
  p->checkpoint_pages_ = options.wal_checkpoint_pages != 0
                             ? options.wal_checkpoint_pages
                             : std::max<uint64_t>(options.cache_bytes / p->page_size_ / 2, 64);
  *pager = std::move(p);
  return Status::OK();
}

Status Pager::LoadFreeMap() {
  free_map_.Reset(committed_.page_count, committed_.free_map_pages);
  const uint32_t needed =
      (committed_.page_count + free_map_.bits_per_map_page() - 1) / free_map_.bits_per_map_page();
  if (committed_.free_map_pages.size() > needed) {
    return Status::Corruption(path_ + ": more free map pages than the file needs");
  }
  std::vector<uint8_t> buf(page_size_);
  for (uint32_t i = 0; i < committed_.free_map_pages.size(); ++i) {
    const uint32_t pg = committed_.free_map_pages[i];
    PBTREE_RETURN_IF_ERROR(PreadPage(pg, buf.data()));
    PBTREE_RETURN_IF_ERROR(free_map_.LoadMapPage(i, buf.data()).WithContext(path_));
  }
  return free_map_.CheckLoaded(committed_.free_pages).WithContext(path_);
}

Status Pager::PreadPage(uint32_t page_no, uint8_t* buf) {
  size_t got = 0;
  PBTREE_RETURN_IF_ERROR(
      PreadFully(fd_, buf, page_size_, static_cast<uint64_t>(page_no) * page_size_, path_, &got));
  if (got != page_size_) {
    return Status::Corruption(path_ + ": truncated: page " + std::to_string(page_no) +
                              " is past the end of the file");
  }
  return Status::OK();
}

Status Pager::CheckPage(uint32_t page_no, const uint8_t* buf) {
  if (options_.verify_checksums && !ChecksumMatches(buf, page_size_, page_no)) {
    return Status::Corruption(path_ + ": page " + std::to_string(page_no) + ": checksum mismatch");
  }
  if (GetPageTxn(buf) > snapshot_txn_.load(std::memory_order_relaxed)) {
    return Status::Corruption(path_ + ": page " + std::to_string(page_no) +
                              " was written after the last commit");
  }
  const PageType type = GetPageType(buf);
  if (type == PageType::kLeaf || type == PageType::kInternal) {
    return ValidateNodePage(buf, page_size_, page_no).WithContext(path_);
  }
  if (type != PageType::kOverflow && type != PageType::kFreeMap) {
    return Status::Corruption(path_ + ": page " + std::to_string(page_no) + ": unknown page type");
  }
  return Status::OK();
}

Status Pager::ReadChecked(uint32_t page_no, uint32_t page_count, uint8_t* buf) {
  if (page_no < kFirstDataPage || page_no >= page_count) {
    return Status::Corruption(path_ + ": reference to page " + std::to_string(page_no) +
                              " outside the file");
  }
  PBTREE_RETURN_IF_ERROR(PreadPage(page_no, buf));
  return CheckPage(page_no, buf);
}

// Any thread. Two threads checking the same page both check it.
Status Pager::CheckMapped(uint32_t page_no, const uint8_t** page) {
  cache_misses_.fetch_add(1, std::memory_order_relaxed);
  const uint32_t page_count = snapshot_pages_.load(std::memory_order_acquire);
  if (page_no < kFirstDataPage || page_no >= page_count) {
    return Status::Corruption(path_ + ": reference to page " + std::to_string(page_no) +
                              " outside the file");
  }
  AdviseChunkOnce(page_no);
  const uint8_t* data = Mapped(page_no);
  PrefetchMapped(data);
  PBTREE_RETURN_IF_ERROR(CheckPage(page_no, data));
  checked_[page_no >> 6].fetch_or(uint64_t{1} << (page_no & 63), std::memory_order_release);
  *page = data;
  return Status::OK();
}

// A page checked on its first read is most likely in RAM only: its checksum
// then waited on its lines as the pass reached them, 790 ns for a 4 KiB page
// against 180 ns in the CPU's caches (a scratch loop over random pages of a
// 512 MiB buffer). Asked for all at once, they arrive together: 640 ns. A
// prefetch of a page the mapping has no entry for yet is dropped, so one
// load maps it first (a fault, as the check's own first load would be).
void Pager::PrefetchMapped(const uint8_t* data) const {
  const uint8_t first = *static_cast<const volatile uint8_t*>(data);
  static_cast<void>(first);
  PrefetchLines(data, /*whole_page=*/true);
}

Status Pager::ReadUncached(uint32_t page_no, uint8_t* buf) {
  if (IsUnflushed(page_no)) {  // not in the file yet (a read-only handle's replay)
    if (const uint8_t* data = cache_.Find(page_no)) {
      std::memcpy(buf, data, page_size_);
      return Status::OK();
    }
  }
  return ReadChecked(page_no, snapshot_pages_.load(std::memory_order_acquire), buf);
}

// Any thread. Two threads missing the same page both read it; the second to
// publish gets the first's copy (PublishClean).
Status Pager::ReadFromDisk(uint32_t page_no, const uint8_t** page) {
  cache_misses_.fetch_add(1, std::memory_order_relaxed);
  const uint32_t page_count = snapshot_pages_.load(std::memory_order_acquire);
  if (page_no >= page_count) {
    return Status::Corruption(path_ + ": reference to page " + std::to_string(page_no) +
                              " outside the file");
  }
  AdviseChunkOnce(page_no);
  Frame* f = cache_.Reserve();
  Status s = ReadChecked(page_no, page_count, f->data());
  if (!s.ok()) {
    cache_.Unreserve(f);
    return s;
  }
  *page = cache_.PublishClean(f, page_no);
  return Status::OK();
}

// A cold 4 KiB pread costs one device round trip for one page, while LMDB's
// mmap fault reads ~128 KiB around the fault: on seed 001 (scale 0.25) both
// engines end up reading their whole file, but pbtree in ~7.5K requests and
// LMDB in ~700 (estimated as file size / request size). Asking the kernel
// once per aligned chunk to read the whole chunk gives pbtree the same
// request size; the flag vector keeps the hint to one syscall per chunk per
// open, so hot reads pay nothing. Only a hint: correctness never depends on it.
void Pager::AdviseChunkOnce(uint32_t page_no) {
  // The kernel reads 2-4 MiB around a fault of a huge-page mapping by itself;
  // WILLNEED would fill the page cache with small pages first and defeat it.
  if (huge_mapped_.load(std::memory_order_relaxed)) return;
  const uint64_t offset = static_cast<uint64_t>(page_no) * page_size_;
  const size_t chunk = static_cast<size_t>(offset / kReadaheadChunkBytes);
  {
    std::lock_guard lock(advised_mu_);
    if (chunk >= advised_chunks_.size()) advised_chunks_.resize(chunk + 1, 0);
    if (advised_chunks_[chunk]) return;
    advised_chunks_[chunk] = 1;
  }
  ::posix_fadvise(fd_, static_cast<off_t>(chunk * kReadaheadChunkBytes), kReadaheadChunkBytes,
                  POSIX_FADV_WILLNEED);
}

PBTREE_HOT Status Pager::BeginWrite(bool replay, const InPlaceRequest* in_place) {
  if (options_.read_only && !replay) return Status::NotSupported(path_ + ": opened read-only");
  if (!sticky_error_.ok()) return sticky_error_;
  // First: its full fence comes before anything is read (pager.h).
  uint64_t oldest;
  if (in_place != nullptr && log_ != nullptr && !options_.sync_on_commit) {
    const bool raise = alone_last_;
    oldest = readers_.ScanForWriter(in_place->writer_slot, raise, &alone_last_);
    in_place_raised_ = raise && alone_last_;
    in_place_log_ = in_place->log_record;
  } else {
    oldest = readers_.OldestSnapshot();
  }
  DropFreedUnflushed(oldest == kNoSnapshot ? 0 : oldest, oldest == kNoSnapshot);
  free_map_.ReleasePending(oldest == kNoSnapshot ? 0 : oldest, oldest == kNoSnapshot);
  dirty_pages_.clear();
  begin_changes_ = page_changes_;
  return Status::OK();
}

void Pager::NewPage(uint32_t* page_no, uint8_t** page) {
  ++page_changes_;
  const uint32_t p = free_map_.Allocate();
  Frame* f = cache_.AddDirty(p);  // drops a stale copy of the page's previous life
  dirty_pages_.push_back(p);
  *page_no = p;
  *page = f->data();
}

Status Pager::MakeWritable(uint32_t page_no, uint32_t* page_no_out, uint8_t** page) {
  Frame* f = cache_.Lookup(page_no);
  if (f != nullptr && f->dirty) {
    *page_no_out = page_no;
    *page = f->data();
    return Status::OK();
  }
  if (f != nullptr && IsUnflushed(page_no)) {
    // Committed through the log since the last checkpoint: the file does not
    // hold it, so the change needs no new page number, only a new version in
    // memory (page_cache.h). The pinned frame is never evicted by AddVersion.
    Frame* copy = cache_.AddVersion(page_no, committed_.txn_id + 1);
    CopyPage(copy->data(), f->data());
    dirty_pages_.push_back(page_no);
    *page_no_out = page_no;
    *page = copy->data();
    return Status::OK();
  }
  // Copy-on-write in memory too: readers of the committed state may be
  // reading the clean frame right now, so the writer changes a copy. The
  // reservation may evict the clean frame (this thread's own eviction reuses
  // it at once), so it is looked up again after.
  Frame* copy = cache_.Reserve();
  if (const uint8_t* from = InMemory(page_no)) {
    // Cached, or mapped and checked since it was last written.
    CopyPage(copy->data(), from);
  } else {
    Status s = ReadChecked(page_no, snapshot_pages_.load(std::memory_order_acquire), copy->data());
    if (!s.ok()) {
      cache_.Unreserve(copy);
      return s;
    }
  }
  ++page_changes_;
  const uint32_t q = free_map_.Allocate();
  free_map_.FreeCommitted(page_no);
  cache_.PublishDirty(copy, q);
  dirty_pages_.push_back(q);
  *page_no_out = q;
  *page = copy->data();
  return Status::OK();
}

PBTREE_HOT uint8_t* Pager::TakeInPlace(Frame* f, uint32_t page_no) {
  in_place_frames_[in_place_pages_] = f;
  in_place_versions_[in_place_pages_++] = f->version;
  f->dirty = true;
  f->version = committed_.txn_id + 1;
  dirty_pages_.push_back(page_no);
  return f->data();
}

void Pager::GiveBackInPlace(uint32_t page_no) {
  Frame* f = cache_.Lookup(page_no);
  f->dirty = false;
  f->version = in_place_versions_[--in_place_pages_];
  dirty_pages_.pop_back();
}

PBTREE_HOT Status Pager::WriteInPlace(uint32_t page_no, uint8_t** page) {
  *page = nullptr;
  if (!in_place_raised_ || !dirty_pages_.empty()) return Status::OK();
  Frame* f = cache_.Lookup(page_no);
  // And the record cannot fail to go in.
  bool cannot_fail = false;
  if (CanChangeInPlace(f, page_no, 1)) {
    PBTREE_RETURN_IF_ERROR(log_->Reserve(in_place_log_->size(), &cannot_fail));
  }
  if (!cannot_fail) {
    // The usual way: readers need not wait for it.
    EndWrite();
    return Status::OK();
  }
  *page = TakeInPlace(f, page_no);
  return Status::OK();
}

void Pager::UndoInPlace(uint32_t page_no) {
  GiveBackInPlace(page_no);
  EndWrite();
}

void Pager::WriteInPlaceAlso(uint32_t page_no, size_t dirty, uint8_t** page) {
  *page = nullptr;
  if (in_place_pages_ != 1 || dirty_pages_.size() != 1) return;
  // The log's room for the record is reserved already.
  Frame* f = cache_.Lookup(page_no);
  if (CanChangeInPlace(f, page_no, dirty)) *page = TakeInPlace(f, page_no);
}

void Pager::UndoInPlaceAlso(uint32_t page_no) { GiveBackInPlace(page_no); }

void Pager::FreePage(uint32_t page_no) {
  ++page_changes_;
  Frame* f = cache_.Lookup(page_no);
  if (f != nullptr && f->dirty && f->older.load(std::memory_order_relaxed) != nullptr) {
    // A new version of a committed page: the committed page is what is freed.
    cache_.DropVersion(page_no);
    free_map_.FreeCommitted(page_no);
  } else if (f != nullptr && f->dirty) {
    cache_.Erase(page_no);
    free_map_.FreeUncommitted(page_no);
  } else {
    free_map_.FreeCommitted(page_no);
  }
}

void Pager::Abort() {
  ++page_changes_;
  if (in_place_pages_ != 0) {
    // Changed in place and not committed (WriteInPlace's checks make this
    // unreachable): the change cannot be undone, so nothing more is
    // committed, and no checkpoint writes it; reopening recovers the file.
    for (size_t i = 0; i < in_place_pages_; ++i) cache_.Lookup(dirty_pages_[i])->dirty = false;
    dirty_pages_.erase(dirty_pages_.begin(), dirty_pages_.begin() + in_place_pages_);
    in_place_pages_ = 0;
    sticky_error_ = Status::Corruption(path_ + ": a change made in place could not be committed");
  }
  for (uint32_t p : dirty_pages_) {
    const Frame* f = cache_.Lookup(p);
    if (f == nullptr || !f->dirty) continue;
    if (f->older.load(std::memory_order_relaxed) != nullptr) {
      cache_.DropVersion(p);
    } else {
      cache_.Erase(p);
    }
  }
  dirty_pages_.clear();
  free_map_.Abort();
  cache_.Shrink();
}

// Pages per write call at most. Linux sizes page-cache folios after the
// writes that create them, and a later 4 KiB write into a large folio costs
// time in proportion to the folio (ext4 walks all its block buffers): with
// 1 MiB runs, a one-page commit's writes took ~3x longer than with 32 KiB.
constexpr size_t kMaxPagesPerWrite = 8;

Status Pager::WritePages(std::vector<std::pair<uint32_t, uint8_t*>>* pages, uint64_t txn_id) {
  std::sort(pages->begin(), pages->end());
  std::vector<iovec> iov;
  iov.reserve(kMaxPagesPerWrite);
  size_t i = 0;
  while (i < pages->size()) {
    // One pwritev per run of consecutive pages.
    const uint32_t first = (*pages)[i].first;
    iov.clear();
    size_t j = i;
    while (j < pages->size() && iov.size() < kMaxPagesPerWrite &&
           (*pages)[j].first == first + (j - i)) {
      // Sealed just before the write, so that the kernel's copy finds the
      // page still in the CPU cache; the next page is fetched meanwhile
      // (hardware prefetchers stop at 4 KiB boundaries).
      if (j + 1 < pages->size()) {
        const uint8_t* next = (*pages)[j + 1].second;
        for (uint32_t line = 0; line < page_size_; line += 64) __builtin_prefetch(next + line);
      }
      SealPage((*pages)[j].second, page_size_, (*pages)[j].first, txn_id);
      iov.push_back(iovec{(*pages)[j].second, page_size_});
      ++j;
    }
    uint64_t offset = static_cast<uint64_t>(first) * page_size_;
    size_t remaining = iov.size() * page_size_;
    size_t k = 0;
    while (remaining > 0) {
      ssize_t w = ::pwritev(fd_, iov.data() + k, static_cast<int>(iov.size() - k),
                            static_cast<off_t>(offset));
      if (w < 0) {
        if (errno == EINTR) continue;
        return Status::FromErrno("write " + path_, errno);
      }
      ++counters_.write_calls;
      offset += static_cast<size_t>(w);
      remaining -= static_cast<size_t>(w);
      // Skip what was written, trimming a partly written iovec.
      size_t left = static_cast<size_t>(w);
      while (k < iov.size() && left >= iov[k].iov_len) left -= iov[k++].iov_len;
      if (left > 0) {
        iov[k].iov_base = static_cast<uint8_t*>(iov[k].iov_base) + left;
        iov[k].iov_len -= left;
      }
    }
    counters_.pages_written += j - i;
    i = j;
  }
  return Status::OK();
}

Status Pager::WriteMeta(const Meta& meta) {
  std::vector<uint8_t>& page = map_buffer_;
  page.assign(page_size_, 0);
  const uint32_t slot = static_cast<uint32_t>(meta.txn_id % 2);
  EncodeMeta(meta, slot, page.data());
  std::vector<std::pair<uint32_t, uint8_t*>> one{{slot, page.data()}};
  return WritePages(&one, meta.txn_id);
}

void Pager::DropUnreachable(uint64_t oldest_snapshot, bool no_readers) {
  auto unread = [&](uint64_t txn_id) { return no_readers || txn_id <= oldest_snapshot; };
  const bool drop = !freed_unflushed_.empty() && unread(freed_unflushed_.front().txn_id);
  // Replaced versions leave in groups: one lock and one stamp here, and one
  // reclaim later, for the group instead of for each commit's. A freed
  // page's replaced versions are older than its freeing, so they all go
  // before it is dropped, and its frame has none behind it.
  // (In txn_id order: when the group's last can go, the group can.)
  // With no reader, every replaced version can go (RetiresVersions).
  const bool group =
      RetiresVersions(no_readers) && (no_readers || unread(replaced_[kRetireGroup - 1].txn_id));
  if (group || drop) {
    scratch_replaced_.clear();
    while (!replaced_.empty() && unread(replaced_.front().txn_id)) {
      scratch_replaced_.push_back(replaced_.front().version);
      replaced_.pop_front();
    }
    cache_.RetireVersions(scratch_replaced_);
  }
  if (!drop) return;
  scratch_drop_.clear();
  while (!freed_unflushed_.empty() && unread(freed_unflushed_.front().txn_id)) {
    scratch_drop_.push_back(freed_unflushed_.front().page);
    freed_unflushed_.pop_front();
  }
  cache_.Evict(scratch_drop_);
}

PBTREE_HOT void Pager::QueueReplaced(uint64_t txn_id) {
  for (uint32_t p : dirty_pages_) {
    Frame* f = cache_.Lookup(p);
    if (f == nullptr) continue;  // dirty pages are cached: never
    Frame* older = f->older.load(std::memory_order_relaxed);
    if (f->version == txn_id && older != nullptr) {
      replaced_.push_back(ReplacedVersion{txn_id, PageCache::Replaced{p, older}});
    }
  }
}

void Pager::QueueFreedUnflushed(uint64_t txn_id) {
  for (uint32_t p : scratch_in_memory_) freed_unflushed_.push_back(FreedUnflushed{txn_id, p});
}

void Pager::CopyPage(uint8_t* to, const uint8_t* from) const {
  const PageType type = GetPageType(from);
  if (type == PageType::kLeaf || type == PageType::kInternal) {
    // The free space between the entries and the restart array is left as
    // it is: nothing reads it (node_page.h), and a page that is half full
    // is copied in half the bytes. The page was checked when read, so its
    // data end and restart count are in bounds.
    const uint32_t end = DecodeFixed16(from + kOffDataEnd);
    const uint32_t restart_bytes = 2 * DecodeFixed16(from + kOffRestarts);
    if (end >= kPageHeaderSize && end + restart_bytes <= page_size_) {
      std::memcpy(to, from, end);
      std::memcpy(to + page_size_ - restart_bytes, from + page_size_ - restart_bytes,
                  restart_bytes);
      return;
    }
  }
  std::memcpy(to, from, page_size_);
}

PBTREE_HOT void Pager::SetUnflushed(uint32_t p, bool on) {
  if ((p >> 6) >= unflushed_bits_.size()) {
    if (!on) return;
    unflushed_bits_.resize(std::max<size_t>((p >> 6) + 1, unflushed_bits_.size() * 2), 0);
  }
  const uint64_t mask = uint64_t{1} << (p & 63);
  const bool was = unflushed_bits_[p >> 6] & mask;
  if (was == on) return;
  if (on) {
    unflushed_bits_[p >> 6] |= mask;
    unflushed_.push_back(p);
    ++unflushed_live_;
  } else {
    unflushed_bits_[p >> 6] &= ~mask;
    --unflushed_live_;
  }
}

PBTREE_HOT void Pager::CompactDirty() {
  if (dirty_pages_.size() <= 1) {  // a one-page commit (most one-key ones): nothing to sort
    if (!dirty_pages_.empty()) {
      Frame* f = cache_.Lookup(dirty_pages_[0]);
      if (f == nullptr || !f->dirty) dirty_pages_.clear();
    }
    return;
  }
  std::sort(dirty_pages_.begin(), dirty_pages_.end());
  dirty_pages_.erase(std::unique(dirty_pages_.begin(), dirty_pages_.end()), dirty_pages_.end());
  size_t n = 0;
  for (uint32_t p : dirty_pages_) {
    Frame* f = cache_.Lookup(p);
    if (f != nullptr && f->dirty) dirty_pages_[n++] = p;  // else freed again within the transaction
  }
  dirty_pages_.resize(n);
}

PBTREE_HOT void Pager::SplitFreed(bool hold, std::vector<uint32_t>* in_memory,
                                  std::vector<uint32_t>* on_disk) {
  std::vector<uint32_t>* freed = free_map_.mutable_freed_committed();
  if (freed->empty() && (!hold || in_memory->empty())) return;  // nothing freed
  size_t keep = 0;
  for (uint32_t p : *freed) {
    if (IsUnflushed(p)) {
      SetUnflushed(p, false);
      in_memory->push_back(p);
      if (!hold) (*freed)[keep++] = p;
    } else {
      on_disk->push_back(p);
      if (hold) {
        held_.push_back(p);
      } else {
        (*freed)[keep++] = p;
      }
    }
  }
  if (hold) {
    // In-memory pages stay pending as usual; the held ones wait for the
    // next checkpoint.
    freed->assign(in_memory->begin(), in_memory->end());
  } else {
    freed->resize(keep);
  }
}

PBTREE_HOT Status Pager::Commit(uint32_t root, uint32_t depth, uint64_t entries,
                                LogRecord* log_record) {
  // Raised but not used (the put went another way than WriteInPlace): readers
  // need not wait for this commit, which may be a checkpoint.
  if (in_place_raised_ && in_place_pages_ == 0) EndWrite();
  if (log_record != nullptr && CommitsThroughLog(log_record->size(), dirty_pages_.size())) {
    return LogCommit(root, depth, entries, log_record);
  }
  return CheckpointCommit(root, depth, entries);
}

Status Pager::CommitReplayed(uint32_t root, uint32_t depth, uint64_t entries) {
  return LogCommit(root, depth, entries, nullptr);
}

PBTREE_HOT Status Pager::LogCommit(uint32_t root, uint32_t depth, uint64_t entries,
                                   LogRecord* log_record) {
  const uint64_t txn = committed_.txn_id + 1;
  if (log_record != nullptr) {
    Status s = log_->Append(txn, log_record);
    if (!s.ok()) {
      sticky_error_ = s;
      Abort();
      return s;
    }
    if (options_.sync_on_commit) ++counters_.syncs;
  }
  // With only pages changed in place (most one-key commits: their leaf),
  // each is unflushed and pinned already, with no older version to queue
  // (CanChangeInPlace). When no page was allocated, copied or freed either
  // (page_changes_), their frames are at hand and nothing was freed: the
  // other steps have nothing to do (skipping them took 4.7% of such a
  // commit's instructions, and the frames' lookups and the freed pages'
  // steps 1.8% more).
  const bool only_in_place =
      in_place_pages_ == dirty_pages_.size() && free_map_.freed_committed().empty();
  if (only_in_place && page_changes_ == begin_changes_) {
    for (size_t i = 0; i < in_place_pages_; ++i) in_place_frames_[i]->dirty = false;  // pinned
    dirty_pages_.clear();
    free_map_.Commit(txn);
  } else {
    if (!only_in_place) {
      CompactDirty();
      QueueReplaced(txn);
      for (uint32_t p : dirty_pages_) SetUnflushed(p, true);
    }
    cache_.MarkPinned(dirty_pages_);
    dirty_pages_.clear();
    scratch_in_memory_.clear();
    freed_by_commit_.clear();
    SplitFreed(/*hold=*/true, &scratch_in_memory_, &freed_by_commit_);
    free_map_.Commit(txn);
    QueueFreedUnflushed(txn);
  }
  map_stale_ = true;
  committed_.txn_id = txn;
  committed_.root = root;
  committed_.depth = depth;
  committed_.entries = entries;
  committed_.page_count = free_map_.page_count();
  committed_.free_pages = free_map_.free_count();
  Publish();
  // Held pages' clean frames: readers of older snapshots read them from the
  // file, which keeps them until the next checkpoint.
  if (!freed_by_commit_.empty()) {
    cache_.Evict(freed_by_commit_);
    freed_by_commit_.clear();
  }
  ++counters_.commits;
  counters_.in_place_commits += in_place_pages_ != 0;
  in_place_pages_ = 0;
  cache_.Shrink();
  return Status::OK();
}

Status Pager::WriteUnflushed(uint64_t txn_id, std::vector<uint32_t>* written) {
  written->clear();
  for (uint32_t p : unflushed_) {
    if (IsUnflushed(p)) written->push_back(p);
  }
  std::sort(written->begin(), written->end());
  written->erase(std::unique(written->begin(), written->end()), written->end());
  // Sealed copies, so that readers of the pinned frames never see them
  // change; a bounded buffer at a time.
  constexpr size_t kBatch = 256;
  std::vector<uint8_t> copies(kBatch * page_size_);
  std::vector<std::pair<uint32_t, uint8_t*>> batch;
  for (size_t i = 0; i < written->size(); i += kBatch) {
    batch.clear();
    for (size_t j = i; j < std::min(written->size(), i + kBatch); ++j) {
      const uint32_t p = (*written)[j];
      const uint8_t* data = cache_.Find(p);
      if (data == nullptr) {
        return Status::Corruption(path_ + ": unflushed page " + std::to_string(p) +
                                  " is missing from the cache");
      }
      // A new version in the committing transaction is written with its pages.
      if (Frame::Of(const_cast<uint8_t*>(data))->dirty) continue;
      uint8_t* copy = copies.data() + (j - i) * page_size_;
      std::memcpy(copy, data, page_size_);
      batch.emplace_back(p, copy);
    }
    PBTREE_RETURN_IF_ERROR(WritePages(&batch, txn_id));
  }
  return Status::OK();
}

Status Pager::Checkpoint() {
  if (options_.read_only || log_ == nullptr) return Status::OK();
  if (!sticky_error_.ok()) return sticky_error_;
  if (HasUnflushed() || log_->bytes() > 0) {
    PBTREE_RETURN_IF_ERROR(BeginWrite());
    PBTREE_RETURN_IF_ERROR(CheckpointCommit(committed_.root, committed_.depth, committed_.entries));
  }
  return log_->Truncate();
}

Status Pager::CheckpointCommit(uint32_t root, uint32_t depth, uint64_t entries) {
  const uint64_t txn = committed_.txn_id + 1;
  if (map_stale_) free_map_.MarkAllDirty();
  std::vector<uint32_t> map_indexes;
  free_map_.PrepareCommit(&map_indexes);
  if (map_indexes.size() > MaxFreeMapPages(page_size_) ||
      free_map_.map_pages().size() > MaxFreeMapPages(page_size_)) {
    Abort();
    return Status::NotSupported(path_ + ": file too large for the free map of one meta page");
  }

  // Pages of the transaction freed again, and unflushed pages it freed,
  // are not written; the latter stay pinned until no reader can reach them.
  CompactDirty();
  scratch_in_memory_.clear();
  std::vector<uint32_t> on_disk;
  SplitFreed(/*hold=*/false, &scratch_in_memory_, &on_disk);
  write_list_.clear();
  for (uint32_t p : dirty_pages_) write_list_.emplace_back(p, cache_.Find(p));
  std::vector<uint8_t> map_pages(static_cast<size_t>(map_indexes.size()) * page_size_);
  for (size_t i = 0; i < map_indexes.size(); ++i) {
    uint8_t* page = map_pages.data() + i * page_size_;
    const uint32_t pg = free_map_.map_pages()[map_indexes[i]];
    cache_.Erase(pg);  // a stale copy of a reused page
    free_map_.EncodeMapPage(map_indexes[i], page);
    write_list_.emplace_back(pg, page);
  }

  Meta meta;
  meta.txn_id = txn;
  meta.page_size = page_size_;
  meta.root = root;
  meta.depth = depth;
  meta.entries = entries;
  meta.page_count = free_map_.page_count();
  meta.free_pages = free_map_.free_count();
  meta.free_map_pages = free_map_.map_pages();

  std::vector<uint32_t> unflushed_written;
  Status s = WriteUnflushed(txn, &unflushed_written);
  if (s.ok()) s = WritePages(&write_list_, txn);
  // The mapping shows the new bytes at once (MAP_SHARED): they are checked
  // again when first read through it. No reader can reach the transaction's
  // pages before Publish below, and the unflushed ones are read from the
  // cache, where they stay pinned until then.
  if (map_ != nullptr) {
    auto uncheck = [&](uint32_t pg) {
      if (pg < map_bytes_ / page_size_) {
        checked_[pg >> 6].fetch_and(~(uint64_t{1} << (pg & 63)), std::memory_order_relaxed);
      }
    };
    for (const auto& [pg, bytes] : write_list_) uncheck(pg);
    for (uint32_t pg : unflushed_written) uncheck(pg);
  }
  // Pages allocated at the end of the file and freed again were never
  // written; the file must still reach the page count.
  const uint64_t needed = static_cast<uint64_t>(meta.page_count) * page_size_;
  if (s.ok() && needed > file_size_) {
    if (::ftruncate(fd_, static_cast<off_t>(needed)) != 0) {
      s = Status::FromErrno("extend " + path_, errno);
    }
  }
  if (s.ok() && options_.sync_on_commit) s = SyncFile();
  if (s.ok()) s = WriteMeta(meta);
  if (s.ok() && options_.sync_on_commit) s = SyncFile();
  if (!s.ok()) {
    // The meta page may or may not have reached the file; until the file is
    // reopened nothing else is written.
    sticky_error_ = s;
    Abort();
    return s;
  }
  QueueReplaced(txn);
  cache_.MarkClean(dirty_pages_);
  dirty_pages_.clear();
  // Unflushed pages are in the file now: ordinary clean frames.
  cache_.Unpin(unflushed_written);
  for (uint32_t p : unflushed_written) SetUnflushed(p, false);
  unflushed_.clear();
  // The pages this commit stopped using: readers of older snapshots that
  // still need one read it again from the file, where it stays until no
  // such reader is left.
  freed_by_commit_ = std::move(on_disk);
  free_map_.Commit(txn);
  // Pages of the previous checkpoint freed by logged commits: the file no
  // longer needs them.
  free_map_.AddPending(txn, held_);
  held_.clear();
  QueueFreedUnflushed(txn);
  map_stale_ = false;
  if (log_ != nullptr) log_->Reset();
  file_size_ = std::max(file_size_, needed);
  ExtendMapped();
  committed_ = std::move(meta);
  Publish();
  cache_.Evict(freed_by_commit_);
  freed_by_commit_.clear();
  ++counters_.commits;
  cache_.Shrink();
  return Status::OK();
}

Status Pager::SyncFile() {
  if (::fdatasync(fd_) != 0) return Status::FromErrno("fdatasync " + path_, errno);
  ++counters_.syncs;
  return Status::OK();
}

Status Pager::Sync() {
  if (options_.read_only) return Status::OK();
  if (::fdatasync(fd_) != 0) return Status::FromErrno("fdatasync " + path_, errno);
  if (log_ != nullptr) PBTREE_RETURN_IF_ERROR(log_->Sync());
  ++counters_.syncs;
  return Status::OK();
}

}  // namespace pbtree
