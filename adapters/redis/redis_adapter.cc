// `redis`: a redis server, reached over loopback TCP with hiredis, one
// connection per Session (so sessions on several threads run in parallel,
// each with its own socket; the server serialises commands itself).
//
// Operations. Put = SET, Get = GET, Delete = DEL (NotFound when DEL removed
// nothing), all binary-safe. Redis keeps keys unordered, so Scan returns
// NotSupported (the runner skips scan phases on unordered engines).
//
// Batches. BeginBatch queues MULTI and the batch's SETs and DELs in the client
// buffer without waiting for replies (pipelining: one round trip per batch,
// not per write); CommitBatch queues EXEC and then reads every reply, so the
// batch is applied atomically. AbortBatch sends DISCARD instead: nothing of
// the batch is applied. Deletes inside a batch return OK (their count is only
// known at EXEC). A Get inside a batch cannot go through the same connection
// (MULTI would queue it), so it uses a second connection opened on first
// need: it sees committed data, not the batch's own writes (the contract
// leaves this engine-defined).
//
// Durability. The started server persists nothing (see below): durable is
// false, Sync() is OK with nothing to do, a reopen starts empty. ListFiles
// lists the server's log, the only file in the engine's directory.
//
// Errors. A refused connection, a server that died mid-run or a reply later
// than redis.timeout_ms become IOError naming host:port and hiredis's reason;
// the session is unusable afterwards (the data died with the server anyway).
// Error replies become Internal with the server's message. No call crashes on
// a missing reply.
//
// Two modes, chosen by options:
//  - Default (redis.host empty): Open starts a private redis-server
//    (redis.server, Debian's /usr/bin/redis-server) on a free 127.0.0.1 port
//    that requires a password made for this start (given to the server on
//    its stdin, never on its command line; every connection sends AUTH), so
//    no other local user can read, write or stop it,
//    with `--save "" --appendonly no` (no RDB snapshots, no AOF),
//    `--bind 127.0.0.1 --protected-mode yes`, `--daemonize no`, its working
//    directory and log (redis-server.log) in the engine's directory, and
//    waits up to redis.start_timeout_ms for it to answer; a failed start
//    reports the tail of the log. Close sends SHUTDOWN NOSAVE and SIGKILLs
//    the server if it has not exited 5 s later; the adapter's destructor
//    kills a server Close did not stop, and the server dies with the kvbench
//    process (PR_SET_PDEATHSIG), so no server is ever left behind.
//  - External (redis.host, redis.port): Open connects to that server and
//    starts nothing; Close leaves it running. Its data is kept unless
//    redis.flush=true, which runs FLUSHDB on Open (default false: kvbench does
//    not erase a database it does not own unless told). Its persistence
//    settings are the server's own; the capabilities still say not durable.
//
// Seed 002 (WhiteDB's YCSB comparison) ran redis 2.6 with default settings
// except snapshots turned off, as an in-memory database driven by the YCSB
// (Java) client over the network. The default mode reproduces that: default
// redis settings, no snapshot, no AOF, a client on loopback. Here redis is
// Debian's 7.0 and the client is hiredis, not YCSB's Jedis.
#include "adapters/redis/redis_adapter.h"

#include <climits>
#include <filesystem>

#include "adapters/engine_directory.h"
#include "adapters/redis/redis_connection.h"
#include "adapters/support/batch_state.h"
#include "adapters/registry.h"

namespace kvbench {
namespace {

class RedisSession final : public Session {
 public:
  RedisSession(std::string host, int port, int timeout_ms, std::string password)
      : host_(std::move(host)),
        port_(port),
        timeout_ms_(timeout_ms),
        password_(std::move(password)) {}
  // Closing the connection ends an open MULTI: the server discards it.
  ~RedisSession() override = default;

  Status Connect() { return connection_.Connect(host_, port_, timeout_ms_, password_); }

  Status Put(Slice key, Slice value) override {
    if (batch_.open()) return Queued(connection_.Queue({"SET", key, value}, "put"));
    RedisReply reply;
    KVBENCH_RETURN_IF_ERROR(connection_.Call({"SET", key, value}, "put", &reply));
    if (reply->type == REDIS_REPLY_STATUS) return Status::OK();
    return connection_.UnexpectedReply(*reply, "put");
  }

  Status Get(Slice key, std::string* value) override {
    RedisConnection* connection = &connection_;
    if (batch_.open()) {
      if (!batch_reader_.connected()) {
        KVBENCH_RETURN_IF_ERROR(batch_reader_.Connect(host_, port_, timeout_ms_, password_));
      }
      connection = &batch_reader_;
    }
    RedisReply reply;
    KVBENCH_RETURN_IF_ERROR(connection->Call({"GET", key}, "get", &reply));
    if (reply->type == REDIS_REPLY_STRING) {
      value->assign(reply->str, reply->len);
      return Status::OK();
    }
    if (reply->type == REDIS_REPLY_NIL) return Status::NotFound();
    return connection->UnexpectedReply(*reply, "get");
  }

