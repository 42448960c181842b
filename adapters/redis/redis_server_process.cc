#include "adapters/redis/redis_server_process.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <thread>
#include <vector>

#include "adapters/engine_directory.h"
#include "adapters/redis/redis_connection.h"

namespace kvbench {
namespace {

using Clock = std::chrono::steady_clock;

constexpr int kPortAttempts = 5;  // collisions are rare; five in a row means something else
constexpr int kProbeTimeoutMs = 1000;
constexpr auto kPollInterval = std::chrono::milliseconds(5);

// 0 when `path` is a regular file we may execute, else an errno value.
int RunnableError(const std::string& path) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) return errno;
  if (!S_ISREG(st.st_mode)) return EACCES;
  if (access(path.c_str(), X_OK) != 0) return errno;
  return 0;
}

// A port no socket is bound to right now: the kernel's choice for port 0.
Status PickFreePort(int* port) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return Status::IOError(std::string("redis-server: socket: ") + std::strerror(errno));
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  socklen_t len = sizeof addr;
  Status s;
  if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    s = Status::IOError(std::string("redis-server: finding a free port: ") + std::strerror(errno));
  } else {
    *port = ntohs(addr.sin_port);
  }
  close(fd);
  return s;
}

// 32 bytes from the kernel's random source as 64 hex digits.
Status MakePassword(std::string* out) {
  unsigned char bytes[32];
  size_t got = 0;
  while (got < sizeof bytes) {
    const ssize_t n = getrandom(bytes + got, sizeof bytes - got, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      return Status::IOError(std::string("redis-server: making a password: getrandom: ") +
                             std::strerror(errno));
    }
    got += static_cast<size_t>(n);
  }
  static constexpr char kHex[] = "0123456789abcdef";
  out->clear();
  for (unsigned char b : bytes) {
    out->push_back(kHex[b >> 4]);
    out->push_back(kHex[b & 15]);
  }
  return Status::OK();
}

std::string DescribeWaitStatus(int status) {
  if (WIFEXITED(status)) return "exit code " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) {
    return "killed by signal " + std::to_string(WTERMSIG(status)) + " (" +
           strsignal(WTERMSIG(status)) + ")";
  }
  return "wait status " + std::to_string(status);
}

}  // namespace

// A path is checked as given; a bare name is looked up in $PATH, as a shell
// would, so the child can execv() without searching.
Status ResolveRedisServerBinary(const std::string& name, std::string* path) {
  const std::string what = "redis-server binary '" + name + "'";
  if (name.empty()) return Status::InvalidArgument("redis-server binary: empty name");
  if (name.find('/') != std::string::npos) {
    const int err = RunnableError(name);
    if (err != 0) return Status::InvalidArgument(what + ": cannot run it: " + std::strerror(err));
    *path = name;
    return Status::OK();
  }
  const char* env = std::getenv("PATH");
  const std::string dirs = env != nullptr ? env : "/usr/local/bin:/usr/bin:/bin";
  size_t pos = 0;
  while (pos <= dirs.size()) {
    size_t end = dirs.find(':', pos);
    if (end == std::string::npos) end = dirs.size();
    const std::string candidate = JoinPath(end > pos ? dirs.substr(pos, end - pos) : ".", name);
    if (RunnableError(candidate) == 0) {
      *path = candidate;
      return Status::OK();
    }
    pos = end + 1;
  }
  return Status::InvalidArgument(what + ": not found in $PATH (" + dirs + ")");
}

std::string RedisServerProcess::log_path() const { return JoinPath(settings_.directory, kLogFile); }

Status RedisServerProcess::Start(const RedisServerSettings& settings) {
  if (running()) return Status::InvalidArgument("redis-server: already running");
  settings_ = settings;
  version_.clear();
  password_.clear();
  if (settings.require_password) KVBENCH_RETURN_IF_ERROR(MakePassword(&password_));
  std::string binary;
  KVBENCH_RETURN_IF_ERROR(ResolveRedisServerBinary(settings.binary, &binary));
  Status s;
  for (int attempt = 0; attempt < kPortAttempts; ++attempt) {
    int port = 0;
    KVBENCH_RETURN_IF_ERROR(PickFreePort(&port));
    KVBENCH_RETURN_IF_ERROR(Launch(binary, port));
    bool port_taken = false;
    s = AwaitReady(&port_taken);
    if (s.ok() || !port_taken) return s;
  }
  return s;
}

