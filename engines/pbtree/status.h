// pbtree::Status: the result of every pbtree call that can fail.
//
// pbtree is a standalone library, so it carries its own LevelDB-style status
// instead of depending on the harness: an OK status holds no message and costs
// no allocation; NotFound is a normal answer (a missing key), not an error.
// No pbtree call throws.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

namespace pbtree {

// Binary-safe byte string (NUL bytes allowed). A Slice never owns its bytes;
// every call that returns one says how long they stay valid.
using Slice = std::string_view;

class Status {
 public:
  enum class Code : uint8_t {
    kOk = 0,
    kNotFound,         // the key does not exist, or the file does not exist
    kCorruption,       // the bytes on disk are not what pbtree wrote (checksum, structure)
    kInvalidArgument,  // bad option, key too long, misuse of the API, not a pbtree file
    kIOError,          // the operating system refused (open, read, write, fsync, rename)
    kBusy,             // a write transaction or a reader is in the way, or the file is locked
    kNotSupported,     // the operation is not available in this mode (e.g. writes when read-only)
  };

  Status() noexcept = default;
  static Status OK() noexcept { return Status(); }
  static Status NotFound(std::string msg = {}) { return Status(Code::kNotFound, std::move(msg)); }
  // The failures are out of line and `cold`: the compiler then treats every
  // path that builds one (often a message of several concatenated strings)
  // as rarely taken and moves it out of the hot functions, whose instruction
  // cache lines stay fewer (hot.h).
  [[gnu::cold]] static Status Corruption(std::string msg);
  [[gnu::cold]] static Status InvalidArgument(std::string msg);
  [[gnu::cold]] static Status IOError(std::string msg);
  [[gnu::cold]] static Status Busy(std::string msg);
  [[gnu::cold]] static Status NotSupported(std::string msg);
  // IOError whose message is "context: strerror(errno_value)".
  [[gnu::cold]] static Status FromErrno(std::string_view context, int errno_value);

  bool ok() const noexcept { return code_ == Code::kOk; }
  bool IsNotFound() const noexcept { return code_ == Code::kNotFound; }
  bool IsCorruption() const noexcept { return code_ == Code::kCorruption; }
  bool IsInvalidArgument() const noexcept { return code_ == Code::kInvalidArgument; }
  bool IsIOError() const noexcept { return code_ == Code::kIOError; }
  bool IsBusy() const noexcept { return code_ == Code::kBusy; }
  bool IsNotSupported() const noexcept { return code_ == Code::kNotSupported; }
  Code code() const noexcept { return code_; }
  const std::string& message() const noexcept { return message_; }

  // "Corruption: page 12: checksum mismatch" style text for people.
  std::string ToString() const;
  // A copy whose message is "context: message"; OK stays OK.
  Status WithContext(std::string_view context) const;

 private:
  Status(Code code, std::string msg) : code_(code), message_(std::move(msg)) {}

  Code code_ = Code::kOk;
  std::string message_;
};

}  // namespace pbtree

// Returns early from the enclosing function when `expr` is not OK.
#define PBTREE_RETURN_IF_ERROR(expr)                              \
  do {                                                            \
    ::pbtree::Status _pbtree_st = (expr);                         \
    if (__builtin_expect(!_pbtree_st.ok(), 0)) return _pbtree_st; \
  } while (0)
