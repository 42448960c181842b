// Runs one engine's part of a workload in a child process, so that a crash, a
// hang or a leak in one adapter is reported and the other engines' results are
// kept.
//
// The child writes one message per line to a pipe (JSON text from the
// runner); the parent hands each complete line to `on_line` as it arrives, so
// everything the child finished before dying is kept. The child is killed
// (SIGKILL) when it runs past the time limit.
#pragma once

#include <functional>
#include <string>

namespace kvbench::runner {

struct ChildOutcome {
  bool ok = false;         // exited with status 0
  bool interrupted = false;  // killed because the run was interrupted (interrupt.h)
  std::string failure;     // "killed by signal 6 (Aborted)", "timed out after 60 s", "exit code 3"
  double wall_seconds = 0;
};

// `body` runs in the child with the write end of the pipe; its return value is
// the child's exit code. The parent must not have other threads running. The
// child dies with the parent (PR_SET_PDEATHSIG), and an interrupt of the run
// (interrupt.h) kills it; servers it started die with it the same way.
ChildOutcome RunInChildProcess(const std::function<int(int fd)>& body, double timeout_s,
                               const std::function<void(const std::string& line)>& on_line);

// Writes `line` plus '\n' to `fd` in full (retrying short writes). Returns
// false when the pipe is gone.
bool WriteLine(int fd, const std::string& line);

}  // namespace kvbench::runner