Status RedisServerProcess::Launch(const std::string& binary, int port) {
  const std::string log = log_path();
  // One server option per line.
  // clang-format off
  std::vector<std::string> args = {
      binary,
      "-",  // more configuration on stdin: the password, out of sight of ps
      "--port", std::to_string(port),
      "--bind", "127.0.0.1",
      "--protected-mode", "yes",
      "--save", "",  // no RDB snapshots
      "--appendonly", "no",
      "--dir", settings_.directory,
      "--logfile", log,
      "--daemonize", "no",
  };
  // clang-format on
  std::vector<char*> argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);

  const int log_fd = open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (log_fd < 0) {
    return Status::IOError("redis-server: open '" + log + "': " + std::strerror(errno));
  }
  // The configuration on stdin: a few bytes, far below a pipe's buffer, so
  // they are written whole and the writing end closed before the fork; the
  // server reads them and then end of file (and no write can meet a reader
  // that died, which would raise SIGPIPE here).
  const std::string config = password_.empty() ? "" : "requirepass " + password_ + "\n";
  int config_pipe[2] = {-1, -1};
  int exec_pipe[2];  // the child writes errno here when execv fails; closes on success
  bool written = pipe2(config_pipe, O_CLOEXEC) == 0;
  for (size_t done = 0; written && done < config.size();) {
    const ssize_t n = write(config_pipe[1], config.data() + done, config.size() - done);
    if (n < 0 && errno == EINTR) continue;
    written = n > 0;
    if (written) done += static_cast<size_t>(n);
  }
  if (config_pipe[1] >= 0) close(config_pipe[1]);
  if (!written || pipe2(exec_pipe, O_CLOEXEC) != 0) {
    const int err = errno;
    close(log_fd);
    if (config_pipe[0] >= 0) close(config_pipe[0]);
    return Status::IOError(std::string("redis-server: configuration pipe: ") + std::strerror(err));
  }
  const int config_fd = config_pipe[0];
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid == 0) {
    // The child of a possibly multi-threaded process: async-signal-safe calls
    // only until execv.
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);  // the parent died before prctl
    dup2(config_fd, STDIN_FILENO);
    dup2(log_fd, STDOUT_FILENO);
    dup2(log_fd, STDERR_FILENO);
    close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);  // no inherited descriptor outlives exec
    execv(argv[0], argv.data());
    const int err = errno;
    if (write(exec_pipe[1], &err, sizeof err) < 0) _exit(126);
    _exit(127);
  }
  const int fork_errno = errno;
  close(log_fd);
  close(config_fd);
  close(exec_pipe[1]);
  if (pid < 0) {
    close(exec_pipe[0]);
    return Status::IOError(std::string("redis-server: fork: ") + std::strerror(fork_errno));
  }
  int exec_errno = 0;
  ssize_t n;
  do {
    n = read(exec_pipe[0], &exec_errno, sizeof exec_errno);
  } while (n < 0 && errno == EINTR);
  close(exec_pipe[0]);
  pid_ = pid;
  port_ = port;
  if (n == static_cast<ssize_t>(sizeof exec_errno)) {
    std::string how;
    Reaped(0, &how);
    return Status::InvalidArgument("redis-server binary '" + binary +
                                   "': cannot run it: " + std::strerror(exec_errno));
  }
  return Status::OK();
}

