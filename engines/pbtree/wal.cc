#include "engines/pbtree/wal.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

#include "engines/pbtree/coding.h"
#include "engines/pbtree/crc32c.h"
#include "engines/pbtree/hot.h"

namespace pbtree {
namespace {

// The mapping's step, and the largest preallocation step with sync=commit.
constexpr uint64_t kPreallocateBytes = 4u << 20;
// The preallocation step without sync: zeros written 256 KiB at a time. The
// commit that writes them waits ~0.1 ms, where 4 MiB at once stalled it for
// 1-3 ms. A hole or fallocate's unwritten extents instead cost 1.7-3.4x as
// much over the appends: a store into them faults through the file system
// (docs/reproductions.md, eleventh round).
constexpr uint64_t kUnsyncedStepBytes = 256u << 10;
// Without sync and mapped, how far past an append the zeroing thread keeps
// the file: four steps.
constexpr uint64_t kZeroAheadBytes = 4 * kUnsyncedStepBytes;
// A step when the writer waits for the zeros (LogZeroer::Run).
constexpr uint64_t kWaitStepBytes = 16u << 10;
// The first step with sync=commit; each later one is the log's size so far
// (up to kPreallocateBytes), so the log doubles (see Preallocate).
constexpr uint64_t kFirstSyncStepBytes = 64u << 10;
constexpr uint64_t kBlockBytes = 4096;
// Reads of the log at recovery.
constexpr size_t kReadChunk = 1u << 20;

uint64_t RoundUp(uint64_t n, uint64_t step) { return (n + step - 1) / step * step; }

uint32_t RecordCrc(const uint8_t* record, size_t payload) {
  return crc32c::Value(record + 4, kLogHeaderSize - 4 + payload);
}

// Writes `bytes` zeros at `offset`, `step` bytes per write.
Status WriteZeros(int fd, const std::string& path, uint64_t offset, uint64_t bytes, size_t step) {
  static const std::vector<uint8_t> zeros(64u << 10, 0);
  step = std::min(step, zeros.size());
  for (uint64_t off = offset; off < offset + bytes;) {
    const size_t n = static_cast<size_t>(std::min<uint64_t>(step, offset + bytes - off));
    const ssize_t w = ::pwrite(fd, zeros.data(), n, static_cast<off_t>(off));
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return Status::FromErrno("write " + path, w < 0 ? errno : EIO);
    off += static_cast<uint64_t>(w);
  }
  return Status::OK();
}

}  // namespace

// The log's zeros, written on a thread of their own, kUnsyncedStepBytes at
// a time up to the size asked for: the commit that grew the file itself
// waited 55-110 us per step, one in ~1,250 one-key commits of seed 001
// (50-76 ns a commit). The writer stores only below ready(), which the thread
// raises once the zeros under it are written, and the thread writes only
// at and past it, so the two never touch the same bytes. An error stops
// the thread; the writer gets it when it next needs room. The thread starts
// with the log's mapping, idle until the first append asks, and a
// truncation rewinds it rather than ending it: with the thread started by
// the first append after a reorganize (a new log), that commit took 1.5-1.8
// ms (4% of seed 001's 65,536 one-key commits); ~1 ms now.
class LogZeroer {
 public:
  LogZeroer(int fd, const std::string& path, uint8_t* map, uint64_t size)
      : fd_(fd), path_(path), map_(map), ready_(size), target_(size), thread_([this] { Run(); }) {}
  ~LogZeroer() {
    {
      std::lock_guard lock(mu_);
      stop_ = true;
    }
    asked_.notify_all();
    thread_.join();
  }
  // The file's first bytes that hold zeros or records.
  uint64_t ready() const { return ready_.load(std::memory_order_acquire); }
  // Has the thread make the file `target` bytes long (at least); at once.
  void Ask(uint64_t target) {
    {
      std::lock_guard lock(mu_);
      if (target <= target_) return;
      target_ = target;
    }
    asked_.notify_one();
  }
  // Waits until `end` bytes are ready, or for the thread's error.
  Status Wait(uint64_t end) {
    std::unique_lock lock(mu_);
    waiting_for_ = end;
    wrote_.wait(lock, [&] { return ready() >= end || !error_.ok(); });
    waiting_for_ = 0;
    return ready() >= end ? Status::OK() : error_;
  }
  // Idle again at `size` (the file about to be cut to it), once a step under
  // way is done: no zeros land past the cut. An error is forgotten.
  void Rewind(uint64_t size) {
    std::unique_lock lock(mu_);
    wrote_.wait(lock, [&] { return !busy_; });
    ready_.store(size, std::memory_order_release);
    target_ = size;
    error_ = Status::OK();
  }

