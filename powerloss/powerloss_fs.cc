#define FUSE_USE_VERSION 31
#include "powerloss/powerloss_fs.h"

#include <dirent.h>
#include <fcntl.h>
#include <fuse.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace kvbench::powerloss {

struct PowerLossFs::Impl {
  FsConfig config;
  int root_fd = -1;
  std::unique_ptr<UnsyncedState> state;
  std::mutex mu;        // serialises requests with the control calls
  bool frozen = false;  // after a cut: the power is off
  struct fuse *fuse = nullptr;
  // Guards `mounted` between the loop's end and RequestUnmount, which may run
  // at once (stdin closing as SIGTERM arrives): whoever unmounts first says
  // so, and the other does not unmount again (libfuse would print "failed to
  // unmount: Invalid argument"). Request handlers never take it.
  std::mutex unmount_mu;
  bool mounted = false;
};

namespace {

using Impl = PowerLossFs::Impl;

Impl *Self() { return static_cast<Impl *>(fuse_get_context()->private_data); }

// "/a/b" -> "a/b"; "/" -> "". Paths are those FUSE hands in: absolute in the
// mount.
std::string Rel(const char *path) { return path[0] == '/' ? std::string(path + 1) : path; }
const char *RelOrDot(const std::string &rel) { return rel.empty() ? "." : rel.c_str(); }

int Errno(int rc) { return rc < 0 ? -errno : rc; }

// Every handler holds the lock for its whole request and fails once the power
// is off.
#define POWERLOSS_ENTER(impl)      \
  Impl *impl = Self();             \
  std::lock_guard guard(impl->mu); \
  if (impl->frozen) return -EIO

void *OnInit(fuse_conn_info *conn, fuse_config *cfg) {
  // The layer must see every write as it happens (see the header).
  conn->want &= ~FUSE_CAP_WRITEBACK_CACHE;
  cfg->use_ino = 1;
  cfg->direct_io = static_cast<Impl *>(fuse_get_context()->private_data)->config.direct_io;
  cfg->kernel_cache = 0;
  cfg->auto_cache = 0;
  // An unlinked open file keeps working through its descriptor instead of
  // being renamed to .fuse_hidden* (a rename the engine never asked for).
  cfg->hard_remove = 1;
  cfg->nullpath_ok = 1;
  return fuse_get_context()->private_data;
}

int OnGetattr(const char *path, struct stat *st, fuse_file_info *fi) {
  POWERLOSS_ENTER(self);
  if (fi != nullptr) return Errno(::fstat(static_cast<int>(fi->fh), st));
  return Errno(::fstatat(self->root_fd, RelOrDot(Rel(path)), st, AT_SYMLINK_NOFOLLOW));
}

int OnReadlink(const char *path, char *buf, size_t size) {
  POWERLOSS_ENTER(self);
  const ssize_t n = ::readlinkat(self->root_fd, Rel(path).c_str(), buf, size - 1);
  if (n < 0) return -errno;
  buf[n] = '\0';
  return 0;
}

int OnMknod(const char *path, mode_t mode, dev_t rdev) {
  POWERLOSS_ENTER(self);
  if (::mknodat(self->root_fd, Rel(path).c_str(), mode, rdev) != 0) return -errno;
  self->state->Created(Rel(path));
  return 0;
}

int OnMkdir(const char *path, mode_t mode) {
  POWERLOSS_ENTER(self);
  if (::mkdirat(self->root_fd, Rel(path).c_str(), mode) != 0) return -errno;
  self->state->Created(Rel(path));
  return 0;
}

int OnUnlink(const char *path) {
  POWERLOSS_ENTER(self);
  return self->state->Unlink(Rel(path));
}

int OnRmdir(const char *path) {
  POWERLOSS_ENTER(self);
  return self->state->Rmdir(Rel(path));
}

int OnSymlink(const char *target, const char *link) {
  POWERLOSS_ENTER(self);
  if (::symlinkat(target, self->root_fd, Rel(link).c_str()) != 0) return -errno;
  self->state->Created(Rel(link));
  return 0;
}

int OnRename(const char *from, const char *to, unsigned int flags) {
  POWERLOSS_ENTER(self);
  return self->state->Rename(Rel(from), Rel(to), flags);
}

int OnLink(const char *from, const char *to) {
  POWERLOSS_ENTER(self);
  if (::linkat(self->root_fd, Rel(from).c_str(), self->root_fd, Rel(to).c_str(), 0) != 0) {
    return -errno;
  }
  self->state->Created(Rel(to));
  return 0;
}

int OnChmod(const char *path, mode_t mode, fuse_file_info *fi) {
  POWERLOSS_ENTER(self);
  if (fi != nullptr) return Errno(::fchmod(static_cast<int>(fi->fh), mode));
  return Errno(::fchmodat(self->root_fd, RelOrDot(Rel(path)), mode, 0));
}

int OnChown(const char *path, uid_t uid, gid_t gid, fuse_file_info *fi) {
  POWERLOSS_ENTER(self);
  if (fi != nullptr) return Errno(::fchown(static_cast<int>(fi->fh), uid, gid));
  return Errno(::fchownat(self->root_fd, RelOrDot(Rel(path)), uid, gid, AT_SYMLINK_NOFOLLOW));
}

int Truncate(Impl *self, int fd, off_t size) {
  if (Status s = self->state->BeforeTruncate(fd, static_cast<uint64_t>(size)); !s.ok()) {
    return -EIO;
  }
  return Errno(::ftruncate(fd, size));
}

int OnTruncate(const char *path, off_t size, fuse_file_info *fi) {
  POWERLOSS_ENTER(self);
  if (fi != nullptr) return Truncate(self, static_cast<int>(fi->fh), size);
  const int fd = ::openat(self->root_fd, Rel(path).c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) return -errno;
  const int rc = Truncate(self, fd, size);
  ::close(fd);
  return rc;
}

// Opens the backing file. O_APPEND is left out: the kernel already turns an
// appending write into a write at the end, and pwrite on an O_APPEND
// descriptor would ignore the offset. O_TRUNC goes through Truncate so the
// cut can restore what it destroyed.
int OpenBacking(Impl *self, const char *path, int flags, mode_t mode, fuse_file_info *fi) {
  const bool truncate = (flags & O_TRUNC) != 0;
  flags &= ~(O_APPEND | O_TRUNC);
  flags |= O_CLOEXEC;
  if ((flags & O_ACCMODE) == O_WRONLY) flags = (flags & ~O_ACCMODE) | O_RDWR;  // pre-images
  const int fd = ::openat(self->root_fd, Rel(path).c_str(), flags, mode);
  if (fd < 0) return -errno;
  if (truncate) {
    if (const int rc = Truncate(self, fd, 0); rc != 0) {
      ::close(fd);
      return rc;
    }
  }
  fi->fh = static_cast<uint64_t>(fd);
  return 0;
}

int OnOpen(const char *path, fuse_file_info *fi) {
  POWERLOSS_ENTER(self);
  return OpenBacking(self, path, fi->flags, 0, fi);
}

int OnCreate(const char *path, mode_t mode, fuse_file_info *fi) {
  POWERLOSS_ENTER(self);
  struct stat st;
  const bool existed = ::fstatat(self->root_fd, Rel(path).c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0;
  const int rc = OpenBacking(self, path, fi->flags | O_CREAT, mode, fi);
  if (rc == 0 && !existed) self->state->Created(Rel(path));
  return rc;
}

int OnRead(const char *path, char *buf, size_t size, off_t offset, fuse_file_info *fi) {
  POWERLOSS_ENTER(self);
  return static_cast<int>(
      Errno(static_cast<int>(::pread(static_cast<int>(fi->fh), buf, size, offset))));
}

int OnWrite(const char *path, const char *buf, size_t size, off_t offset, fuse_file_info *fi) {
  POWERLOSS_ENTER(self);
  const int fd = static_cast<int>(fi->fh);
  if (!self->state->BeforeWrite(fd, static_cast<uint64_t>(offset), size).ok()) return -EIO;
  const ssize_t n = ::pwrite(fd, buf, size, offset);
  return n < 0 ? -errno : static_cast<int>(n);
}

int OnStatfs(const char *path, struct statvfs *st) {
  POWERLOSS_ENTER(self);
  return Errno(::fstatvfs(self->root_fd, st));
}

int OnFlush(const char *path, fuse_file_info *fi) {
  POWERLOSS_ENTER(self);
  return 0;
}

int OnRelease(const char *path, fuse_file_info *fi) {
  // Runs after a cut too: descriptors must be closed whatever the power does.
  Impl *self = Self();
  std::lock_guard guard(self->mu);
  ::close(static_cast<int>(fi->fh));
  return 0;
}

int OnFsync(const char *path, int datasync, fuse_file_info *fi) {
  POWERLOSS_ENTER(self);
  const int fd = static_cast<int>(fi->fh);
  // Passed through too, so the layer's cost includes the disk's.
  if ((datasync ? ::fdatasync(fd) : ::fsync(fd)) != 0) return -errno;
  self->state->FileSynced(fd);
  return 0;
}

// A directory handle: nullpath_ok lets FUSE pass no path to readdir and
// fsyncdir, so the handle keeps the directory's own.
struct DirHandle {
  std::string rel;
};

int OnOpendir(const char *path, fuse_file_info *fi) {
  POWERLOSS_ENTER(self);
  struct stat st;
  const std::string rel = Rel(path);
  if (::fstatat(self->root_fd, RelOrDot(rel), &st, 0) != 0) return -errno;
  if (!S_ISDIR(st.st_mode)) return -ENOTDIR;
  fi->fh = reinterpret_cast<uint64_t>(new DirHandle{rel});
  return 0;
}

int OnReleasedir(const char *, fuse_file_info *fi) {
  delete reinterpret_cast<DirHandle *>(fi->fh);
  return 0;
}

int OnReaddir(const char *, void *buf, fuse_fill_dir_t filler, off_t, fuse_file_info *fi,
              fuse_readdir_flags) {
  POWERLOSS_ENTER(self);
  const std::string &rel = reinterpret_cast<DirHandle *>(fi->fh)->rel;
  const int fd = ::openat(self->root_fd, RelOrDot(rel), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return -errno;
  DIR *dir = ::fdopendir(fd);
  if (dir == nullptr) {
    const int error = errno;
    ::close(fd);
    return -error;
  }
  while (const dirent *entry = ::readdir(dir)) {
    struct stat st {};
    st.st_ino = entry->d_ino;
    st.st_mode = static_cast<mode_t>(DTTOIF(entry->d_type));
    if (filler(buf, entry->d_name, &st, 0, static_cast<fuse_fill_dir_flags>(0)) != 0) break;
  }
  ::closedir(dir);
  return 0;
}

int OnFsyncdir(const char *, int datasync, fuse_file_info *fi) {
  POWERLOSS_ENTER(self);
  const std::string &rel = reinterpret_cast<DirHandle *>(fi->fh)->rel;
  const int fd = ::openat(self->root_fd, RelOrDot(rel), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return -errno;
  const int rc = ::fsync(fd);
  const int error = errno;
  ::close(fd);
  if (rc != 0) return -error;
  self->state->DirectorySynced(rel);
  return 0;
}

int OnAccess(const char *path, int mask) {
  POWERLOSS_ENTER(self);
  return Errno(::faccessat(self->root_fd, RelOrDot(Rel(path)), mask, 0));
}

int OnUtimens(const char *path, const timespec tv[2], fuse_file_info *fi) {
  POWERLOSS_ENTER(self);
  if (fi != nullptr) return Errno(::futimens(static_cast<int>(fi->fh), tv));
  return Errno(::utimensat(self->root_fd, RelOrDot(Rel(path)), tv, AT_SYMLINK_NOFOLLOW));
}

int OnFallocate(const char *path, int mode, off_t offset, off_t length, fuse_file_info *fi) {
  POWERLOSS_ENTER(self);
  // Plain allocation only: punching or collapsing would need pre-images of
  // their own, and engines fall back to writes without it.
  if (mode != 0 && mode != FALLOC_FL_KEEP_SIZE) return -EOPNOTSUPP;
  const int fd = static_cast<int>(fi->fh);
  if (mode == 0 &&
      !self->state->BeforeWrite(fd, static_cast<uint64_t>(offset), static_cast<uint64_t>(length))
           .ok()) {
    return -EIO;
  }
  return Errno(::fallocate(fd, mode, offset, length));
}

off_t OnLseek(const char *path, off_t offset, int whence, fuse_file_info *fi) {
  POWERLOSS_ENTER(self);
  const off_t at = ::lseek(static_cast<int>(fi->fh), offset, whence);
  return at < 0 ? -errno : at;
}

int OnFlock(const char *path, fuse_file_info *fi, int op) {
  POWERLOSS_ENTER(self);
  return Errno(::flock(static_cast<int>(fi->fh), op));
}

fuse_operations MakeOperations() {
  fuse_operations ops{};
  ops.init = OnInit;
  ops.getattr = OnGetattr;
  ops.readlink = OnReadlink;
  ops.mknod = OnMknod;
  ops.mkdir = OnMkdir;
  ops.unlink = OnUnlink;
  ops.rmdir = OnRmdir;
  ops.symlink = OnSymlink;
  ops.rename = OnRename;
  ops.link = OnLink;
  ops.chmod = OnChmod;
  ops.chown = OnChown;
  ops.truncate = OnTruncate;
  ops.open = OnOpen;
  ops.create = OnCreate;
  ops.read = OnRead;
  ops.write = OnWrite;
  ops.statfs = OnStatfs;
  ops.flush = OnFlush;
  ops.release = OnRelease;
  ops.fsync = OnFsync;
  ops.opendir = OnOpendir;
  ops.releasedir = OnReleasedir;
  ops.readdir = OnReaddir;
  ops.fsyncdir = OnFsyncdir;
  ops.access = OnAccess;
  ops.utimens = OnUtimens;
  ops.fallocate = OnFallocate;
  ops.lseek = OnLseek;
  ops.flock = OnFlock;
  return ops;
}

}  // namespace

PowerLossFs::PowerLossFs() : impl_(std::make_unique<Impl>()) {}

PowerLossFs::~PowerLossFs() {
  if (impl_->fuse != nullptr) {
    if (impl_->mounted) fuse_unmount(impl_->fuse);
    fuse_destroy(impl_->fuse);
  }
  if (impl_->root_fd >= 0) ::close(impl_->root_fd);
}

Status PowerLossFs::Mount(const FsConfig &config) {
  impl_->config = config;
  impl_->root_fd = ::open(config.backing.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (impl_->root_fd < 0) {
    return Status::IOError("backing directory '" + config.backing + "': " + std::strerror(errno));
  }
  impl_->state = std::make_unique<UnsyncedState>(impl_->root_fd, config.trash);
  const std::string fs_options = std::string("fsname=") + kFsName + ",subtype=" + kFsName;
  const char *argv[] = {kFsName, "-o", fs_options.c_str()};
  fuse_args args = FUSE_ARGS_INIT(3, const_cast<char **>(argv));
  const fuse_operations ops = MakeOperations();
  impl_->fuse = fuse_new(&args, &ops, sizeof ops, impl_.get());
  fuse_opt_free_args(&args);
  if (impl_->fuse == nullptr) return Status::IOError("fuse_new failed");
  if (fuse_mount(impl_->fuse, config.mountpoint.c_str()) != 0) {
    return Status::IOError("cannot mount the power-loss layer on '" + config.mountpoint +
                           "' (is /dev/fuse there and permitted?)");
  }
  impl_->mounted = true;
  return Status::OK();
}

int PowerLossFs::Loop() {
  const int rc = fuse_loop(impl_->fuse);
  {
    std::lock_guard guard(impl_->mu);
    impl_->frozen = true;
  }
  std::lock_guard unmounting(impl_->unmount_mu);
  if (impl_->mounted) {
    fuse_unmount(impl_->fuse);
    impl_->mounted = false;
  }
  return rc;
}

void PowerLossFs::InstallSignalHandlers() {
  fuse_set_signal_handlers(fuse_get_session(impl_->fuse));
}

void PowerLossFs::Checkpoint() {
  std::lock_guard guard(impl_->mu);
  impl_->state->Checkpoint();
}

Status PowerLossFs::Cut(CutMode mode, uint64_t seed, CutStats *stats) {
  std::lock_guard guard(impl_->mu);
  impl_->frozen = true;
  return impl_->state->Cut(mode, seed, stats);
}

std::string PowerLossFs::Stats() {
  std::lock_guard guard(impl_->mu);
  return "files=" + std::to_string(impl_->state->files_pending()) +
         " names=" + std::to_string(impl_->state->names_pending());
}

void PowerLossFs::RequestUnmount() {
  {
    std::lock_guard guard(impl_->mu);
    impl_->frozen = true;
  }
  {
    // The kernel ends the connection once the detached mount's last user is
    // gone; the loop's read then fails and Loop() returns.
    std::lock_guard unmounting(impl_->unmount_mu);
    if (impl_->mounted && ::umount2(impl_->config.mountpoint.c_str(), MNT_DETACH) == 0) {
      impl_->mounted = false;
    }
  }
  fuse_exit(impl_->fuse);
}

}  // namespace kvbench::powerloss
