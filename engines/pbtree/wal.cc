#include "engines/pbtree/wal.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
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

}  // namespace

void LogRecord::Reserve(size_t more) {
  if (bytes_.size() + more - kLogHeaderSize > kMaxLogPayload) {
    too_large_ = true;
    bytes_.resize(kLogHeaderSize);
  }
}

PBTREE_HOT void LogRecord::Put(Slice key, Slice value) {
  if (too_large_) return;
  Reserve(1 + 2 * kMaxVarint32Bytes + key.size() + value.size());
  if (too_large_) return;
  uint8_t head[1 + 2 * kMaxVarint32Bytes];
  head[0] = kLogPut;
  uint8_t* p = EncodeVarint32(head + 1, static_cast<uint32_t>(key.size()));
  p = EncodeVarint32(p, static_cast<uint32_t>(value.size()));
  bytes_.append(reinterpret_cast<const char*>(head), static_cast<size_t>(p - head));
  bytes_.append(key);
  bytes_.append(value);
}

void LogRecord::Delete(Slice key) {
  if (too_large_) return;
  Reserve(1 + kMaxVarint32Bytes + key.size());
  if (too_large_) return;
  uint8_t head[1 + kMaxVarint32Bytes];
  head[0] = kLogDelete;
  uint8_t* p = EncodeVarint32(head + 1, static_cast<uint32_t>(key.size()));
  bytes_.append(reinterpret_cast<const char*>(head), static_cast<size_t>(p - head));
  bytes_.append(key);
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

Status WriteAheadLog::Grow(uint64_t end) {
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
  static const std::vector<uint8_t> zeros(64u << 10, 0);
  const size_t step = sync_ ? kBlockBytes : zeros.size();
  for (uint64_t off = file_size_; off < target;) {
    const size_t n = static_cast<size_t>(std::min<uint64_t>(step, target - off));
    const ssize_t w = ::pwrite(fd_, zeros.data(), n, static_cast<off_t>(off));
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return Status::FromErrno("write " + path_, w < 0 ? errno : EIO);
    off += static_cast<uint64_t>(w);
  }
  // No fdatasync here: with sync, Append's fdatasync of the record that
  // needed the room makes the zeros, the new size and the block map durable
  // with it (one journal commit, one flush for both).
  file_size_ = target;
  return Status::OK();
}

PBTREE_HOT Status WriteAheadLog::Append(uint64_t txn_id, std::string* record) {
  uint8_t* r = reinterpret_cast<uint8_t*>(record->data());
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
  return Status::OK();
}

Status WriteAheadLog::Sync() {
  if (fd_ < 0) return Status::OK();
  if (::fdatasync(fd_) != 0) return Status::FromErrno("fdatasync " + path_, errno);
  return Status::OK();
}

Status WriteAheadLog::Truncate() {
  offset_ = 0;
  if (fd_ < 0 || file_size_ == 0) return Status::OK();
  if (::ftruncate(fd_, 0) != 0) return Status::FromErrno("truncate " + path_, errno);
  file_size_ = 0;
  if (sync_) return Sync();
  return Status::OK();
}

}  // namespace pbtree