 private:
  void Run() {
    std::unique_lock lock(mu_);
    for (;;) {
      asked_.wait(lock, [&] { return stop_ || (error_.ok() && ready() < target_); });
      if (stop_) return;
      const uint64_t offset = ready();
      uint64_t bytes = std::min(kUnsyncedStepBytes, target_ - offset);
      // A writer waiting (the first append after an open or a truncation)
      // gets what it waits for in a short step first.
      if (waiting_for_ > offset) {
        bytes = std::min(bytes, RoundUp(waiting_for_ - offset, kWaitStepBytes));
      }
      busy_ = true;
      lock.unlock();
      Status s = WriteZeros(fd_, path_, offset, bytes, kUnsyncedStepBytes);
      if (s.ok()) {
        // And maps them writable: the writer's first store into each page
        // then takes no fault. Only a hint (a kernel before 5.14 refuses it).
        ::madvise(map_ + offset, bytes, MADV_POPULATE_WRITE);
        TouchPages(offset, bytes);
      }
      lock.lock();
      busy_ = false;
      if (s.ok()) {
        ready_.store(offset + bytes, std::memory_order_release);
      } else {
        error_ = s;
      }
      wrote_.notify_all();
    }
  }

  // Reads a byte of each page through the mapping. On our VMs (KVM guests)
  // the first access to each 4 KiB page of a shared file mapping took 5-6 us,
  // populated or not, with no fault counted; once any thread had read the
  // page, stores into it took 26 ns. Unpaid here, every ~20th one-key commit
  // of seed 001 paid it (the one whose record began a new page of the log),
  // 60% of all the commits' time (docs/reproductions.md, twenty-second round).
  // (Volatile loads: the compiler keeps each one though nothing uses it.)
  void TouchPages(uint64_t offset, uint64_t bytes) const {
    for (uint64_t page = offset; page < offset + bytes; page += 4096) {
      (void)*static_cast<volatile const uint8_t*>(map_ + page);
    }
  }

