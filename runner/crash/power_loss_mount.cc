#include "runner/crash/power_loss_mount.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "runner/interrupt.h"

namespace kvbench::runner {

namespace {

constexpr const char* kFsType = "fuse.kvbench-powerloss";

// Mount points of the power-loss layer, from /proc/self/mountinfo (field 5 is
// the mount point; the file system type follows the " - " separator).
std::vector<std::string> PowerLossMountPoints() {
  std::vector<std::string> out;
  std::ifstream in("/proc/self/mountinfo");
  std::string line;
  while (std::getline(in, line)) {
    const size_t dash = line.find(" - ");
    if (dash == std::string::npos) continue;
    std::istringstream tail(line.substr(dash + 3));
    std::string type;
    tail >> type;
    if (type != kFsType) continue;
    std::istringstream head(line.substr(0, dash));
    std::string id, parent, dev, root, mountpoint;
    head >> id >> parent >> dev >> root >> mountpoint;
    // mountinfo escapes spaces and such as \040 (octal).
    std::string unescaped;
    for (size_t i = 0; i < mountpoint.size(); ++i) {
      if (mountpoint[i] == '\\' && i + 3 < mountpoint.size()) {
        unescaped.push_back(static_cast<char>(std::stoi(mountpoint.substr(i + 1, 3), nullptr, 8)));
        i += 3;
      } else {
        unescaped.push_back(mountpoint[i]);
      }
    }
    out.push_back(unescaped);
  }
  return out;
}

}  // namespace

bool IsPowerLossMount(const std::string& path) {
  for (const std::string& m : PowerLossMountPoints()) {
    if (m == path) return true;
  }
  return false;
}

std::vector<std::string> CleanStaleMounts() {
  std::vector<std::string> cleaned;
  for (const std::string& m : PowerLossMountPoints()) {
    struct stat st;
    if (::stat(m.c_str(), &st) != 0 && errno == ENOTCONN) {
      if (::umount2(m.c_str(), MNT_DETACH) == 0) cleaned.push_back(m);
    }
  }
  return cleaned;
}

Status CheckFuseDevice() {
  const int fd = ::open("/dev/fuse", O_RDWR | O_CLOEXEC);
  if (fd >= 0) {
    ::close(fd);
    return Status::OK();
  }
  const int error = errno;
  if (error == ENOENT) {
    return Status::InvalidArgument(
        "/dev/fuse is missing: the power-loss layer needs FUSE (load the fuse module, or in a "
        "container pass --device /dev/fuse); --fault kill needs no FUSE");
  }
  return Status::InvalidArgument(std::string("/dev/fuse cannot be opened: ") +
                                 std::strerror(error) +
                                 " (the power-loss layer mounts a FUSE file system: run as root "
                                 "or with access to /dev/fuse); --fault kill needs no FUSE");
}

PowerLossMount::~PowerLossMount() { (void)Unmount(); }

namespace {

// 'T' (stopped) or 't' (traced) in /proc/PID/stat: a daemon that answers nothing.
bool IsStopped(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string text;
  std::getline(in, text);
  const size_t paren = text.rfind(')');
  return paren != std::string::npos && paren + 2 < text.size() &&
         (text[paren + 2] == 'T' || text[paren + 2] == 't');
}

std::string AbsolutePath(const std::string& path) {
  std::error_code ec;
  const std::filesystem::path p = std::filesystem::absolute(path, ec);
  return ec ? path : p.lexically_normal().string();
}

}  // namespace

void PowerLossMount::StartWatchdog() {
  watchdog_stop_ = false;
  watchdog_fired_.clear();
  const pid_t pid = pid_;
  const std::string mountpoint = paths_.mountpoint;
  const double deadline_s = paths_.deadline_s;
  watchdog_ = std::thread([this, pid, mountpoint, deadline_s] {
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    auto stopped_since = Clock::time_point::max();
    std::unique_lock lock(watchdog_mu_);
    while (!watchdog_cv_.wait_for(lock, std::chrono::milliseconds(50),
                                  [this] { return watchdog_stop_; })) {
      const auto now = Clock::now();
      std::string why;
      if (InterruptCount() > 0) {
        why = "the run was interrupted";
      } else if (deadline_s > 0 && now - start > std::chrono::duration<double>(deadline_s)) {
        why = "the mount outlived its deadline of " + std::to_string(static_cast<int>(deadline_s)) +
              " s";
      } else if (IsStopped(pid)) {
        if (stopped_since == Clock::time_point::max()) stopped_since = now;
        if (now - stopped_since > std::chrono::seconds(2)) why = "its daemon was stopped";
      } else {
        stopped_since = Clock::time_point::max();
      }
      if (why.empty()) continue;
      // SIGKILL ends even a stopped daemon; its /dev/fuse closing aborts the
      // connection, so calls blocked on the mount fail at once.
      watchdog_fired_ = why;
      ::kill(pid, SIGKILL);
      ::umount2(mountpoint.c_str(), MNT_DETACH);
      return;
    }
  });
}

void PowerLossMount::StopWatchdog() {
  if (!watchdog_.joinable()) return;
  {
    std::lock_guard lock(watchdog_mu_);
    watchdog_stop_ = true;
  }
  watchdog_cv_.notify_all();
  watchdog_.join();
}

Status PowerLossMount::Mount(const PowerLossPaths& given) {
  // Absolute, so it compares equal to /proc/self/mountinfo's mount points.
  PowerLossPaths paths = given;
  for (std::string* p : {&paths.backing, &paths.trash, &paths.mountpoint}) *p = AbsolutePath(*p);
  paths_ = paths;
  if (::access(paths.binary.c_str(), X_OK) != 0) {
    return Status::InvalidArgument("the power-loss layer's binary '" + paths.binary +
                                   "' is missing (build the kvbench-powerloss target)");
  }
  int in[2], out[2];
  if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0) {
    return Status::IOError(std::string("pipe: ") + std::strerror(errno));
  }
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) return Status::IOError(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {
    // Unmount (SIGTERM is handled by the daemon) if kvbench dies; Ctrl-C is
    // kvbench's to handle, which then unmounts in order.
    ::prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (::getppid() != parent) ::_exit(1);
    ::signal(SIGINT, SIG_IGN);
    ::dup2(in[0], STDIN_FILENO);
    ::dup2(out[1], STDOUT_FILENO);
    const char* argv[] = {paths.binary.c_str(), "--backing", paths.backing.c_str(),    "--trash",
                          paths.trash.c_str(),  "--mount",   paths.mountpoint.c_str(), nullptr};
    ::execv(paths.binary.c_str(), const_cast<char* const*>(argv));
    ::_exit(127);
  }
  ::close(in[0]);
  ::close(out[1]);
  pid_ = pid;
  to_daemon_ = in[1];
  from_daemon_ = out[0];
  StartWatchdog();
  std::string answer;
  Status s = Command("", &answer, 10);
  if (s.ok() && answer != "ready") s = Status::IOError("power-loss layer: " + answer);
  if (!s.ok()) {
    (void)Unmount();
    return s;
  }
  return Status::OK();
}

