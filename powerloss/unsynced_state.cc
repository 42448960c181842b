#include "powerloss/unsynced_state.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

namespace kvbench::powerloss {

namespace {

uint64_t NextRandom(uint64_t *state) {  // splitmix64: small, seedable, good
                                        // enough for coin flips
  uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

Status ErrnoStatus(const char *what) {
  return Status::IOError(std::string("power-loss layer: ") + what + ": " + std::strerror(errno));
}

Status WriteAll(int fd, const char *data, size_t size, uint64_t offset) {
  while (size > 0) {
    const ssize_t n = ::pwrite(fd, data, size, static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return ErrnoStatus("restore pwrite");
    data += n;
    size -= static_cast<size_t>(n);
    offset += static_cast<uint64_t>(n);
  }
  return Status::OK();
}

}  // namespace

std::string ParentOf(const std::string &path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash);
}

UnsyncedState::UnsyncedState(int root_fd, std::string trash_dir)
    : root_fd_(root_fd), trash_dir_(std::move(trash_dir)) {}

UnsyncedState::~UnsyncedState() {
  for (auto &[ino, file] : files_) ::close(file.fd);
}

UnsyncedState::FileUndo *UnsyncedState::StateOf(int fd, Status *error) {
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    *error = ErrnoStatus("fstat");
    return nullptr;
  }
  auto [it, inserted] = files_.try_emplace(static_cast<uint64_t>(st.st_ino));
  if (inserted) {
    // First change since the last sync: everything the file holds now is
    // durable.
    it->second.fd = ::fcntl(fd, F_DUPFD_CLOEXEC, 0);
    if (it->second.fd < 0) {
      *error = ErrnoStatus("dup");
      files_.erase(it);
      return nullptr;
    }
    it->second.synced_size = static_cast<uint64_t>(st.st_size);
    it->second.size_now = it->second.synced_size;
  }
  return &it->second;
}

Status UnsyncedState::CapturePage(FileUndo *file, uint64_t page) {
  const uint64_t start = page * kPageSize;
  if (start >= file->synced_size) {
    file->new_pages.insert(page);
    return Status::OK();
  }
  if (file->pre_images.count(page) != 0) return Status::OK();
  const uint64_t length = std::min(kPageSize, file->synced_size - start);
  std::string bytes(length, '\0');
  // The file may be shorter than synced_size after an unsynced truncate whose
  // own pre-images were captured already; a short read leaves zeros, which
  // that capture supersedes.
  const ssize_t n = ::pread(file->fd, bytes.data(), length, static_cast<off_t>(start));
  if (n < 0) return ErrnoStatus("pre-image pread");
  file->pre_images.emplace(page, std::move(bytes));
  return Status::OK();
}

Status UnsyncedState::BeforeWrite(int fd, uint64_t offset, uint64_t length) {
  if (length == 0) return Status::OK();
  Status error;
  FileUndo *file = StateOf(fd, &error);
  if (file == nullptr) return error;
  for (uint64_t page = offset / kPageSize; page <= (offset + length - 1) / kPageSize; ++page) {
    KVBENCH_RETURN_IF_ERROR(CapturePage(file, page));
  }
  file->size_now = std::max(file->size_now, offset + length);
  return Status::OK();
}

Status UnsyncedState::BeforeTruncate(int fd, uint64_t new_size) {
  Status error;
  FileUndo *file = StateOf(fd, &error);
  if (file == nullptr) return error;
  // Shrinking destroys the durable bytes past new_size: keep them.
  const uint64_t durable_end = std::min(file->synced_size, file->size_now);
  if (new_size < durable_end) {
    for (uint64_t page = new_size / kPageSize; page * kPageSize < durable_end; ++page) {
      KVBENCH_RETURN_IF_ERROR(CapturePage(file, page));
    }
  }
  file->size_now = new_size;
  return Status::OK();
}

void UnsyncedState::FileSynced(int fd) {
  struct stat st;
  if (::fstat(fd, &st) != 0) return;
  auto it = files_.find(static_cast<uint64_t>(st.st_ino));
  if (it == files_.end()) return;
  ::close(it->second.fd);
  files_.erase(it);
}

void UnsyncedState::Created(const std::string &path) {
  NameUndo op;
  op.kind = NameUndo::kCreated;
  op.path = path;
  op.unsynced_dirs.insert(ParentOf(path));
  names_.push_back(std::move(op));
}

std::string UnsyncedState::NewTrashPath() {
  return trash_dir_ + "/" + std::to_string(++trash_counter_);
}

int UnsyncedState::Unlink(const std::string &path) {
  NameUndo op;
  op.kind = NameUndo::kRemoved;
  op.path = path;
  op.trash = NewTrashPath();
  if (::renameat(root_fd_, path.c_str(), AT_FDCWD, op.trash.c_str()) != 0) return -errno;
  op.unsynced_dirs.insert(ParentOf(path));
  names_.push_back(std::move(op));
  return 0;
}

int UnsyncedState::Rmdir(const std::string &path) {
  // rmdir's own checks first: a directory, and empty.
  const int dir_fd = ::openat(root_fd_, path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd < 0) return -errno;
  DIR *dir = ::fdopendir(dir_fd);
  if (dir == nullptr) {
    const int error = errno;
    ::close(dir_fd);
    return -error;
  }
  bool empty = true;
  while (const dirent *entry = ::readdir(dir)) {
    if (std::strcmp(entry->d_name, ".") != 0 && std::strcmp(entry->d_name, "..") != 0) {
      empty = false;
      break;
    }
  }
  ::closedir(dir);
  if (!empty) return -ENOTEMPTY;
  return Unlink(path);
}

int UnsyncedState::Rename(const std::string &from, const std::string &to, unsigned int flags) {
  if (flags != 0) return -EINVAL;  // RENAME_NOREPLACE / EXCHANGE: engines do not use them
  NameUndo op;
  op.kind = NameUndo::kRenamed;
  op.from = from;
  op.path = to;
  struct stat st;
  if (::fstatat(root_fd_, to.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0) {
    // The replaced target goes to the trash so a cut can restore it.
    op.trash = NewTrashPath();
    if (::renameat(root_fd_, to.c_str(), AT_FDCWD, op.trash.c_str()) != 0) return -errno;
  }
  if (::renameat(root_fd_, from.c_str(), root_fd_, to.c_str()) != 0) {
    const int error = errno;
    if (!op.trash.empty()) ::renameat(AT_FDCWD, op.trash.c_str(), root_fd_, to.c_str());
    return -error;
  }
  op.unsynced_dirs = {ParentOf(from), ParentOf(to)};
  names_.push_back(std::move(op));
  return 0;
}

void UnsyncedState::Forget(const NameUndo &op) {
  if (op.trash.empty()) return;
  std::error_code ec;
  std::filesystem::remove_all(op.trash, ec);
}

void UnsyncedState::DirectorySynced(const std::string &path) {
  std::vector<NameUndo> pending;
  for (NameUndo &op : names_) {
    op.unsynced_dirs.erase(path);
    if (op.unsynced_dirs.empty()) {
      Forget(op);
    } else {
      pending.push_back(std::move(op));
    }
  }
  names_ = std::move(pending);
}

void UnsyncedState::Checkpoint() {
  for (auto &[ino, file] : files_) ::close(file.fd);
  files_.clear();
  for (const NameUndo &op : names_) Forget(op);
  names_.clear();
}

int UnsyncedState::UndoName(const NameUndo &op) {
  switch (op.kind) {
    case NameUndo::kCreated: {
      std::error_code ec;
      std::filesystem::remove_all(
          std::filesystem::path("/proc/self/fd") / std::to_string(root_fd_) / op.path, ec);
      return ec ? -ec.value() : 0;
    }
    case NameUndo::kRemoved:
      return ::renameat(AT_FDCWD, op.trash.c_str(), root_fd_, op.path.c_str()) == 0 ? 0 : -errno;
    case NameUndo::kRenamed:
      if (::renameat(root_fd_, op.path.c_str(), root_fd_, op.from.c_str()) != 0) return -errno;
      if (!op.trash.empty() &&
          ::renameat(AT_FDCWD, op.trash.c_str(), root_fd_, op.path.c_str()) != 0) {
        return -errno;
      }
      return 0;
  }
  return 0;
}

Status UnsyncedState::UndoFile(FileUndo *file, CutMode mode, uint64_t *rng, CutStats *stats) {
  auto survives = [&] { return mode == CutMode::kTorn && (NextRandom(rng) & 1) != 0; };
  for (const auto &[page, bytes] : file->pre_images) {
    if (survives()) {
      ++stats->pages_kept;
      continue;
    }
    KVBENCH_RETURN_IF_ERROR(WriteAll(file->fd, bytes.data(), bytes.size(), page * kPageSize));
    ++stats->pages_dropped;
  }
  const bool keep_size = survives();
  const uint64_t final_size = keep_size ? file->size_now : file->synced_size;
  const std::string zeros(kPageSize, '\0');
  for (uint64_t page : file->new_pages) {
    if (survives()) {
      ++stats->pages_kept;
      continue;
    }
    ++stats->pages_dropped;
    // A page past the synced size that did not reach the disk reads back as
    // zeros, as a block the file system allocated but never wrote.
    const uint64_t start = std::max(page * kPageSize, file->synced_size);
    const uint64_t end = std::min((page + 1) * kPageSize, final_size);
    if (start < end) KVBENCH_RETURN_IF_ERROR(WriteAll(file->fd, zeros.data(), end - start, start));
  }
  if (::ftruncate(file->fd, static_cast<off_t>(final_size)) != 0) {
    return ErrnoStatus("restore ftruncate");
  }
  return Status::OK();
}

Status UnsyncedState::Cut(CutMode mode, uint64_t seed, CutStats *stats) {
  *stats = CutStats{};
  uint64_t rng = seed;
  Status first_error;
  // Data first, through our own descriptors (valid whatever the names did),
  // then the names, newest first.
  for (auto &[ino, file] : files_) {
    ++stats->files;
    Status s = UndoFile(&file, mode, &rng, stats);
    if (!s.ok() && first_error.ok()) first_error = s;
  }
  size_t keep = 0;  // torn: the oldest `keep` name changes survive
  if (mode == CutMode::kTorn) keep = NextRandom(&rng) % (names_.size() + 1);
  for (size_t i = names_.size(); i > keep; --i) {
    const NameUndo &op = names_[i - 1];
    if (UndoName(op) != 0 && first_error.ok()) {
      first_error = ErrnoStatus(("undo of a name change of '" + op.path + "'").c_str());
    }
    ++stats->name_ops_undone;
  }
  for (size_t i = 0; i < keep; ++i) Forget(names_[i]);
  stats->name_ops_kept = keep;
  names_.clear();
  for (auto &[ino, file] : files_) ::close(file.fd);
  files_.clear();
  return first_error;
}

}  // namespace kvbench::powerloss
