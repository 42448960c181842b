#include "common/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace kvbench {

namespace {

std::string Named(std::string_view what, const std::string& path) {
  return std::string(what) + " '" + path + "'";
}

const char* KindOf(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

Status CheckStat(const struct stat& st, const std::string& path, uint64_t max_bytes,
                 std::string_view what) {
  if (!S_ISREG(st.st_mode)) {
    return Status::InvalidArgument(Named(what, path) + ": is " + KindOf(st.st_mode) +
                                   ", not a regular file");
  }
  if (static_cast<uint64_t>(st.st_size) > max_bytes) {
    return Status::InvalidArgument(Named(what, path) + ": " + std::to_string(st.st_size) +
                                   " bytes is over the limit of " + std::to_string(max_bytes) +
                                   " bytes");
  }
  return Status::OK();
}

}  // namespace

Status CheckInputFile(const std::string& path, uint64_t max_bytes, std::string_view what) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) {
    return Status::IOError(Named(what, path) + ": cannot be read: " + std::strerror(errno));
  }
  return CheckStat(st, path, max_bytes, what);
}

Status ReadInputFile(const std::string& path, uint64_t max_bytes, std::string_view what,
                     std::string* contents) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer before fstat can
  // refuse it. It does not change reads of a regular file.
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) {
    return Status::IOError(Named(what, path) + ": cannot be read: " + std::strerror(errno));
  }
  struct stat st {};
  Status s;
  if (fstat(fd, &st) != 0) {
    s = Status::IOError(Named(what, path) + ": cannot be read: " + std::strerror(errno));
  } else {
    s = CheckStat(st, path, max_bytes, what);
  }
  std::string data;
  if (s.ok()) data.reserve(static_cast<size_t>(st.st_size));
  char buffer[1 << 16];
  while (s.ok()) {
    const ssize_t n = read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      s = Status::IOError(Named(what, path) + ": read failed: " + std::strerror(errno));
    } else if (n == 0) {
      break;
    } else if (data.size() + static_cast<size_t>(n) > max_bytes) {
      s = Status::InvalidArgument(Named(what, path) + ": grew over the limit of " +
                                  std::to_string(max_bytes) + " bytes while being read");
    } else {
      data.append(buffer, static_cast<size_t>(n));
    }
  }
  close(fd);
  if (s.ok()) *contents = std::move(data);
  return s;
}

}  // namespace kvbench
