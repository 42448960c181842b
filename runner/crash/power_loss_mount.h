// The crash driver's handle on one power-loss mount: starts the layer's daemon
// (powerloss/, the kvbench-powerloss binary) over a backing directory, and
// tells it to checkpoint, to cut, or to unmount, over its stdin/stdout.
//
// The mount goes away on every path: Cut() and Unmount() end the daemon and
// check that the mount point is no longer a mount; the destructor does the
// same; the daemon unmounts by itself when its stdin closes (kvbench exited
// or was killed) or when kvbench dies (PR_SET_PDEATHSIG SIGTERM). A mount left
// behind anyway (the daemon was SIGKILLed) is found and detached at the next
// `kvbench crash` by CleanStaleMounts. A watchdog thread bounds the mount's
// life (PowerLossPaths::deadline_s), so nothing blocks on it for good.
//
// Not thread-safe; one owner.
#pragma once

#include <sys/types.h>

#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "common/status.h"

namespace kvbench::runner {

struct PowerLossPaths {
  std::string binary;      // the kvbench-powerloss executable
  std::string backing;     // existing directory
  std::string trash;       // existing empty directory on the backing's file system
  std::string mountpoint;  // existing empty directory
  // The mount's whole life, at most (0: no limit). Past it, or when the run
  // is interrupted, or when the daemon has been stopped (SIGSTOP) for two
  // seconds, the watchdog kills the daemon and detaches the mount: every call
  // blocked on the mount then fails (ENOTCONN) instead of hanging for good.
  double deadline_s = 0;
};

class PowerLossMount {
 public:
  PowerLossMount() = default;
  ~PowerLossMount();
  PowerLossMount(const PowerLossMount&) = delete;
  PowerLossMount& operator=(const PowerLossMount&) = delete;

  // Starts the daemon and waits (10 s at most) until it has mounted.
  Status Mount(const PowerLossPaths& paths);
  // Everything written so far is durable.
  Status Checkpoint();
  // mode "discard" or "torn". Applies the cut, then the daemon unmounts and
  // exits. `summary` gets the daemon's counts ("files=.. dropped=..").
  Status Cut(const std::string& mode, uint64_t seed, std::string* summary);
  // Unmounts without a cut (a normal end, an error, an interrupt). Safe to
  // call when not mounted.
  Status Unmount();

 private:
  Status Command(const std::string& line, std::string* answer, double timeout_s);
  Status WaitForExit();
  void StartWatchdog();
  void StopWatchdog();

  PowerLossPaths paths_;
  pid_t pid_ = -1;
  int to_daemon_ = -1;
  int from_daemon_ = -1;
  std::string pending_;  // bytes read past the last answer line
  std::thread watchdog_;
  std::mutex watchdog_mu_;
  std::condition_variable watchdog_cv_;
  bool watchdog_stop_ = false;
  std::string watchdog_fired_;  // why it killed the daemon, when it did
};

// Whether `path` is a mount point of the power-loss layer now (its entry in
// /proc/self/mountinfo).
bool IsPowerLossMount(const std::string& path);

// Detaches every power-loss mount whose daemon is gone (the mount point
// answers ENOTCONN) and returns their paths, for a message. Live mounts
// (another kvbench crash running) are left alone.
std::vector<std::string> CleanStaleMounts();

// OK when /dev/fuse can be opened for reading and writing; otherwise
// InvalidArgument with the reason (missing, not permitted).
Status CheckFuseDevice();

}  // namespace kvbench::runner
