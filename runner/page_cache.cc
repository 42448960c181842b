#include "runner/page_cache.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace kvbench::runner {

Status ColdCacheEvictor::Evict(const std::vector<std::string>& paths) {
  for (const std::string& p : paths) {
    const int fd = ::open(p.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      if (errno == ENOENT) continue;
      return Status::IOError("evict '" + p + "': open: " + std::strerror(errno));
    }
    ::fdatasync(fd);
    const int rc = ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    ::close(fd);
    if (rc != 0) return Status::IOError("evict '" + p + "': posix_fadvise: " + std::strerror(rc));
  }
  return Status::OK();
}

std::optional<double> ColdCacheEvictor::ResidentPercent(const std::vector<std::string>& paths) {
  const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  uint64_t total = 0, resident = 0;
  bool measured = false;
  std::vector<unsigned char> vec;
  for (const std::string& p : paths) {
    const int fd = ::open(p.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) continue;
    struct stat st {};
    if (::fstat(fd, &st) != 0 || st.st_size == 0) {
      ::close(fd);
      continue;
    }
    const size_t len = static_cast<size_t>(st.st_size);
    void* addr = ::mmap(nullptr, len, PROT_READ, MAP_SHARED, fd, 0);
    ::close(fd);
    if (addr == MAP_FAILED) continue;
    const size_t pages = (len + page - 1) / page;
    vec.assign(pages, 0);
    if (::mincore(addr, len, vec.data()) == 0) {
      measured = true;
      total += pages;
      for (unsigned char v : vec) resident += (v & 1);
    }
    ::munmap(addr, len);
  }
  if (!measured) return std::nullopt;
  return total == 0 ? 0.0 : 100.0 * static_cast<double>(resident) / static_cast<double>(total);
}

}  // namespace kvbench::runner
