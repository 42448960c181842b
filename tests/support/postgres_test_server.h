// A private PostgreSQL server for tests: initdb into a fresh temporary
// directory, `postgres` listening only on a Unix socket in that directory,
// stopped by its process id. PostgreSQL refuses to run as root, so when the
// tests run as root the server runs as the `postgres` system user (created
// by Debian's postgresql package), which owns the directory.
#pragma once

#include <sys/types.h>

#include <string>

namespace kvbench::results {

class PostgresTestServer {
 public:
  PostgresTestServer() = default;
  ~PostgresTestServer() { Stop(); }
  PostgresTestServer(const PostgresTestServer&) = delete;
  PostgresTestServer& operator=(const PostgresTestServer&) = delete;

  // Finds the newest /usr/lib/postgresql/*/bin, runs initdb and starts the
  // server, waiting until it accepts connections. False with *why set when
  // PostgreSQL is not installed (*installed = false) or did not start.
  bool Start(bool* installed, std::string* why);
  // SIGINT (fast shutdown) to the server's pid, wait for it, remove the directory.
  void Stop();

  // A store URL for database "postgres" on this server whose tables go into
  // `schema` (the schema must exist: CreateSchemaSql()).
  std::string Url(const std::string& schema) const;
  // The URL without a schema (the public one).
  std::string Url() const;
  pid_t pid() const { return pid_; }

 private:
  std::string dir_;
  pid_t pid_ = -1;
};

}  // namespace kvbench::results
