#include "adapters/native/native_status.h"

#include <string>

namespace kvbench {

Status FromNative(const nativedb::Status& s) {
  using Code = nativedb::Status::Code;
  if (s.ok()) return Status::OK();
  const std::string msg(s.message());
  switch (s.code()) {
    case Code::kOk:
      return Status::OK();
    case Code::kNotFound:
      return Status::NotFound(msg);
    case Code::kInvalidArgument:
      return Status::InvalidArgument("native: " + msg);
    case Code::kFull:
    case Code::kIOError:
      return Status::IOError("native: " + msg);
    case Code::kCorruption:
      return Status::Corruption("native: " + msg);
    case Code::kBusy:
      return Status::Busy("native: " + msg);
    case Code::kNotSupported:
      return Status::NotSupported("native: " + msg);
  }
  return Status::Internal("native: " + s.ToString());
}

}  // namespace kvbench
