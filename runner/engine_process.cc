#include "runner/engine_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "runner/interrupt.h"

namespace kvbench::runner {

bool WriteLine(int fd, const std::string& line) {
  std::string buf = line;
  buf.push_back('\n');
  size_t done = 0;
  while (done < buf.size()) {
    const ssize_t n = ::write(fd, buf.data() + done, buf.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    done += static_cast<size_t>(n);
  }
  return true;
}

namespace {

// What the child wrote on stderr, passed on to ours at once; the last few
// lines kept to quote when the child dies.
struct StderrTail {
  static constexpr size_t kKeep = 4096;
  static constexpr int kLines = 5;
  bool open = true;
  std::string text;

  // Reads what is there without blocking (the fd is non-blocking).
  void Drain(int fd) {
    char buf[8192];
    for (;;) {
      const ssize_t n = ::read(fd, buf, sizeof buf);
      if (n > 0) {
        (void)!::write(STDERR_FILENO, buf, static_cast<size_t>(n));
        text.append(buf, static_cast<size_t>(n));
        if (text.size() > 2 * kKeep) text.erase(0, text.size() - kKeep);
        continue;
      }
      if (n == 0) open = false;
      if (n < 0 && errno == EINTR) continue;
      return;
    }
  }

  // "; its last lines on stderr: a | b" or "" when it wrote nothing. Progress
  // redraws (carriage returns, escapes) are left out.
  std::string Quoted() const {
    std::vector<std::string> lines;
    std::string line;
    for (char c : text) {
      if (c == '\n' || c == '\r') {
        if (!line.empty() && line.find('\033') == std::string::npos) lines.push_back(line);
        line.clear();
      } else {
        line += c;
      }
    }
    if (!line.empty() && line.find('\033') == std::string::npos) lines.push_back(line);
    if (lines.empty()) return "";
    std::string out = "; its last lines on stderr: ";
    const size_t first = lines.size() > kLines ? lines.size() - kLines : 0;
    for (size_t i = first; i < lines.size(); ++i) out += (i > first ? " | " : "") + lines[i];
    return out;
  }
};

// How the parent's watch over its child ended.
enum class WatchEnd {
  kPipeClosed,  // the child closed its pipe or died (or the pipe could not be polled)
  kTimedOut,
  kInterrupted,
};

// Passes the child's lines on `fd` to on_line, and its stderr on `err_fd` on
// to ours, until the child closes its pipe; kills it when the time limit
// (from `start`) passes or the user interrupts.
WatchEnd WatchChild(pid_t pid, int fd, int err_fd, std::chrono::steady_clock::time_point start,
                    double timeout_s, const std::function<void(const std::string& line)>& on_line,
                    StderrTail* tail) {
  using Clock = std::chrono::steady_clock;
  std::string pending;
  char buf[65536];
  for (;;) {
    if (InterruptCount() > 0) {
      ::kill(pid, SIGKILL);
      return WatchEnd::kInterrupted;
    }
    const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    const double left = timeout_s - elapsed;
    if (left <= 0) {
      ::kill(pid, SIGKILL);
      return WatchEnd::kTimedOut;
    }
    pollfd pfds[2] = {{fd, POLLIN, 0}, {err_fd, POLLIN, 0}};
    const int wait_ms = static_cast<int>(left * 1000 > 100 ? 100 : left * 1000 + 1);
    // The stderr pipe is polled only while open: a server the child started
    // may hold it after the child is gone, so its end never ends the loop.
    const int rc = ::poll(pfds, tail->open ? 2 : 1, wait_ms);
    if (rc < 0 && errno != EINTR) return WatchEnd::kPipeClosed;
    if (rc <= 0) continue;
    if (tail->open && (pfds[1].revents & (POLLIN | POLLHUP)) != 0) tail->Drain(err_fd);
    if ((pfds[0].revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return WatchEnd::kPipeClosed;  // EOF: the child closed the pipe or died
    pending.append(buf, static_cast<size_t>(n));
    size_t nl;
    while ((nl = pending.find('\n')) != std::string::npos) {
      on_line(pending.substr(0, nl));
      pending.erase(0, nl + 1);
    }
  }
}

}  // namespace

ChildOutcome RunInChildProcess(const std::function<int(int fd)>& body, double timeout_s,
                               const std::function<void(const std::string& line)>& on_line) {
  using Clock = std::chrono::steady_clock;
  ChildOutcome outcome;
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    outcome.failure = std::string("pipe: ") + std::strerror(errno);
    return outcome;
  }
  // The child's stderr comes through the parent, which passes it on as it
  // arrives and keeps its tail: a library that aborts says why there (an
  // assertion's message), and the failure then quotes it.
  int err_fds[2];
  if (::pipe2(err_fds, O_CLOEXEC) != 0) {
    outcome.failure = std::string("pipe: ") + std::strerror(errno);
    ::close(fds[0]);
    ::close(fds[1]);
    return outcome;
  }
  std::fflush(nullptr);  // do not let the child flush the parent's buffers again
  const auto start = Clock::now();
  const pid_t pid = ::fork();
  if (pid < 0) {
    outcome.failure = std::string("fork: ") + std::strerror(errno);
    for (int fd : {fds[0], fds[1], err_fds[0], err_fds[1]}) ::close(fd);
    return outcome;
  }
  if (pid == 0) {
    // The terminal's Ctrl-C is the parent's to handle: it kills this child.
    ::signal(SIGINT, SIG_IGN);
    ::signal(SIGTERM, SIG_DFL);
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    ::close(fds[0]);
    ::close(err_fds[0]);
    ::dup2(err_fds[1], STDERR_FILENO);  // dup2 clears close-on-exec on the copy
    ::close(err_fds[1]);
    const int rc = body(fds[1]);
    ::close(fds[1]);
    std::fflush(nullptr);
    ::_exit(rc);
  }
  ::close(fds[1]);
  ::close(err_fds[1]);
  ::fcntl(err_fds[0], F_SETFL, ::fcntl(err_fds[0], F_GETFL) | O_NONBLOCK);
  StderrTail tail;

  const WatchEnd end = WatchChild(pid, fds[0], err_fds[0], start, timeout_s, on_line, &tail);
  outcome.interrupted = end == WatchEnd::kInterrupted;
  const bool timed_out = end == WatchEnd::kTimedOut;
  ::close(fds[0]);

  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (tail.open) tail.Drain(err_fds[0]);
  ::close(err_fds[0]);
  outcome.wall_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  if (outcome.interrupted) {
    outcome.failure = "interrupted";
  } else if (timed_out) {
    outcome.failure = "timed out after " + std::to_string(static_cast<long>(timeout_s)) + " s";
  } else if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    outcome.failure = "killed by signal " + std::to_string(sig) + " (" + strsignal(sig) + ")" +
                      tail.Quoted();
  } else if (WIFEXITED(status) && WEXITSTATUS(status) != 0) {
    outcome.failure = "exit code " + std::to_string(WEXITSTATUS(status)) + tail.Quoted();
  } else {
    outcome.ok = true;
  }
  return outcome;
}

}  // namespace kvbench::runner
