#include "common/status.h"

namespace kvbench {

const char* Status::CodeName(Code code) noexcept {
  switch (code) {
    case Code::kOk: return "OK";
    case Code::kNotFound: return "NotFound";
    case Code::kNotSupported: return "NotSupported";
    case Code::kInvalidArgument: return "InvalidArgument";
    case Code::kIOError: return "IOError";
    case Code::kCorruption: return "Corruption";
    case Code::kBusy: return "Busy";
    case Code::kInternal: return "Internal";
  }
  return "Unknown";
}

std::string Status::ToString() const {
  std::string out = CodeName(code_);
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

}  // namespace kvbench
