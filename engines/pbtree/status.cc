#include "engines/pbtree/status.h"

#include <cstring>

namespace pbtree {

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
  switch (code_) {
    case Code::kOk: name = "OK"; break;
    case Code::kNotFound: name = "NotFound"; break;
    case Code::kCorruption: name = "Corruption"; break;
    case Code::kInvalidArgument: name = "InvalidArgument"; break;
    case Code::kIOError: name = "IOError"; break;
    case Code::kBusy: name = "Busy"; break;
    case Code::kNotSupported: name = "NotSupported"; break;
  }
  std::string out = name;
  if (!message_.empty()) {
    out += ": ";
    out += message_;
  }
  return out;
}

Status Status::WithContext(std::string_view context) const {
  if (ok()) return *this;
  std::string msg(context);
  if (!message_.empty()) {
    msg += ": ";
    msg += message_;
  }
  return Status(code_, std::move(msg));
}

}  // namespace pbtree