namespace {

// write(2) that fails with EPIPE instead of raising SIGPIPE: a daemon that
// died, or that the watchdog killed, leaves its pipe without a reader, and
// the write must fail as "the daemon is gone", not end kvbench with signal
// 13. SIGPIPE from a write goes to the writing thread, so it is blocked here
// for the call and a pending one taken off before the mask is restored.
ssize_t WriteWithoutSigpipe(int fd, const char* data, size_t size) {
  sigset_t pipe_only, old;
  sigemptyset(&pipe_only);
  sigaddset(&pipe_only, SIGPIPE);
  ::pthread_sigmask(SIG_BLOCK, &pipe_only, &old);
  const ssize_t n = ::write(fd, data, size);
  const int saved = errno;
  if (n < 0 && saved == EPIPE) {
    const timespec none{};
    while (::sigtimedwait(&pipe_only, nullptr, &none) == SIGPIPE) {
    }
  }
  ::pthread_sigmask(SIG_SETMASK, &old, nullptr);
  errno = saved;
  return n;
}

}  // namespace

// Sends `line` (none when empty) and reads one answer line.
Status PowerLossMount::Command(const std::string& line, std::string* answer, double timeout_s) {
  if (pid_ < 0) return Status::InvalidArgument("power-loss layer: not mounted");
  if (!line.empty()) {
    const std::string buf = line + "\n";
    if (WriteWithoutSigpipe(to_daemon_, buf.data(), buf.size()) !=
        static_cast<ssize_t>(buf.size())) {
      return Status::IOError("power-loss layer: the daemon is gone (" + line + ")");
    }
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  for (;;) {
    if (const size_t nl = pending_.find('\n'); nl != std::string::npos) {
      *answer = pending_.substr(0, nl);
      pending_.erase(0, nl + 1);
      return Status::OK();
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      return Status::IOError("power-loss layer: no answer to '" + line + "' in " +
                             std::to_string(static_cast<int>(timeout_s)) + " s");
    }
    pollfd pfd{from_daemon_, POLLIN, 0};
    const int rc = ::poll(&pfd, 1, static_cast<int>(left.count()));
    if (rc < 0 && errno == EINTR) continue;
    if (rc <= 0) continue;
    char buf[512];
    const ssize_t n = ::read(from_daemon_, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return Status::IOError("power-loss layer: the daemon exited");
    pending_.append(buf, static_cast<size_t>(n));
  }
}

Status PowerLossMount::Checkpoint() {
  std::string answer;
  KVBENCH_RETURN_IF_ERROR(Command("checkpoint", &answer, 30));
  return answer == "ok" ? Status::OK() : Status::IOError("power-loss layer: " + answer);
}

Status PowerLossMount::Cut(const std::string& mode, uint64_t seed, std::string* summary) {
  std::string answer;
  Status s = Command("cut " + mode + " " + std::to_string(seed), &answer, 60);
  if (s.ok() && answer.rfind("ok ", 0) != 0) s = Status::IOError("power-loss layer: " + answer);
  if (s.ok()) *summary = answer.substr(3);
  Status ended = WaitForExit();
  if (s.ok()) return ended;
  // A daemon the watchdog killed (stopped, past its deadline) fails the cut
  // as "gone"; why it was killed is the reason worth reading.
  return ended.ok() ? s : Status::IOError(s.message() + "; " + ended.message());
}

Status PowerLossMount::Unmount() {
  if (pid_ < 0) return Status::OK();
  return WaitForExit();
}

Status PowerLossMount::WaitForExit() {
  // Stopped before the daemon is reaped, so it never signals a reused pid.
  StopWatchdog();
  // Closing stdin asks for the unmount (after a cut the daemon is already on its way).
  ::close(to_daemon_);
  to_daemon_ = -1;
  int status = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  pid_t done = 0;
  while ((done = ::waitpid(pid_, &status, WNOHANG)) == 0 &&
         std::chrono::steady_clock::now() < deadline) {
    ::usleep(2000);
  }
  const bool hung = done == 0;
  if (hung) {  // hung: SIGTERM ends its loop and unmounts; SIGKILL as the last resort
    ::kill(pid_, SIGTERM);
    ::usleep(200000);
    if (::waitpid(pid_, &status, WNOHANG) == 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, &status, 0);
    }
  }
  ::close(from_daemon_);
  from_daemon_ = -1;
  pid_ = -1;
  pending_.clear();
  if (IsPowerLossMount(paths_.mountpoint)) {
    ::umount2(paths_.mountpoint.c_str(), MNT_DETACH);
    return Status::IOError("power-loss layer: the mount on '" + paths_.mountpoint +
                           "' outlived its daemon; detached it");
  }
  if (!watchdog_fired_.empty()) {
    return Status::IOError("power-loss layer: killed its daemon: " + watchdog_fired_);
  }
  // A daemon that had to be killed (stopped, or stuck, after its answer)
  // leaves a trial nobody can vouch for: a failure, never a counted trial.
  if (hung) return Status::IOError("power-loss layer: its daemon did not exit within 10 s; killed it");
  return Status::OK();
}

}  // namespace kvbench::runner
