#include "tests/support/postgres_test_server.h"

#include <fcntl.h>
#include <libpq-fe.h>
#include <pwd.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

namespace kvbench::results {

namespace {

namespace fs = std::filesystem;

std::string NewestPostgresBin() {
  std::string best;
  int best_version = -1;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator("/usr/lib/postgresql", ec)) {
    const std::string bin = entry.path().string() + "/bin";
    const int version = std::atoi(entry.path().filename().c_str());
    if (version > best_version && fs::exists(bin + "/postgres") && fs::exists(bin + "/initdb")) {
      best = bin;
      best_version = version;
    }
  }
  return best;
}

// Forks, becomes `uid` when running as root, sends output to `log` and
// execs `argv`. The child's pid, or -1.
pid_t Spawn(const std::vector<std::string>& argv, const std::string& log, const passwd* user) {
  const pid_t pid = fork();
  if (pid != 0) return pid;
  if (user != nullptr && (setgid(user->pw_gid) != 0 || setuid(user->pw_uid) != 0)) _exit(126);
  const int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0600);
  if (fd >= 0) {
    dup2(fd, STDOUT_FILENO);
    dup2(fd, STDERR_FILENO);
    close(fd);
  }
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  execv(args[0], args.data());
  _exit(127);
}

std::string Tail(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  const std::string text = s.str();
  return text.size() > 1500 ? text.substr(text.size() - 1500) : text;
}

}  // namespace

bool PostgresTestServer::Start(bool* installed, std::string* why) {
  const std::string bin = NewestPostgresBin();
  *installed = !bin.empty();
  if (!*installed) {
    *why =
        "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/postgres; apt-get install "
        "postgresql)";
    return false;
  }
  const passwd* user = nullptr;
  if (geteuid() == 0) {
    user = getpwnam("postgres");
    if (user == nullptr) {
      *why = "running as root and there is no 'postgres' user to run the server as";
      return false;
    }
  }
  char pattern[] = "/tmp/kvbench-pg-XXXXXX";
  if (mkdtemp(pattern) == nullptr) {
    *why = "mkdtemp failed";
    return false;
  }
  dir_ = pattern;
  if (user != nullptr && chown(dir_.c_str(), user->pw_uid, user->pw_gid) != 0) {
    *why = "cannot give " + dir_ + " to the postgres user";
    return false;
  }
  const std::string data = dir_ + "/data", log = dir_ + "/server.log";
  const pid_t initdb = Spawn({bin + "/initdb", "-D", data, "-A", "trust", "-U", "kvbench",
                              "--no-sync", "-E", "UTF8", "--locale=C"},
                             dir_ + "/initdb.log", user);
  int status = 0;
  if (initdb < 0 || waitpid(initdb, &status, 0) != initdb || !WIFEXITED(status) ||
      WEXITSTATUS(status) != 0) {
    *why = "initdb failed:\n" + Tail(dir_ + "/initdb.log");
    return false;
  }
  // Only the Unix socket in dir_: no port to collide with, nothing on the network.
  pid_ = Spawn({bin + "/postgres", "-D", data, "-k", dir_, "-c", "listen_addresses=", "-c",
                "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"},
               log, user);
  const std::string ping = "host=" + dir_ + " dbname=postgres user=kvbench connect_timeout=2";
  for (int i = 0; i < 300; ++i) {
    if (PQping(ping.c_str()) == PQPING_OK) return true;
    if (waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      *why = "postgres exited at start:\n" + Tail(log);
      return false;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  *why = "postgres did not accept connections within 30 s:\n" + Tail(log);
  return false;
}

void PostgresTestServer::Stop() {
  if (pid_ > 0) {
    kill(pid_, SIGINT);
    int status = 0;
    for (int i = 0; i < 300 && waitpid(pid_, &status, WNOHANG) == 0; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    if (kill(pid_, 0) == 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, &status, 0);
    }
    pid_ = -1;
  }
  if (!dir_.empty()) {
    std::error_code ec;
    fs::remove_all(dir_, ec);
    dir_.clear();
  }
}

std::string PostgresTestServer::Url() const {
  return "postgresql:///postgres?host=" + dir_ + "&user=kvbench";
}

std::string PostgresTestServer::Url(const std::string& schema) const {
  return Url() + "&options=-csearch_path%3D" + schema;
}

}  // namespace kvbench::results
