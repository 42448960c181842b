#include "adapters/redis/redis_connection.h"

#include <signal.h>
#include <sys/time.h>

#include <mutex>

namespace kvbench {
namespace {

constexpr size_t kMaxArgs = 4;  // SET key value is the longest command sent

void IgnoreSigpipeIfDefault() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction current {};
    if (sigaction(SIGPIPE, nullptr, &current) != 0) return;
    if ((current.sa_flags & SA_SIGINFO) == 0 && current.sa_handler == SIG_DFL) {
      struct sigaction ignore {};
      ignore.sa_handler = SIG_IGN;
      sigemptyset(&ignore.sa_mask);
      sigaction(SIGPIPE, &ignore, nullptr);
    }
  });
}

timeval Timeval(int timeout_ms) {
  timeval tv{};
  tv.tv_sec = timeout_ms / 1000;
  tv.tv_usec = static_cast<suseconds_t>(timeout_ms % 1000) * 1000;
  return tv;
}

}  // namespace

RedisConnection::~RedisConnection() {
  if (context_ != nullptr) redisFree(context_);
}

Status RedisConnection::Connect(const std::string& host, int port, int timeout_ms,
                                const std::string& password) {
  IgnoreSigpipeIfDefault();
  if (context_ != nullptr) {
    redisFree(context_);
    context_ = nullptr;
  }
  endpoint_ = host + ":" + std::to_string(port);
  timeout_ms_ = timeout_ms;
  unsent_bytes_ = 0;
  redisContext* c = timeout_ms > 0
                        ? redisConnectWithTimeout(host.c_str(), port, Timeval(timeout_ms))
                        : redisConnect(host.c_str(), port);
  if (c == nullptr) return Status::IOError("redis " + endpoint_ + ": connect: out of memory");
  if (c->err != 0) {
    Status s = Status::IOError("redis " + endpoint_ + ": connect: " + c->errstr);
    redisFree(c);
    return s;
  }
  if (timeout_ms > 0 && redisSetTimeout(c, Timeval(timeout_ms)) != REDIS_OK) {
    Status s = Status::IOError("redis " + endpoint_ + ": set timeout: " + c->errstr);
    redisFree(c);
    return s;
  }
  context_ = c;
  if (password.empty()) return Status::OK();
  RedisReply reply;
  KVBENCH_RETURN_IF_ERROR(Call({"AUTH", password}, "auth", &reply));
  if (reply->type == REDIS_REPLY_ERROR) {
    return Status::InvalidArgument("redis " + endpoint_ +
                                   ": auth: " + std::string(reply->str, reply->len));
  }
  return Status::OK();
}

Status RedisConnection::Append(std::initializer_list<Slice> args, std::string_view what) {
  if (context_ == nullptr) {
    return Status::IOError("redis " + endpoint_ + ": " + std::string(what) + ": not connected");
  }
  if (context_->err != 0) return IoError(what);  // dead since an earlier failure
  if (args.size() > kMaxArgs) {
    return Status::InvalidArgument("redis: " + std::string(what) + ": too many arguments");
  }
  const char* argv[kMaxArgs];
  size_t lengths[kMaxArgs];
  size_t n = 0;
  for (Slice arg : args) {
    argv[n] = arg.data();
    lengths[n] = arg.size();
    unsent_bytes_ += arg.size();
    ++n;
  }
  if (redisAppendCommandArgv(context_, static_cast<int>(n), argv, lengths) != REDIS_OK) {
    return IoError(what);
  }
  return Status::OK();
}

Status RedisConnection::Call(std::initializer_list<Slice> args, std::string_view what,
                             RedisReply* reply) {
  KVBENCH_RETURN_IF_ERROR(Append(args, what));
  return Read(what, reply);
}

Status RedisConnection::Queue(std::initializer_list<Slice> args, std::string_view what) {
  KVBENCH_RETURN_IF_ERROR(Append(args, what));
  if (unsent_bytes_ < kFlushBytes) return Status::OK();
  // The server keeps reading while its replies wait for us (a normal client
  // has no output buffer limit), so writing everything first cannot deadlock.
  int done = 0;
  while (done == 0) {
    if (redisBufferWrite(context_, &done) != REDIS_OK) return IoError(what);
  }
  unsent_bytes_ = 0;
  return Status::OK();
}

Status RedisConnection::Read(std::string_view what, RedisReply* reply) {
  reply->reset();
  if (context_ == nullptr) {
    return Status::IOError("redis " + endpoint_ + ": " + std::string(what) + ": not connected");
  }
  unsent_bytes_ = 0;  // redisGetReply sends the whole buffer first
  void* raw = nullptr;
  if (redisGetReply(context_, &raw) != REDIS_OK || raw == nullptr) {
    if (raw != nullptr) freeReplyObject(raw);
    return IoError(what);
  }
  reply->reset(static_cast<redisReply*>(raw));
  return Status::OK();
}

Status RedisConnection::ReplyError(const redisReply& reply, std::string_view what) const {
  if (reply.type != REDIS_REPLY_ERROR) return Status::OK();
  return Status::Internal("redis " + endpoint_ + ": " + std::string(what) + ": " +
                          std::string(reply.str, reply.len));
}

Status RedisConnection::UnexpectedReply(const redisReply& reply, std::string_view what) const {
  KVBENCH_RETURN_IF_ERROR(ReplyError(reply, what));
  return Status::Internal("redis " + endpoint_ + ": " + std::string(what) +
                          ": unexpected reply type " + std::to_string(reply.type));
}

Status RedisConnection::IoError(std::string_view what) const {
  std::string message = "redis " + endpoint_ + ": " + std::string(what) + ": ";
  if (context_->err == 0) {
    message += "no reply";
  } else {
    message += context_->errstr;
    // A read that hit SO_RCVTIMEO reports EAGAIN's text; say what it means.
    if (std::string_view(context_->errstr).find("temporarily unavailable") !=
        std::string_view::npos) {
      message += " (no reply within " + std::to_string(timeout_ms_) + " ms: redis.timeout_ms)";
    }
  }
  return Status::IOError(std::move(message));
}

std::string InfoField(std::string_view info, std::string_view field) {
  size_t pos = 0;
  while (pos < info.size()) {
    size_t end = info.find('\n', pos);
    if (end == std::string_view::npos) end = info.size();
    std::string_view line = info.substr(pos, end - pos);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.size() > field.size() && line.substr(0, field.size()) == field &&
        line[field.size()] == ':') {
      return std::string(line.substr(field.size() + 1));
    }
    pos = end + 1;
  }
  return "";
}

}  // namespace kvbench