  const int fd_;
  const std::string path_;
  uint8_t* const map_;  // the log's mapping
  std::mutex mu_;
  std::condition_variable asked_;  // target_ raised, or stop_
  std::condition_variable wrote_;  // ready_ raised, or error_
  std::atomic<uint64_t> ready_;    // written under mu_
  uint64_t waiting_for_ = 0;       // the end a writer waits for (Wait), or 0
  bool busy_ = false;              // a step is being written
  uint64_t target_;
  Status error_;
  bool stop_ = false;
  std::thread thread_;  // last: starts once the rest is set
};

uint8_t* LogRecord::Grow(size_t most) {
  constexpr size_t kWhole = kLogHeaderSize + kMaxLogPayload;
  if (size_ + most > kWhole) {
    too_large_ = true;
    size_ = kLogHeaderSize;
    return nullptr;
  }
  const size_t capacity = std::min(kWhole, std::max<size_t>({size_ + most, 2 * capacity_, 256}));
  std::unique_ptr<uint8_t[]> bytes(new uint8_t[capacity]);
  if (bytes_ != nullptr) std::memcpy(bytes.get(), bytes_.get(), size_);
  bytes_ = std::move(bytes);
  capacity_ = capacity;
  return bytes_.get() + size_;
}

PBTREE_HOT void LogRecord::Put(Slice key, Slice value) {
  if (too_large_) return;
  uint8_t* p = Room(1 + 2 * kMaxVarint32Bytes + key.size() + value.size());
  if (p == nullptr) return;
  *p++ = kLogPut;
  p = EncodeVarint32(p, static_cast<uint32_t>(key.size()));
  p = EncodeVarint32(p, static_cast<uint32_t>(value.size()));
  if (!key.empty()) std::memcpy(p, key.data(), key.size());
  p += key.size();
  if (!value.empty()) std::memcpy(p, value.data(), value.size());
  size_ = static_cast<size_t>(p + value.size() - bytes_.get());
}

void LogRecord::Delete(Slice key) {
  if (too_large_) return;
  uint8_t* p = Room(1 + kMaxVarint32Bytes + key.size());
  if (p == nullptr) return;
  *p++ = kLogDelete;
  p = EncodeVarint32(p, static_cast<uint32_t>(key.size()));
  if (!key.empty()) std::memcpy(p, key.data(), key.size());
  size_ = static_cast<size_t>(p + key.size() - bytes_.get());
}

Status ForEachLogOp(Slice payload,
                    const std::function<Status(uint8_t op, Slice key, Slice value)>& fn) {
  const uint8_t* p = reinterpret_cast<const uint8_t*>(payload.data());
  const uint8_t* end = p + payload.size();
  while (p < end) {
    const uint8_t op = *p++;
    uint32_t klen = 0;
    uint32_t vlen = 0;
    if (op != kLogPut && op != kLogDelete) return Status::Corruption("log: unknown operation");
    p = DecodeVarint32(p, end, &klen);
    if (p != nullptr && op == kLogPut) p = DecodeVarint32(p, end, &vlen);
    if (p == nullptr || static_cast<uint64_t>(end - p) < uint64_t{klen} + vlen) {
      return Status::Corruption("log: operation runs past its record");
    }
    Slice key(reinterpret_cast<const char*>(p), klen);
    Slice value(reinterpret_cast<const char*>(p + klen), vlen);
    p += klen + vlen;
    PBTREE_RETURN_IF_ERROR(fn(op, key, value));
  }
  return Status::OK();
}

WriteAheadLog::WriteAheadLog(std::string path, int fd, bool sync, uint64_t file_size)
    : path_(std::move(path)), fd_(fd), sync_(sync), file_size_(file_size) {}

WriteAheadLog::~WriteAheadLog() {
  zeroer_.reset();  // before the file closes
  if (map_ != nullptr) ::munmap(map_, map_bytes_);
  if (fd_ >= 0) ::close(fd_);
}

void WriteAheadLog::Map(uint64_t max_bytes) {
  // Room for the largest log a commit leaves (the checkpoint size plus one
  // record), in whole preallocation steps.
  const uint64_t want =
      std::max<uint64_t>(file_size_, max_bytes + kMaxLogPayload + 2 * kLogHeaderSize);
  const size_t bytes =
      static_cast<size_t>((want + kPreallocateBytes - 1) / kPreallocateBytes * kPreallocateBytes);
  void* m = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd_, 0);
  if (m == MAP_FAILED) return;  // appends stay on pwrite
  map_ = static_cast<uint8_t*>(m);
  map_bytes_ = bytes;
  zeroer_ = std::make_unique<LogZeroer>(fd_, path_, map_, file_size_);
}

