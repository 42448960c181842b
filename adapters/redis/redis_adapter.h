// `redis`: a redis server reached with hiredis, one connection per Session.
// The class is declared here (not only in the .cc) so that its own tests can
// see which server it started; everything else uses it through the registry.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

#include "adapters/adapter.h"
#include "adapters/redis/redis_server_process.h"
#include "adapters/support/option_parsing.h"

namespace kvbench {

// The redis adapter's options, parsed.
struct RedisSettings {
  // Filled only by the adapter's parser from resolved options: the defaults
  // live once, in the OptionSpecs (`kvbench engines -v` shows them).
  // Behaviour.
  std::string host;           // empty: start a private server; set: connect to this one
  int port = 0;               // with `host`
  bool flush = false;         // with `host`: FLUSHDB on Open
  std::string server_binary;  // without `host`
  // Performance and robustness.
  int timeout_ms = 0;        // connect and per-reply bound; 0: none
  int start_timeout_ms = 0;  // a started server must answer within this
};

std::vector<OptionSpec> RedisOptionSpecs();
// InvalidArgument naming the option when a value does not parse or options
// contradict each other.
Status ParseRedisSettings(const EngineOptions& options, RedisSettings* settings);

class RedisAdapter final : public Adapter {
 public:
  RedisAdapter() = default;
  // A server this adapter started and Close did not stop is killed here.
  ~RedisAdapter() override = default;

  std::string LibraryVersion() const override;
  std::vector<OptionSpec> OptionSpecs() const override { return RedisOptionSpecs(); }
  Status CheckOptions(const EngineOptions& options) const override {
    return CheckSettings(options, ParseRedisSettings);
  }
  Capabilities capabilities() const override;
  DurabilityDeclaration DeclareDurability(const EngineOptions&) const override {
    return {.basis = "the started server persists nothing (snapshots and AOF off)"};
  }

  Status Open(const OpenRequest& request) override;
  Status Close() override;
  Status NewSession(std::unique_ptr<Session>* session) override;
  // OK: the server is configured to persist nothing, so there is nothing to force.
  Status Sync() override { return Status::OK(); }
  // The files in the engine's directory: the started server's log only
  // (nothing else is written with snapshots off); none for an external server.
  Status ListFiles(std::vector<std::string>* paths) const override;

  // For tests and diagnostics: the started server's pid (-1 when none is
  // running, e.g. with redis.host) and the port sessions connect to.
  pid_t server_pid() const { return server_.pid(); }
  int port() const { return port_; }

 private:
  RedisSettings settings_;
  RedisServerProcess server_;  // its destructor kills a server still running
  std::string directory_;
  std::string host_;
  int port_ = 0;
  std::string password_;        // the started server's (RedisServerProcess::password)
  std::string server_version_;  // INFO redis_version, kept after Close for the results
  bool open_ = false;
};

}  // namespace kvbench
