// Status: the result of every adapter and engine call that can fail.
//
// Modelled on LevelDB's Status: an OK status carries no message and costs a
// byte and an empty string (no allocation), so returning it from a timed call
// is free. NotFound is a normal answer (a missing key), not an error.
// Exceptions never cross the adapter boundary: adapters catch what their
// engine throws and return a Status with a message instead.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

namespace kvbench {

// Binary-safe byte string: keys and values may contain NUL bytes. A Slice
// never owns its bytes; each call that returns one says how long they live.
using Slice = std::string_view;

class Status {
 public:
  enum class Code : uint8_t {
    kOk = 0,
    kNotFound,         // the key or record does not exist (a normal answer)
    kNotSupported,     // the engine cannot do this operation (reported, not failed)
    kInvalidArgument,  // bad option, bad key, misuse of the API
    kIOError,          // the operating system refused (disk full, permissions...)
    kCorruption,       // data on disk is not what the engine wrote
    kBusy,             // a lock or resource is held elsewhere
    kInternal,         // the engine returned an error kvbench cannot classify
  };

  Status() noexcept = default;

  static Status OK() noexcept { return Status(); }
  static Status NotFound(std::string msg = {}) { return Status(Code::kNotFound, std::move(msg)); }
  static Status NotSupported(std::string msg = {}) {
    return Status(Code::kNotSupported, std::move(msg));
  }
  static Status InvalidArgument(std::string msg) {
    return Status(Code::kInvalidArgument, std::move(msg));
  }
  static Status IOError(std::string msg) { return Status(Code::kIOError, std::move(msg)); }
  static Status Corruption(std::string msg) { return Status(Code::kCorruption, std::move(msg)); }
  static Status Busy(std::string msg) { return Status(Code::kBusy, std::move(msg)); }
  static Status Internal(std::string msg) { return Status(Code::kInternal, std::move(msg)); }

  bool ok() const noexcept { return code_ == Code::kOk; }
  bool IsNotFound() const noexcept { return code_ == Code::kNotFound; }
  bool IsNotSupported() const noexcept { return code_ == Code::kNotSupported; }
  bool IsInvalidArgument() const noexcept { return code_ == Code::kInvalidArgument; }
  Code code() const noexcept { return code_; }
  const std::string& message() const noexcept { return message_; }

  // "NotFound: key 'abc'" style text for people.
  std::string ToString() const;
  static const char* CodeName(Code code) noexcept;

  // Returns a copy whose message is "context: message"; OK stays OK.
  Status WithContext(std::string_view context) const;

 private:
  Status(Code code, std::string msg) : code_(code), message_(std::move(msg)) {}

  Code code_ = Code::kOk;
  std::string message_;
};

}  // namespace kvbench

// Returns early from the enclosing function when `expr` is not OK.
#define KVBENCH_RETURN_IF_ERROR(expr)            \
  do {                                           \
    ::kvbench::Status _kvbench_st = (expr);      \
    if (!_kvbench_st.ok()) return _kvbench_st;   \
  } while (0)
