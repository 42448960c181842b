#include "adapters/engine_directory.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

namespace kvbench {

Status ListRegularFiles(const std::string& directory, std::vector<std::string>* paths) {
  namespace fs = std::filesystem;
  paths->clear();
  if (directory.empty()) return Status::OK();  // never opened: owns no files
  std::error_code ec;
  fs::recursive_directory_iterator it(directory, ec), end;
  if (ec) return Status::IOError("list files in '" + directory + "': " + ec.message());
  for (; it != end; it.increment(ec)) {
    if (ec) return Status::IOError("list files in '" + directory + "': " + ec.message());
    if (it->is_regular_file(ec)) paths->push_back(fs::absolute(it->path()).string());
  }
  std::sort(paths->begin(), paths->end());
  return Status::OK();
}

Status FsyncDirectory(const std::string& directory) {
  const int fd = open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return Status::IOError("open '" + directory + "': " + std::strerror(errno));
  Status s;
  if (fsync(fd) != 0) s = Status::IOError("fsync '" + directory + "': " + std::strerror(errno));
  close(fd);
  return s;
}

std::string JoinPath(const std::string& directory, const std::string& name) {
  if (directory.empty() || directory.back() == '/') return directory + name;
  return directory + "/" + name;
}

}  // namespace kvbench
