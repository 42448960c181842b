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

ChildOutcome RunInChildProcess(const std::function<int(int fd)>& body, double timeout_s,
                               const std::function<void(const std::string& line)>& on_line) {
  using Clock = std::chrono::steady_clock;
  ChildOutcome outcome;
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    outcome.failure = std::string("pipe: ") + std::strerror(errno);
    return outcome;
  }
  std::fflush(nullptr);  // do not let the child flush the parent's buffers again
  const auto start = Clock::now();
  const pid_t pid = ::fork();
  if (pid < 0) {
    outcome.failure = std::string("fork: ") + std::strerror(errno);
    ::close(fds[0]);
    ::close(fds[1]);
    return outcome;
  }
  if (pid == 0) {
    // The terminal's Ctrl-C is the parent's to handle: it kills this child.
    ::signal(SIGINT, SIG_IGN);
    ::signal(SIGTERM, SIG_DFL);
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    ::close(fds[0]);
    const int rc = body(fds[1]);
    ::close(fds[1]);
    std::fflush(nullptr);
    ::_exit(rc);
  }
  ::close(fds[1]);

  std::string pending;
  bool timed_out = false;
  char buf[65536];
  for (;;) {
    if (InterruptCount() > 0) {
      outcome.interrupted = true;
      ::kill(pid, SIGKILL);
      break;
    }
    const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    const double left = timeout_s - elapsed;
    if (left <= 0) {
      timed_out = true;
      ::kill(pid, SIGKILL);
      break;
    }
    pollfd pfd{fds[0], POLLIN, 0};
    const int wait_ms = static_cast<int>(left * 1000 > 100 ? 100 : left * 1000 + 1);
    const int rc = ::poll(&pfd, 1, wait_ms);
    if (rc < 0 && errno != EINTR) break;
    if (rc <= 0) continue;
    const ssize_t n = ::read(fds[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // EOF: the child closed the pipe or died
    pending.append(buf, static_cast<size_t>(n));
    size_t nl;
    while ((nl = pending.find('\n')) != std::string::npos) {
      on_line(pending.substr(0, nl));
      pending.erase(0, nl + 1);
    }
  }
  ::close(fds[0]);

  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  outcome.wall_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  if (outcome.interrupted) {
    outcome.failure = "interrupted";
  } else if (timed_out) {
    outcome.failure = "timed out after " + std::to_string(static_cast<long>(timeout_s)) + " s";
  } else if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    outcome.failure = "killed by signal " + std::to_string(sig) + " (" + strsignal(sig) + ")";
  } else if (WIFEXITED(status) && WEXITSTATUS(status) != 0) {
    outcome.failure = "exit code " + std::to_string(WEXITSTATUS(status));
  } else {
    outcome.ok = true;
  }
  return outcome;
}

}  // namespace kvbench::runner
