#include "engines/native/memory_region.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

namespace nativedb {
namespace {

constexpr uint64_t kHugePageBytes = uint64_t{2} << 20;

uint64_t PageBytes() {
  static const uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  return page;
}

uint64_t RoundUp(uint64_t v, uint64_t to) { return (v + to - 1) / to * to; }

std::string Errno(const std::string& what) { return what + ": " + std::strerror(errno); }

// One write per page: the kernel faults each page in (and zeroes it) now
// rather than at the first record that lands on it.
void TouchPages(char* begin, uint64_t bytes) {
  const uint64_t page = PageBytes();
  for (uint64_t off = 0; off < bytes; off += page) {
    *reinterpret_cast<volatile char*>(begin + off) = 0;
  }
}

}  // namespace

void MemoryRegion::Populate(char* begin, uint64_t bytes) {
#ifdef MADV_POPULATE_WRITE
  const uint64_t page = PageBytes();
  const auto first = reinterpret_cast<uintptr_t>(begin) & ~(page - 1);
  const auto last = (reinterpret_cast<uintptr_t>(begin) + bytes + page - 1) & ~(page - 1);
  madvise(reinterpret_cast<void*>(first), last - first, MADV_POPULATE_WRITE);  // advisory
#else
  (void)begin;
  (void)bytes;
#endif
}

std::string NormalizeShmName(const std::string& name) {
  if (!name.empty() && name[0] == '/') return name;
  return "/" + name;
}

MemoryRegion::~MemoryRegion() { Release(); }

MemoryRegion::MemoryRegion(MemoryRegion&& other) noexcept { *this = std::move(other); }

MemoryRegion& MemoryRegion::operator=(MemoryRegion&& other) noexcept {
  if (this != &other) {
    Release();
    base_ = std::exchange(other.base_, nullptr);
    size_ = std::exchange(other.size_, 0);
    max_size_ = std::exchange(other.max_size_, 0);
    mapping_ = std::exchange(other.mapping_, nullptr);
    mapping_bytes_ = std::exchange(other.mapping_bytes_, 0);
    shared_ = std::exchange(other.shared_, false);
    name_ = std::move(other.name_);
  }
  return *this;
}

void MemoryRegion::Release() {
  if (mapping_ != nullptr) munmap(mapping_, mapping_bytes_);
  base_ = mapping_ = nullptr;
  size_ = max_size_ = mapping_bytes_ = 0;
  shared_ = false;
  name_.clear();
}

Status MemoryRegion::CreatePrivate(uint64_t size, uint64_t max_size, const RegionOptions& options,
                                   MemoryRegion* out) {
  const uint64_t page = PageBytes();
  size = RoundUp(size, page);
  max_size = RoundUp(max_size < size ? size : max_size, page);
  // Reserve address space only (PROT_NONE costs no memory), with room to align
  // the start to a huge page.
  const uint64_t reserve = max_size + kHugePageBytes;
  void* mapping =
      mmap(nullptr, reserve, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (mapping == MAP_FAILED) return Status::IOError(Errno("mmap reserve"));
  char* base =
      reinterpret_cast<char*>(RoundUp(reinterpret_cast<uintptr_t>(mapping), kHugePageBytes));
  if (mprotect(base, size, PROT_READ | PROT_WRITE) != 0) {
    Status st = Status::IOError(Errno("mprotect " + std::to_string(size) + " bytes"));
    munmap(mapping, reserve);
    return st;
  }
  if (options.huge_pages) madvise(base, max_size, MADV_HUGEPAGE);  // advisory: errors ignored
  if (options.prefault) TouchPages(base, size);

  MemoryRegion region;
  region.mapping_ = static_cast<char*>(mapping);
  region.mapping_bytes_ = reserve;
  region.base_ = base;
  region.size_ = size;
  region.max_size_ = max_size;
  *out = std::move(region);
  return Status::OK();
}

Status MemoryRegion::CreateShared(const std::string& raw_name, uint64_t size,
                                  const RegionOptions& options, MemoryRegion* out) {
  const std::string name = NormalizeShmName(raw_name);
  size = RoundUp(size, PageBytes());
  int fd = shm_open(name.c_str(), O_RDWR | O_CREAT | O_EXCL, 0600);
  if (fd < 0) {
    if (errno == EEXIST) return Status::Busy("shared memory '" + name + "' exists already");
    return Status::IOError(Errno("shm_open " + name));
  }
  if (ftruncate(fd, static_cast<off_t>(size)) != 0) {
    Status st = Status::IOError(Errno("ftruncate " + name));
    close(fd);
    shm_unlink(name.c_str());
    return st;
  }
  void* mapping = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  close(fd);
  if (mapping == MAP_FAILED) {
    Status st = Status::IOError(Errno("mmap " + name));
    shm_unlink(name.c_str());
    return st;
  }
  if (options.prefault) TouchPages(static_cast<char*>(mapping), size);

  MemoryRegion region;
  region.mapping_ = region.base_ = static_cast<char*>(mapping);
  region.mapping_bytes_ = region.size_ = region.max_size_ = size;
  region.shared_ = true;
  region.name_ = name;
  *out = std::move(region);
  return Status::OK();
}

Status MemoryRegion::AttachShared(const std::string& raw_name, MemoryRegion* out) {
  const std::string name = NormalizeShmName(raw_name);
  int fd = shm_open(name.c_str(), O_RDWR, 0);
  if (fd < 0) {
    if (errno == ENOENT) return Status::NotFound("no shared memory '" + name + "'");
    return Status::IOError(Errno("shm_open " + name));
  }
  struct stat st;
  if (fstat(fd, &st) != 0) {
    Status s = Status::IOError(Errno("fstat " + name));
    close(fd);
    return s;
  }
  const uint64_t size = static_cast<uint64_t>(st.st_size);
  if (size == 0) {
    close(fd);
    return Status::Busy("shared memory '" + name + "' is still being created");
  }
  void* mapping = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  close(fd);
  if (mapping == MAP_FAILED) return Status::IOError(Errno("mmap " + name));

  MemoryRegion region;
  region.mapping_ = region.base_ = static_cast<char*>(mapping);
  region.mapping_bytes_ = region.size_ = region.max_size_ = size;
  region.shared_ = true;
  region.name_ = name;
  *out = std::move(region);
  return Status::OK();
}

Status MemoryRegion::UnlinkShared(const std::string& raw_name) {
  const std::string name = NormalizeShmName(raw_name);
  if (shm_unlink(name.c_str()) != 0) {
    if (errno == ENOENT) return Status::NotFound("no shared memory '" + name + "'");
    return Status::IOError(Errno("shm_unlink " + name));
  }
  return Status::OK();
}

Status MemoryRegion::Grow(uint64_t min_size) {
  if (min_size <= size_) return Status::OK();
  if (shared_) {
    return Status::NotSupported("shared memory '" + name_ + "' has a fixed size of " +
                                std::to_string(size_) + " bytes");
  }
  if (min_size > max_size_) {
    return Status::Full("needs " + std::to_string(min_size) + " bytes, the most allowed is " +
                        std::to_string(max_size_));
  }
  uint64_t target = size_ * 2 > min_size ? size_ * 2 : min_size;
  if (target > max_size_) target = max_size_;
  target = RoundUp(target, PageBytes());
  if (mprotect(base_ + size_, target - size_, PROT_READ | PROT_WRITE) != 0) {
    return Status::IOError(Errno("mprotect grow to " + std::to_string(target)));
  }
  size_ = target;
  return Status::OK();
}

}  // namespace nativedb
