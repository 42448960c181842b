// A private redis-server child process: started on a free loopback port with
// snapshots and the append-only file off, stopped with SHUTDOWN NOSAVE, and
// never left behind.
//
// Start-up. The port is found by binding 127.0.0.1:0 and reading back what the
// kernel gave; the socket is closed before redis binds it, so another process
// may take the port in between. Such a collision is detected and retried with a
// new port: redis then exits with "Address already in use", and a server that
// answers on the port but whose INFO process_id is not our child's is never
// taken for ours. Start returns once the server answers INFO (a PING that also
// proves whose server it is).
//
// Access. The server listens on 127.0.0.1, where any local user can reach
// it, so it requires a password made for each start from the kernel's
// random source (32 bytes, hex): a `requirepass` line the server reads from
// its standard input (`redis-server -`), never an argument, which `ps` and
// /proc/PID/cmdline would show to every user. password() gives it to the
// adapter's connections, which send AUTH first.
//
// Files. The server's working directory (--dir) is the given directory and its
// log (--logfile, plus its stdout and stderr, which carry errors printed
// before the log is opened) is redis-server.log there. With `--save ""` and
// `--appendonly no` it writes nothing else.
//
// Cleanup. Stop() asks the server to exit and SIGKILLs it after a timeout; the
// destructor SIGKILLs a server still running. The child also gets
// PR_SET_PDEATHSIG(SIGKILL), so a server does not outlive a kvbench process
// that crashed or was killed (the signal follows the thread that called
// Start: call it from a thread that lives as long as the server should).
#pragma once

#include <sys/types.h>

#include <string>

#include "common/status.h"

namespace kvbench {

// The redis-server to run: a path is checked as given, a bare name is looked
// up in $PATH, as a shell would. InvalidArgument naming the binary when it
// cannot be run.
Status ResolveRedisServerBinary(const std::string& name, std::string* path);

struct RedisServerSettings {
  std::string binary = "/usr/bin/redis-server";  // a path, or a name looked up in $PATH
  std::string directory;                         // exists; working dir and log
  int start_timeout_ms = 10000;                  // how long Start waits for the server to answer
  int stop_timeout_ms = 5000;                    // how long Stop waits before SIGKILL
  // Off only where a test stands in for a user's own server (external mode,
  // which connects without a password).
  bool require_password = true;
};

// Not thread-safe: one thread at a time.
class RedisServerProcess {
 public:
  static constexpr char kLogFile[] = "redis-server.log";

  RedisServerProcess() = default;
  ~RedisServerProcess() { Kill(); }
  RedisServerProcess(const RedisServerProcess&) = delete;
  RedisServerProcess& operator=(const RedisServerProcess&) = delete;

  // Starts the server and waits until it answers. InvalidArgument when the
  // binary cannot be found or run ("option 'redis.server': ..."); IOError with
  // the tail of the server's log when it exits or does not answer in time
  // (the child is then killed). InvalidArgument when already running.
  Status Start(const RedisServerSettings& settings);

  // SHUTDOWN NOSAVE, then waits up to stop_timeout_ms for the process to exit
  // and SIGKILLs it after that. OK when it exited cleanly; IOError when it had
  // died earlier or had to be killed. The process is gone either way. OK when
  // not running.
  Status Stop();

  // SIGKILL and reap, if running. For destructors and failed starts.
  void Kill();

  bool running() const { return pid_ > 0; }
  pid_t pid() const { return pid_; }                       // -1 when not running
  int port() const { return port_; }                       // of the last start
  const std::string& version() const { return version_; }  // INFO redis_version
  // The running server's password (empty without require_password). Valid
  // until the next Start; never print or record it.
  const std::string& password() const { return password_; }
  std::string log_path() const;

  // The last `lines` lines of the server's log, for error messages.
  std::string LogTail(int lines = 12) const;

 private:
  // Forks and execs the server on `port`; pid_ is set on success.
  Status Launch(const std::string& binary, int port);
  // Waits until the child answers on port_; *port_taken says that it exited
  // because the port was taken (worth a retry).
  Status AwaitReady(bool* port_taken);
  // Reaps the child if it has exited; describes how ("exit code 1") in *how.
  bool Reaped(int wait_flags, std::string* how);

  RedisServerSettings settings_;
  pid_t pid_ = -1;
  int port_ = 0;
  std::string version_;
  std::string password_;
};

}  // namespace kvbench
