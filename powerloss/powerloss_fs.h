// PowerLossFs: a FUSE file system that passes every operation through to a
// backing directory and remembers what is not yet durable (UnsyncedState), so
// that a Cut() leaves the backing directory as a power cut would have.
//
// Kernel caching is set so that the layer sees every write when it happens:
// no write-back cache (FUSE_CAP_WRITEBACK_CACHE off: each write() is a
// request), no direct_io (the page cache stays, so shared writable mmap works:
// dirty mapped pages reach the layer as writes when the kernel writes them
// back or at msync, which arrives as fsync), and the page cache is dropped at
// each open (kernel_cache off). Requests are served by one thread, in order.
//
// Thread-safety: Checkpoint, Cut, Stats and RequestUnmount may be called from
// any thread while Loop() runs; they serialise with the requests.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "common/status.h"
#include "powerloss/unsynced_state.h"

struct fuse;

namespace kvbench::powerloss {

// The file system type the mount shows in /proc/self/mountinfo
// ("fuse.kvbench-powerloss"), by which stale mounts are found.
inline constexpr const char *kFsName = "kvbench-powerloss";

struct FsConfig {
  std::string backing;     // existing directory: what the mount shows
  std::string trash;       // existing empty directory on the backing's file system
  std::string mountpoint;  // existing empty directory
  // Bypass the page cache (FUSE direct_io). Only for checking what the kernel
  // then allows for shared writable mmap (docs/durability.md); the crash
  // driver never sets it.
  bool direct_io = false;
};

class PowerLossFs {
 public:
  PowerLossFs();
  ~PowerLossFs();
  PowerLossFs(const PowerLossFs &) = delete;
  PowerLossFs &operator=(const PowerLossFs &) = delete;

  // Mounts. IOError naming /dev/fuse or the mount point when it cannot.
  Status Mount(const FsConfig &config);
  // Serves requests until the mount goes away (RequestUnmount, a signal
  // installed by fuse_set_signal_handlers, or an external umount), then
  // unmounts. Returns the FUSE loop's result (0 for a clean end).
  int Loop();
  // SIGINT, SIGTERM and SIGHUP end Loop() (which then unmounts). After Mount.
  void InstallSignalHandlers();

  void Checkpoint();
  // Freezes the file system (every later request fails with EIO, as a disk
  // without power would) and applies the cut to the backing directory.
  Status Cut(CutMode mode, uint64_t seed, CutStats *stats);
  // "files=N names=M": what a cut would take now.
  std::string Stats();
  // Detaches the mount and aborts its connection so Loop() returns even if
  // a (dying) process still holds files open on it.
  void RequestUnmount();

  // For the request handlers (FUSE's private data).
  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace kvbench::powerloss
