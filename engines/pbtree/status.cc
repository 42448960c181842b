#include "engines/pbtree/status.h"

#include <cstring>

namespace pbtree {

Status::Status(Code code, std::string msg) {
  if (msg.empty()) {
    rep_ = static_cast<uintptr_t>(code);
  } else {
    rep_ = reinterpret_cast<uintptr_t>(new State{code, std::move(msg)});
  }
}

uintptr_t Status::Clone(uintptr_t rep) {
  return reinterpret_cast<uintptr_t>(new State(*reinterpret_cast<const State*>(rep)));
}

void Status::Free(uintptr_t rep) noexcept { delete reinterpret_cast<State*>(rep); }

const std::string& Status::message() const noexcept {
  static const std::string kNone;
  return has_message() ? reinterpret_cast<const State*>(rep_)->message : kNone;
}

Status Status::Corruption(std::string msg) { return Status(Code::kCorruption, std::move(msg)); }
Status Status::InvalidArgument(std::string msg) {
  return Status(Code::kInvalidArgument, std::move(msg));
}
Status Status::IOError(std::string msg) { return Status(Code::kIOError, std::move(msg)); }
Status Status::Busy(std::string msg) { return Status(Code::kBusy, std::move(msg)); }
Status Status::NotSupported(std::string msg) { return Status(Code::kNotSupported, std::move(msg)); }

Status Status::FromErrno(std::string_view context, int errno_value) {
  std::string msg(context);
  msg += ": ";
  msg += std::strerror(errno_value);
  return IOError(std::move(msg));
}

std::string Status::ToString() const {
  const char* name = "Unknown";
  switch (code()) {
    case Code::kOk: name = "OK"; break;
    case Code::kNotFound: name = "NotFound"; break;
    case Code::kCorruption: name = "Corruption"; break;
    case Code::kInvalidArgument: name = "InvalidArgument"; break;
    case Code::kIOError: name = "IOError"; break;
    case Code::kBusy: name = "Busy"; break;
    case Code::kNotSupported: name = "NotSupported"; break;
  }
  std::string out = name;
  if (!message().empty()) {
    out += ": ";
    out += message();
  }
  return out;
}

Status Status::WithContext(std::string_view context) const {
  if (ok()) return *this;
  std::string msg(context);
  if (!message().empty()) {
    msg += ": ";
    msg += message();
  }
  return Status(code(), std::move(msg));
}

}  // namespace pbtree
