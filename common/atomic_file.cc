#include "common/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>

namespace kvbench {

namespace {

std::string DirectoryOf(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// A rename is durable only once its directory is synced.
Status SyncDirectory(const std::string& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return Status::IOError("open directory '" + dir + "': " + std::strerror(errno));
  const int rc = ::fsync(fd);
  const int err = errno;
  ::close(fd);
  if (rc != 0 && err != EINVAL) {  // EINVAL: a file system that cannot sync directories
    return Status::IOError("sync directory '" + dir + "': " + std::strerror(err));
  }
  return Status::OK();
}

// Writes and fsyncs `contents` under a fresh temporary name beside `path`;
// *tmp receives that name.
Status WriteTemporary(const std::string& path, const std::string& contents, std::string* tmp) {
  const size_t slash = path.rfind('/');
  const std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  std::string name = (slash == std::string::npos ? std::string() : path.substr(0, slash + 1)) +
                     "." + base + ".kvbench-XXXXXX";
  const int fd = ::mkostemp(name.data(), O_CLOEXEC);
  if (fd < 0) return Status::IOError("create a temporary file for '" + path + "': " + std::strerror(errno));
  ::fchmod(fd, 0644);
  size_t done = 0;
  while (done < contents.size()) {
    const ssize_t n = ::write(fd, contents.data() + done, contents.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      const std::string err = std::strerror(errno);
      ::close(fd);
      ::unlink(name.c_str());
      return Status::IOError("write '" + path + "': " + err);
    }
    done += static_cast<size_t>(n);
  }
  if (::fsync(fd) != 0) {
    const std::string err = std::strerror(errno);
    ::close(fd);
    ::unlink(name.c_str());
    return Status::IOError("sync '" + path + "': " + err);
  }
  if (::close(fd) != 0) {
    const std::string err = std::strerror(errno);
    ::unlink(name.c_str());
    return Status::IOError("close '" + path + "': " + err);
  }
  *tmp = std::move(name);
  return Status::OK();
}

}  // namespace

Status WriteFileAtomically(const std::string& path, const std::string& contents) {
  return WriteFileSetAtomically({{path, contents}});
}

Status WriteFileSetAtomically(const std::vector<std::pair<std::string, std::string>>& files) {
  std::vector<std::string> staged;
  for (const auto& [path, contents] : files) {
    std::string tmp;
    Status s = WriteTemporary(path, contents, &tmp);
    if (!s.ok()) {
      for (const std::string& t : staged) ::unlink(t.c_str());
      return s;
    }
    staged.push_back(std::move(tmp));
  }
  Status first_error;
  for (size_t i = 0; i < files.size(); ++i) {
    if (::rename(staged[i].c_str(), files[i].first.c_str()) != 0) {
      if (first_error.ok()) {
        first_error = Status::IOError("rename into '" + files[i].first + "': " + std::strerror(errno));
      }
      ::unlink(staged[i].c_str());
    }
  }
  std::vector<std::string> dirs;
  for (const auto& file : files) {
    const std::string dir = DirectoryOf(file.first);
    if (std::find(dirs.begin(), dirs.end(), dir) == dirs.end()) dirs.push_back(dir);
  }
  for (const std::string& dir : dirs) {
    Status s = SyncDirectory(dir);
    if (!s.ok() && first_error.ok()) first_error = s;
  }
  return first_error;
}

}  // namespace kvbench