  Status Delete(Slice key) override {
    if (batch_.open()) return Queued(connection_.Queue({"DEL", key}, "delete"));
    RedisReply reply;
    KVBENCH_RETURN_IF_ERROR(connection_.Call({"DEL", key}, "delete", &reply));
    if (reply->type != REDIS_REPLY_INTEGER) return connection_.UnexpectedReply(*reply, "delete");
    return reply->integer == 0 ? Status::NotFound() : Status::OK();
  }

  Status BeginBatch() override {
    return batch_.Begin([&] {
      KVBENCH_RETURN_IF_ERROR(connection_.Queue({"MULTI"}, "begin batch"));
      queued_replies_ = 1;  // MULTI's +OK
      return Status::OK();
    });
  }

  Status CommitBatch() override {
    return batch_.Commit([&] { return EndBatch("EXEC", "commit batch"); });
  }

  Status AbortBatch() override {
    return batch_.Abort([&] { return EndBatch("DISCARD", "abort batch"); });
  }

 private:
  Status Queued(Status queued) {
    if (queued.ok()) ++queued_replies_;
    return queued;
  }

  // Sends EXEC or DISCARD and reads the replies of everything queued since
  // MULTI, then the final one. The first error reply wins.
  Status EndBatch(Slice command, const char* what) {
    const size_t queued = queued_replies_;
    queued_replies_ = 0;
    KVBENCH_RETURN_IF_ERROR(connection_.Queue({command}, what));
    RedisReply reply;
    Status first_error;
    for (size_t i = 0; i < queued; ++i) {  // +OK for MULTI, +QUEUED for each write
      KVBENCH_RETURN_IF_ERROR(connection_.Read(what, &reply));
      if (first_error.ok()) first_error = connection_.ReplyError(*reply, what);
    }
    KVBENCH_RETURN_IF_ERROR(connection_.Read(what, &reply));
    KVBENCH_RETURN_IF_ERROR(first_error);
    KVBENCH_RETURN_IF_ERROR(connection_.ReplyError(*reply, what));
    if (command == "DISCARD") return Status::OK();
    if (reply->type != REDIS_REPLY_ARRAY) return connection_.UnexpectedReply(*reply, what);
    for (size_t i = 0; i < reply->elements; ++i) {
      if (reply->element[i] != nullptr) {
        KVBENCH_RETURN_IF_ERROR(connection_.ReplyError(*reply->element[i], what));
      }
    }
    return Status::OK();
  }