Status RedisServerProcess::AwaitReady(bool* port_taken) {
  const auto deadline = Clock::now() + std::chrono::milliseconds(settings_.start_timeout_ms);
  const std::string our_pid = std::to_string(pid_);
  const std::string who = "redis-server (pid " + our_pid + ", port " + std::to_string(port_) + ")";
  for (;;) {
    std::string how;
    if (Reaped(WNOHANG, &how)) {
      const std::string tail = LogTail();
      *port_taken = tail.find("Address already in use") != std::string::npos;
      return Status::IOError(who + " exited during start-up (" + how + "); last lines of " +
                             log_path() + ":\n" + tail);
    }
    RedisConnection probe;
    // A server on this port that refuses our password is not ours either.
    if (probe.Connect("127.0.0.1", port_, kProbeTimeoutMs, password_).ok()) {
      RedisReply reply;
      if (probe.Call({"INFO", "server"}, "info", &reply).ok() &&
          reply->type == REDIS_REPLY_STRING) {
        const std::string_view info(reply->str, reply->len);
        // Another process's server on this port is not ours: our child will
        // fail to bind and exit, and the port is retried.
        if (InfoField(info, "process_id") == our_pid) {
          version_ = InfoField(info, "redis_version");
          return Status::OK();
        }
      }
    }
    if (Clock::now() >= deadline) {
      Kill();
      return Status::IOError(who + " did not answer within " +
                             std::to_string(settings_.start_timeout_ms) + " ms (killed); last " +
                             "lines of " + log_path() + ":\n" + LogTail());
    }
    std::this_thread::sleep_for(kPollInterval);
  }
}

Status RedisServerProcess::Stop() {
  if (!running()) return Status::OK();
  const std::string who =
      "redis-server (pid " + std::to_string(pid_) + ", port " + std::to_string(port_) + ")";
  std::string how;
  if (Reaped(WNOHANG, &how)) {
    return Status::IOError(who + " had died before it was stopped (" + how + "); last lines of " +
                           log_path() + ":\n" + LogTail());
  }
  RedisConnection admin;
  const bool reachable =
      admin.Connect("127.0.0.1", port_, settings_.stop_timeout_ms, password_).ok();
  RedisReply reply;
  // Success closes the connection, so no reply is the normal answer. A reply
  // means the server refused; SIGTERM also exits without saving under
  // --save "". Unreachable, it is probably dying already.
  if (!reachable || admin.Call({"SHUTDOWN", "NOSAVE"}, "shutdown", &reply).ok()) {
    kill(pid_, SIGTERM);
  }
  const auto deadline = Clock::now() + std::chrono::milliseconds(settings_.stop_timeout_ms);
  while (Clock::now() < deadline) {
    if (Reaped(WNOHANG, &how)) {
      if (how == "exit code 0") return Status::OK();
      return Status::IOError(who +
                             (reachable ? " ended with " + how + " on shutdown"
                                        : " had died before it was stopped (" + how + ")") +
                             "; last lines of " + log_path() + ":\n" + LogTail());
    }
    std::this_thread::sleep_for(kPollInterval);
  }
  Kill();
  return Status::IOError(who + " did not exit within " + std::to_string(settings_.stop_timeout_ms) +
                         " ms of SHUTDOWN NOSAVE and was killed");
}

void RedisServerProcess::Kill() {
  if (!running()) return;
  kill(pid_, SIGKILL);
  std::string how;
  Reaped(0, &how);
}

bool RedisServerProcess::Reaped(int wait_flags, std::string* how) {
  int status = 0;
  pid_t r;
  do {
    r = waitpid(pid_, &status, wait_flags);
  } while (r < 0 && errno == EINTR);
  if (r == 0) return false;
  if (r < 0) {
    *how = std::string("lost: waitpid: ") + std::strerror(errno);
  } else {
    *how = DescribeWaitStatus(status);
  }
  pid_ = -1;
  return true;
}

std::string RedisServerProcess::LogTail(int lines) const {
  std::ifstream in(log_path(), std::ios::binary);
  if (!in) return "(no log at " + log_path() + ")";
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  const std::streamoff start = size > 8192 ? size - 8192 : 0;
  in.seekg(start);
  std::string text(static_cast<size_t>(size - start), '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  while (!text.empty() && text.back() == '\n') text.pop_back();
  size_t cut = text.size();
  for (int i = 0; i < lines && cut != std::string::npos && cut > 0; ++i) {
    cut = text.rfind('\n', cut - 1);
  }
  return cut == std::string::npos ? text : text.substr(cut + 1);
}

}  // namespace kvbench
