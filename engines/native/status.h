// nativedb::Status: the result of every nativedb call that can fail.
//
// LevelDB-style: an OK status is one null pointer, so returning it from the
// hot paths (setting a field, creating a record) costs nothing. Errors carry a
// code and a message. nativedb never throws; NotFound is a normal answer.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace nativedb {

class Status {
 public:
  enum class Code : uint8_t {
    kOk = 0,
    kNotFound,         // no such record, key or index (a normal answer)
    kInvalidArgument,  // misuse: field out of range, bad option, wrong type
    kFull,             // the arena has no room left and cannot grow
    kIOError,          // the operating system refused (open, mmap, write...)
    kCorruption,       // a snapshot or arena is not what nativedb wrote
    kBusy,             // a lock or shared-memory name is held elsewhere
    kNotSupported,     // the operation does not apply (e.g. growing shared memory)
  };

  Status() noexcept = default;
  Status(const Status& other) : state_(other.state_ ? Copy(*other.state_) : nullptr) {}
  Status(Status&& other) noexcept = default;
  Status& operator=(const Status& other) {
    if (this != &other) state_.reset(other.state_ ? Copy(*other.state_) : nullptr);
    return *this;
  }
  Status& operator=(Status&& other) noexcept = default;

  static Status OK() noexcept { return Status(); }
  static Status NotFound(std::string_view msg) { return Status(Code::kNotFound, msg); }
  static Status InvalidArgument(std::string_view msg) {
    return Status(Code::kInvalidArgument, msg);
  }
  static Status Full(std::string_view msg) { return Status(Code::kFull, msg); }
  static Status IOError(std::string_view msg) { return Status(Code::kIOError, msg); }
  static Status Corruption(std::string_view msg) { return Status(Code::kCorruption, msg); }
  static Status Busy(std::string_view msg) { return Status(Code::kBusy, msg); }
  static Status NotSupported(std::string_view msg) { return Status(Code::kNotSupported, msg); }

  bool ok() const noexcept { return state_ == nullptr; }
  Code code() const noexcept { return state_ ? state_->code : Code::kOk; }
  bool IsNotFound() const noexcept { return code() == Code::kNotFound; }
  bool IsFull() const noexcept { return code() == Code::kFull; }
  bool IsInvalidArgument() const noexcept { return code() == Code::kInvalidArgument; }
  // Empty for OK.
  std::string_view message() const noexcept {
    return state_ ? std::string_view(state_->message) : std::string_view();
  }
  // "Full: arena ..." style text for people; "OK" for OK.
  std::string ToString() const;

 private:
  struct State {
    Code code;
    std::string message;
  };
  Status(Code code, std::string_view msg) : state_(new State{code, std::string(msg)}) {}
  static State* Copy(const State& s) { return new State(s); }

  std::unique_ptr<State> state_;
};

}  // namespace nativedb

// Returns early from the enclosing function when `expr` is not OK.
#define NATIVEDB_RETURN_IF_ERROR(expr)           \
  do {                                           \
    ::nativedb::Status _nativedb_st = (expr);    \
    if (!_nativedb_st.ok()) return _nativedb_st; \
  } while (0)