Status WriteAheadLog::Open(const std::string& path, bool read_only, bool sync, uint64_t max_bytes,
                           std::unique_ptr<WriteAheadLog>* log) {
  int fd = ::open(path.c_str(), O_CLOEXEC | (read_only ? O_RDONLY : O_RDWR));
  bool created = false;
  if (fd < 0 && errno == ENOENT && !read_only) {
    // O_EXCL: when two opens race, only the one that made the file says so.
    fd = ::open(path.c_str(), O_CLOEXEC | O_RDWR | O_CREAT | O_EXCL, 0644);
    created = fd >= 0;
    if (fd < 0 && errno == EEXIST) fd = ::open(path.c_str(), O_CLOEXEC | O_RDWR);
  }
  if (fd < 0) {
    if (read_only && errno == ENOENT) {
      log->reset(new WriteAheadLog(path, -1, false, 0));
      return Status::OK();
    }
    return Status::FromErrno("open " + path, errno);
  }
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    return Status::FromErrno("stat " + path, err);
  }
  log->reset(new WriteAheadLog(path, fd, sync && !read_only, static_cast<uint64_t>(st.st_size)));
  (*log)->created_ = created;
  // With sync, records are written with pwrite: a store into a shared
  // mapping after each fdatasync faults the page writable again, which on
  // ext4 starts a journal handle, and the next fdatasync then commits the
  // journal too (measured: ~900 us per commit against ~300 us with pwrite).
  if (!read_only && !sync) (*log)->Map(max_bytes);
  return Status::OK();
}

Status WriteAheadLog::Recover(uint64_t checkpoint_txn,
                              const std::function<Status(uint64_t, Slice)>& apply) {
  offset_ = 0;
  if (fd_ < 0) return Status::OK();
  std::vector<uint8_t> buf;
  uint64_t expected = checkpoint_txn + 1;
  for (;;) {
    uint8_t head[kLogHeaderSize];
    if (offset_ + kLogHeaderSize > file_size_) break;
    if (::pread(fd_, head, sizeof(head), static_cast<off_t>(offset_)) !=
        static_cast<ssize_t>(sizeof(head))) {
      break;
    }
    const uint32_t length = DecodeFixed32(head + 4);
    if (DecodeFixed64(head + 8) != expected || DecodeFixed64(head + 16) != kLogMagic ||
        length > kMaxLogPayload || offset_ + kLogHeaderSize + length > file_size_) {
      break;
    }
    buf.resize(kLogHeaderSize + length);
    size_t done = 0;
    while (done < buf.size()) {
      const size_t n = std::min(kReadChunk, buf.size() - done);
      const ssize_t r = ::pread(fd_, buf.data() + done, n, static_cast<off_t>(offset_ + done));
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0) return Status::FromErrno("read " + path_, r < 0 ? errno : EIO);
      done += static_cast<size_t>(r);
    }
    if (DecodeFixed32(buf.data()) != RecordCrc(buf.data(), length)) break;
    PBTREE_RETURN_IF_ERROR(
        apply(expected, Slice(reinterpret_cast<const char*>(buf.data()) + kLogHeaderSize, length))
            .WithContext(path_));
    offset_ += kLogHeaderSize + length;
    ++expected;
  }
  return Status::OK();
}

Status WriteAheadLog::GrowAhead(uint64_t end) {
  if (zeroer_ == nullptr) zeroer_ = std::make_unique<LogZeroer>(fd_, path_, map_, file_size_);
  zeroer_->Ask(std::min<uint64_t>(map_bytes_, RoundUp(end + kZeroAheadBytes, kUnsyncedStepBytes)));
  if (zeroer_->ready() < end) PBTREE_RETURN_IF_ERROR(zeroer_->Wait(end));
  file_size_ = zeroer_->ready();
  return Status::OK();
}

