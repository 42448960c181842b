// One blocking hiredis connection to a redis server, with every failure turned
// into a Status that names the server ("redis 127.0.0.1:6379: get: Connection
// reset by peer").
//
// Commands are sent as argument vectors (redisAppendCommandArgv), so keys and
// values are binary-safe: NUL bytes included, no format string parsed.
//
// After an I/O error (server gone, timeout) hiredis marks the connection dead:
// every later call fails with the same error instead of touching the socket.
//
// hiredis 0.14 writes with write(2), so a server that died turns the next write
// into SIGPIPE, which kills a process that has not ignored it. The first
// Connect therefore sets SIGPIPE to SIG_IGN for the whole process, but only
// when it still has the default action (a handler someone installed is kept);
// the failed write then returns EPIPE and becomes an IOError.
#pragma once

#include <hiredis/hiredis.h>

#include <cstddef>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>

#include "common/status.h"

namespace kvbench {

struct RedisReplyDeleter {
  void operator()(redisReply* reply) const { freeReplyObject(reply); }
};
// A reply owned by the caller; never null once a Read/Call returned OK.
using RedisReply = std::unique_ptr<redisReply, RedisReplyDeleter>;

// Not thread-safe: one thread at a time, like the Session that owns it.
class RedisConnection {
 public:
  // Queued commands are sent once this many bytes wait in the client's
  // buffer, so a large batch does not grow the buffer without bound.
  static constexpr size_t kFlushBytes = size_t{1} << 20;

  RedisConnection() = default;
  ~RedisConnection();
  RedisConnection(const RedisConnection&) = delete;
  RedisConnection& operator=(const RedisConnection&) = delete;

  // Connects to host:port. `timeout_ms` bounds the connect and, afterwards,
  // every wait for a reply (0: wait forever). With a `password`, sends AUTH
  // before anything else. IOError naming host:port and hiredis's reason on
  // failure; InvalidArgument when the server refuses the password. The
  // password is never part of a message.
  Status Connect(const std::string& host, int port, int timeout_ms,
                 const std::string& password = "");
  bool connected() const { return context_ != nullptr; }
  // "host:port", for messages.
  const std::string& endpoint() const { return endpoint_; }

  // Sends one command (at most 3 arguments after the name) and reads its
  // reply. OK means a reply arrived; it may still be an error reply (see
  // ReplyError). IOError when the connection failed.
  Status Call(std::initializer_list<Slice> args, std::string_view what, RedisReply* reply);
  // Queues a command without waiting for its reply (pipelining); it is sent
  // by the next Read, or now when kFlushBytes are waiting.
  Status Queue(std::initializer_list<Slice> args, std::string_view what);
  // Reads the next reply, in the order the commands were queued, after
  // sending anything still queued.
  Status Read(std::string_view what, RedisReply* reply);

  // Internal "redis host:port: <what>: <the server's message>" for an error
  // reply; OK for any other reply.
  Status ReplyError(const redisReply& reply, std::string_view what) const;
  // Internal "... unexpected reply type N" for a reply of the wrong kind.
  Status UnexpectedReply(const redisReply& reply, std::string_view what) const;

 private:
  Status Append(std::initializer_list<Slice> args, std::string_view what);
  Status IoError(std::string_view what) const;

  redisContext* context_ = nullptr;
  std::string endpoint_;
  int timeout_ms_ = 0;
  size_t unsent_bytes_ = 0;
};

// The value of `field` in an INFO reply ("redis_version:7.0.15" lines); empty
// when absent.
std::string InfoField(std::string_view info, std::string_view field);

}  // namespace kvbench
