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
  Status(const Status& other) : rep_(other.has_message() ? Clone(other.rep_) : other.rep_) {}
  Status(Status&& other) noexcept : rep_(other.rep_) { other.rep_ = 0; }
  Status& operator=(const Status& other) {
    if (this != &other) *this = Status(other);
    return *this;
  }
  Status& operator=(Status&& other) noexcept {
    std::swap(rep_, other.rep_);
    return *this;
  }
  ~Status() {
    if (has_message()) Free(rep_);
  }

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

  bool ok() const noexcept { return rep_ == 0; }
  bool IsNotFound() const noexcept { return code() == Code::kNotFound; }
  bool IsCorruption() const noexcept { return code() == Code::kCorruption; }
  bool IsInvalidArgument() const noexcept { return code() == Code::kInvalidArgument; }
  bool IsIOError() const noexcept { return code() == Code::kIOError; }
  bool IsBusy() const noexcept { return code() == Code::kBusy; }
  bool IsNotSupported() const noexcept { return code() == Code::kNotSupported; }
  Code code() const noexcept {
    return has_message() ? reinterpret_cast<const State*>(rep_)->code : static_cast<Code>(rep_);
  }
  // Empty for OK and for a status made without one.
  const std::string& message() const noexcept;

  // "Corruption: page 12: checksum mismatch" style text for people.
  std::string ToString() const;
  // A copy whose message is "context: message"; OK stays OK.
  Status WithContext(std::string_view context) const;

 private:
  // One word, so that the OK status every call on a hot path returns is a
  // null word to set and test: the code itself when there is no message, or
  // a State on the heap. (A code and a std::string were 40 bytes, set and
  // torn down at every call.)
  struct State {
    Code code;
    std::string message;
  };
  static constexpr uintptr_t kLastCode = static_cast<uintptr_t>(Code::kNotSupported);
  Status(Code code, std::string msg);
  bool has_message() const noexcept { return rep_ > kLastCode; }
  static uintptr_t Clone(uintptr_t rep);
  static void Free(uintptr_t rep) noexcept;

  uintptr_t rep_ = 0;  // 0: OK
};

}  // namespace pbtree

// Returns early from the enclosing function when `expr` is not OK.
#define PBTREE_RETURN_IF_ERROR(expr)                              \
  do {                                                            \
    ::pbtree::Status _pbtree_st = (expr);                         \
    if (__builtin_expect(!_pbtree_st.ok(), 0)) return _pbtree_st; \
  } while (0)