Status WriteAheadLog::Grow(uint64_t end) {
  if (!sync_ && map_ != nullptr && end <= map_bytes_) return GrowAhead(end);
  // Past the mapping (records go by pwrite): the thread stops first, so
  // that no zeros of its land on them.
  if (zeroer_ != nullptr) {
    zeroer_.reset();
    struct stat st;
    if (::fstat(fd_, &st) != 0) return Status::FromErrno("stat " + path_, errno);
    file_size_ = std::max(file_size_, static_cast<uint64_t>(st.st_size));
  }
  // With sync, the file grows by its own size (64 KiB first, 4 MiB at most
  // per step): a fresh log's first commit wrote and synced 4 MiB of zeros,
  // 20-25 ms on this VM's disk (a 4 KiB write loop and its fdatasync,
  // measured alone), ~15% of a run of 1,000 one-key commits (kvbench
  // crash's commit-1 phase starts every repetition from a new database).
  // Each step's fdatasync also commits the journal (the size and the block
  // map change), so the steps stay few: log2 of the log's size.
  uint64_t target = RoundUp(end, kUnsyncedStepBytes);
  if (sync_) {
    const uint64_t grow = std::clamp(file_size_, kFirstSyncStepBytes, kPreallocateBytes);
    target = RoundUp(std::max(end, file_size_ + grow), kBlockBytes);
  }
  // With sync, one 4 KiB write at a time: the kernel sizes page-cache folios
  // after the writes that create them, and fdatasync writes back whole
  // folios, so zeros written 1 MiB at a time made every synced commit write
  // 1 MiB (kvbench crash: 1,004 MiB written for 1,000 one-key commits).
  PBTREE_RETURN_IF_ERROR(
      WriteZeros(fd_, path_, file_size_, target - file_size_, sync_ ? kBlockBytes : 64u << 10));
  // No fdatasync here: with sync, Append's fdatasync of the record that
  // needed the room makes the zeros, the new size and the block map durable
  // with it (one journal commit, one flush for both).
  file_size_ = target;
  return Status::OK();
}

PBTREE_HOT Status WriteAheadLog::Append(uint64_t txn_id, LogRecord* record) {
  uint8_t* r = record->data();
  const size_t payload = record->size() - kLogHeaderSize;
  EncodeFixed32(r + 4, static_cast<uint32_t>(payload));
  EncodeFixed64(r + 8, txn_id);
  EncodeFixed64(r + 16, kLogMagic);
  EncodeFixed32(r, RecordCrc(r, payload));
  const uint64_t end = offset_ + record->size();
  PBTREE_RETURN_IF_ERROR(Preallocate(end));
  if (end <= map_bytes_) {
    std::memcpy(map_ + offset_, r, record->size());
    offset_ = end;
    if (sync_) return Sync();
    return Status::OK();
  }
  size_t done = 0;
  while (done < record->size()) {
    const ssize_t w =
        ::pwrite(fd_, r + done, record->size() - done, static_cast<off_t>(offset_ + done));
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return Status::FromErrno("write " + path_, w < 0 ? errno : EIO);
    done += static_cast<size_t>(w);
  }
  offset_ = end;
  file_size_ = std::max(file_size_, end);
  if (sync_) return Sync();
  return Status::OK();
}

PBTREE_HOT Status WriteAheadLog::Reserve(size_t bytes, bool* cannot_fail) {
  const uint64_t end = offset_ + bytes;
  *cannot_fail = false;
  if (sync_ || end > map_bytes_) return Status::OK();
  PBTREE_RETURN_IF_ERROR(Preallocate(end));
  *cannot_fail = true;
  // The record's lines, asked for now for writing: the commit changes its
  // page before it appends, and a store into a line not yet in the cache
  // would hold up every store behind it.
  for (uint64_t line = offset_ & ~uint64_t{63}; line < end; line += 64) {
    __builtin_prefetch(map_ + line, 1);
  }
  return Status::OK();
}

Status WriteAheadLog::Sync() {
  if (fd_ < 0) return Status::OK();
  if (::fdatasync(fd_) != 0) return Status::FromErrno("fdatasync " + path_, errno);
  return Status::OK();
}

Status WriteAheadLog::Truncate() {
  if (zeroer_ != nullptr) zeroer_->Rewind(0);  // no zeros after the truncation
  offset_ = 0;
  if (fd_ < 0 || file_size_ == 0) return Status::OK();
  if (::ftruncate(fd_, 0) != 0) return Status::FromErrno("truncate " + path_, errno);
  file_size_ = 0;
  if (sync_) return Sync();
  return Status::OK();
}

}  // namespace pbtree
