#include "engines/native/status.h"

namespace nativedb {

std::string Status::ToString() const {
  if (ok()) return "OK";
  const char* name = "Unknown";
  switch (state_->code) {
    case Code::kOk:
      name = "OK";
      break;
    case Code::kNotFound:
      name = "NotFound";
      break;
    case Code::kInvalidArgument:
      name = "InvalidArgument";
      break;
    case Code::kFull:
      name = "Full";
      break;
    case Code::kIOError:
      name = "IOError";
      break;
    case Code::kCorruption:
      name = "Corruption";
      break;
    case Code::kBusy:
      name = "Busy";
      break;
    case Code::kNotSupported:
      name = "NotSupported";
      break;
  }
  std::string text(name);
  if (!state_->message.empty()) {
    text += ": ";
    text += state_->message;
  }
  return text;
}

}  // namespace nativedb
