#include "common/owned_dir.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>

#include "common/atomic_file.h"
#include "common/strings.h"

namespace kvbench {

namespace fs = std::filesystem;

namespace {

constexpr size_t kMaxSlugLength = 64;

std::string MarkerPath(const std::string& dir) { return dir + "/" + kOwnerMarkerName; }

// The marker's first line, or "" when there is none (or it is not a regular
// file: a link planted as the marker does not make a directory kvbench's).
std::string ReadMarker(const std::string& dir) {
  const std::string path = MarkerPath(dir);
  const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return "";
  struct stat st;
  std::string text;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size < 4096) {
    char buffer[4096];
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n > 0) text.assign(buffer, static_cast<size_t>(n));
  }
  ::close(fd);
  const size_t nl = text.find('\n');
  if (nl == std::string::npos) return "";
  text.resize(nl);
  return text.rfind("kvbench ", 0) == 0 ? text : "";
}

bool IsKvbenchFile(const fs::path& p) {
  const std::string name = p.filename().string();
  return name == kOwnerMarkerName || name == kLockFileName;
}

// lstat of `path`: 0 absent, 1 a real directory, -1 anything else (link, file).
int DirectoryKind(const std::string& path, std::string* what) {
  struct stat st;
  if (::lstat(path.c_str(), &st) != 0) return 0;
  if (S_ISDIR(st.st_mode)) return 1;
  *what = S_ISLNK(st.st_mode) ? "a symbolic link" : "not a directory";
  return -1;
}

}  // namespace

std::string SlugOf(std::string_view name) {
  std::string out;
  for (char c : name) {
    const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '-' || c == '_' || c == '.';
    if (out.empty() && c == '.') continue;  // no hidden names, no "." or ".."
    out += keep ? c : '_';
  }
  if (out.size() > kMaxSlugLength) out.resize(kMaxSlugLength);
  if (out.empty()) out = "unnamed";
  if (out != name) {
    char hash[16];
    std::snprintf(hash, sizeof hash, "-%08x", static_cast<unsigned>(Fnv1a64(name) & 0xffffffffu));
    out += hash;
  }
  return out;
}

bool HasControlCharacter(std::string_view text) {
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) return true;
  }
  return false;
}

bool IsOwnedDirectory(const std::string& dir) {
  std::string what;
  return DirectoryKind(dir, &what) == 1 && !ReadMarker(dir).empty();
}

bool IsEmptyButForMarker(const std::string& dir) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (!IsKvbenchFile(entry.path())) return false;
  }
  return true;
}

Status ClaimDirectory(const std::string& dir, const std::string& owner, ClaimMode mode) {
  if (dir.empty()) return Status::InvalidArgument("an empty directory name");
  std::string what;
  const int kind = DirectoryKind(dir, &what);
  if (kind < 0) return Status::InvalidArgument("'" + dir + "' is " + what + ", not a directory");
  if (kind == 1) {
    const bool marked = !ReadMarker(dir).empty();
    const bool empty = IsEmptyButForMarker(dir);
    if (!marked && !empty) {
      return Status::InvalidArgument("refusing to use '" + dir +
                                     "': it is not empty and kvbench did not create it (choose "
                                     "a new or empty directory)");
    }
    if (marked && !empty && mode == ClaimMode::kEmptyOrNew) {
      return Status::InvalidArgument("'" + dir +
                                     "' holds an earlier kvbench run's files: choose another "
                                     "directory, or --overwrite to replace them");
    }
    if (marked) return Status::OK();
    return WriteFileAtomically(MarkerPath(dir), "kvbench adopted " + owner + "\n");
  }
  std::error_code ec;
  const fs::path parent = fs::path(dir).parent_path();
  if (!parent.empty()) fs::create_directories(parent, ec);
  if (ec) return Status::IOError("cannot create '" + parent.string() + "': " + ec.message());
  if (::mkdir(dir.c_str(), 0755) != 0) {
    return Status::IOError("cannot create '" + dir + "': " + std::strerror(errno));
  }
  return WriteFileAtomically(MarkerPath(dir), "kvbench created " + owner + "\n");
}

Status RemoveOwnedDirectory(const std::string& dir) {
  std::string what;
  const int kind = DirectoryKind(dir, &what);
  if (kind == 0) return Status::OK();
  if (kind < 0) return Status::InvalidArgument("not removing '" + dir + "': it is " + what);
  const std::string marker = ReadMarker(dir);
  if (marker.empty()) {
    return Status::InvalidArgument("not removing '" + dir + "': kvbench did not create it");
  }
  if (marker.rfind("kvbench adopted ", 0) == 0) {
    KVBENCH_RETURN_IF_ERROR(EmptyOwnedDirectory(dir));
    std::error_code ec;
    fs::remove(MarkerPath(dir), ec);
    fs::remove(dir + "/" + kLockFileName, ec);
    return Status::OK();
  }
  std::error_code ec;
  fs::remove_all(dir, ec);
  if (ec) return Status::IOError("cannot remove '" + dir + "': " + ec.message());
  return Status::OK();
}

Status EmptyOwnedDirectory(const std::string& dir) {
  if (!IsOwnedDirectory(dir)) {
    return Status::InvalidArgument("not emptying '" + dir + "': kvbench did not create it");
  }
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (IsKvbenchFile(entry.path())) continue;
    std::error_code rm;
    fs::remove_all(entry.path(), rm);
    if (rm) return Status::IOError("cannot delete '" + entry.path().string() + "': " + rm.message());
  }
  if (ec) return Status::IOError("cannot list '" + dir + "': " + ec.message());
  return Status::OK();
}

DirectoryLock::DirectoryLock(DirectoryLock&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }

DirectoryLock& DirectoryLock::operator=(DirectoryLock&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.fd_;
    other.fd_ = -1;
  }
  return *this;
}

DirectoryLock::~DirectoryLock() {
  if (fd_ >= 0) ::close(fd_);
}

Status DirectoryLock::Acquire(const std::string& dir, DirectoryLock* lock) {
  const std::string path = dir + "/" + kLockFileName;
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) return Status::IOError("cannot open lock '" + path + "': " + std::strerror(errno));
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const int err = errno;
    char buffer[32] = {};
    const ssize_t n = ::pread(fd, buffer, sizeof buffer - 1, 0);
    ::close(fd);
    if (err != EWOULDBLOCK) {
      return Status::IOError("cannot lock '" + path + "': " + std::strerror(err));
    }
    std::string holder = n > 0 ? std::string(buffer, static_cast<size_t>(n)) : "";
    while (!holder.empty() && (holder.back() == '\n' || holder.back() == ' ')) holder.pop_back();
    return Status::InvalidArgument("'" + dir + "' is in use by another kvbench run" +
                                   (holder.empty() ? "" : " (pid " + holder + ")"));
  }
  const std::string pid = std::to_string(::getpid()) + "\n";
  // Without the pid the lock still holds; a second run just cannot name us.
  if (::ftruncate(fd, 0) == 0) (void)!::pwrite(fd, pid.data(), pid.size(), 0);
  *lock = DirectoryLock();
  lock->fd_ = fd;
  return Status::OK();
}

}  // namespace kvbench