  const std::string host_;
  const int port_;
  const int timeout_ms_;
  const std::string password_;  // empty for an external server
  RedisConnection connection_;
  RedisConnection batch_reader_;  // for Gets inside a batch; connected on first need
  BatchState batch_;
  size_t queued_replies_ = 0;  // replies owed by the server since MULTI
};

Status GetMilliseconds(const EngineOptions& options, const char* name, int64_t min, int* out) {
  int64_t value = 0;
  KVBENCH_RETURN_IF_ERROR(options.GetInt64(name, &value));
  if (value < min || value > INT_MAX) {
    return Status::InvalidArgument("option '" + std::string(name) + "': must be at least " +
                                   std::to_string(min) + " (milliseconds)");
  }
  *out = static_cast<int>(value);
  return Status::OK();
}

}  // namespace

std::vector<OptionSpec> RedisOptionSpecs() {
  return {
      {"redis.host", "",
       "empty: start a private redis-server on a free loopback port with snapshots and AOF off "
       "(seed 002's setting); set: connect to the server at this address instead"},
      {"redis.port", "", "port of the redis.host server (6379 when empty); needs redis.host"},
      {"redis.flush", "false",
       "with redis.host: FLUSHDB on open, erasing that server's current database so runs start "
       "empty (off by default: kvbench does not erase data it does not own); a started server "
       "is always empty"},
      {"redis.server", "/usr/bin/redis-server",
       "redis-server binary to start when redis.host is empty (Debian's path; a bare name is "
       "looked up in $PATH)"},
      {"redis.timeout_ms", "30000",
       "bound on connecting and on waiting for each reply, so a hung server fails the run "
       "instead of hanging it; 0: wait forever"},
      {"redis.start_timeout_ms", "10000", "how long open waits for a started server to answer"},
  };
}

Status ParseRedisSettings(const EngineOptions& options, RedisSettings* settings) {
  RedisSettings parsed;
  parsed.host = options.GetString("redis.host");
  if (!options.GetString("redis.port").empty()) {
    if (parsed.host.empty()) {
      return Status::InvalidArgument(
          "option 'redis.port': needs 'redis.host' (without a host, kvbench starts its own "
          "server on a free port)");
    }
    int64_t port = 0;
    KVBENCH_RETURN_IF_ERROR(options.GetInt64("redis.port", &port));
    if (port < 1 || port > 65535) {
      return Status::InvalidArgument("option 'redis.port': " + std::to_string(port) +
                                     " is not a TCP port (1-65535)");
    }
    parsed.port = static_cast<int>(port);
  }
  KVBENCH_RETURN_IF_ERROR(options.GetBool("redis.flush", &parsed.flush));
  parsed.server_binary = options.GetString("redis.server");
  if (parsed.host.empty() && parsed.server_binary.empty()) {
    return Status::InvalidArgument(
        "option 'redis.server': empty (and no redis.host to connect to)");
  }
  if (parsed.host.empty()) {
    std::string path;
    KVBENCH_RETURN_IF_ERROR(ResolveRedisServerBinary(parsed.server_binary, &path)
                                .WithContext("option 'redis.server'"));
  }
  KVBENCH_RETURN_IF_ERROR(GetMilliseconds(options, "redis.timeout_ms", 0, &parsed.timeout_ms));
  KVBENCH_RETURN_IF_ERROR(
      GetMilliseconds(options, "redis.start_timeout_ms", 1, &parsed.start_timeout_ms));
  *settings = std::move(parsed);
  return Status::OK();
}

std::string RedisAdapter::LibraryVersion() const {
  std::string version = "hiredis " + std::to_string(HIREDIS_MAJOR) + "." +
                        std::to_string(HIREDIS_MINOR) + "." + std::to_string(HIREDIS_PATCH);
  if (!server_version_.empty()) version += ", redis-server " + server_version_;
  return version;
}

Capabilities RedisAdapter::capabilities() const {
  Capabilities c;
  c.stores_data = true;
  c.ordered = false;            // a hash table: no ordered scans
  c.transactional = true;       // MULTI/EXEC applies a batch at once, DISCARD drops it
  c.durable = false;            // snapshots and AOF off: a reopen starts empty
  c.concurrent_readers = true;  // one connection per session
  c.concurrent_writers = true;
  return c;  // max_key_size 0: redis keys go up to 512 MB
}

Status RedisAdapter::Open(const OpenRequest& request) {
  if (open_) return Status::InvalidArgument("open: redis is already open");
  RedisSettings settings;
  KVBENCH_RETURN_IF_ERROR(ParseRedisSettings(request.options, &settings));
  settings_ = settings;
  directory_ = request.directory;
  if (settings.host.empty()) {
    RedisServerSettings server;
    server.binary = settings.server_binary;
    // redis-server chdirs to --dir before opening --logfile, so a relative
    // directory (kvbench run --out runs/x) must be made absolute first.
    std::error_code ec;
    server.directory = std::filesystem::absolute(request.directory, ec).string();
    if (ec) return Status::IOError("redis: cannot resolve '" + request.directory + "': " + ec.message());
    server.start_timeout_ms = settings.start_timeout_ms;
    Status s = server_.Start(server);
    if (s.IsInvalidArgument()) return s.WithContext("option 'redis.server'");
    KVBENCH_RETURN_IF_ERROR(s);
    host_ = "127.0.0.1";
    port_ = server_.port();
    password_ = server_.password();
    server_version_ = server_.version();
  } else {
    host_ = settings.host;
    port_ = settings.port;
    password_.clear();
    RedisConnection admin;
    KVBENCH_RETURN_IF_ERROR(admin.Connect(host_, port_, settings.timeout_ms));
    RedisReply reply;
    KVBENCH_RETURN_IF_ERROR(admin.Call({"INFO", "server"}, "info", &reply));
    if (reply->type != REDIS_REPLY_STRING) return admin.UnexpectedReply(*reply, "info");
    server_version_ = InfoField(std::string_view(reply->str, reply->len), "redis_version");
    if (settings.flush) {
      KVBENCH_RETURN_IF_ERROR(admin.Call({"FLUSHDB"}, "flushdb", &reply));
      KVBENCH_RETURN_IF_ERROR(admin.ReplyError(*reply, "flushdb"));
    }
  }
  open_ = true;
  return Status::OK();
}

Status RedisAdapter::Close() {
  if (!open_) return Status::OK();
  open_ = false;
  return server_.Stop();  // OK at once for an external server: none was started
}

Status RedisAdapter::NewSession(std::unique_ptr<Session>* session) {
  if (!open_) return Status::InvalidArgument("new session: redis is not open");
  auto created = std::make_unique<RedisSession>(host_, port_, settings_.timeout_ms, password_);
  KVBENCH_RETURN_IF_ERROR(created->Connect());
  *session = std::move(created);
  return Status::OK();
}

Status RedisAdapter::ListFiles(std::vector<std::string>* paths) const {
  if (!settings_.host.empty()) {
    paths->clear();
    return Status::OK();
  }
  return ListRegularFiles(directory_, paths);
}

}  // namespace kvbench

KVBENCH_REGISTER_ADAPTER(redis, "redis",
                         "redis-server via hiredis, one connection per session; by default a "
                         "private server with snapshots off (seed 002)",
                         [] { return std::make_unique<kvbench::RedisAdapter>(); });
