#include "adapters/plugin/engine_state.h"

#include <utility>

namespace kvbench::plugin_host {

Status EngineState::Breach(std::string what) {
  std::lock_guard lock(mutex_);
  if (!broken_.load(std::memory_order_relaxed)) {
    breach_ = Status::Internal("plugin engine '" + name_ + "' (" + engine_->plugin_path +
                               ") broke the plugin ABI: " + what);
    broken_.store(true, std::memory_order_relaxed);
    for (std::atomic<uint8_t>* flags : session_flags_) {
      flags->fetch_or(kBroken, std::memory_order_relaxed);
    }
  }
  return breach_;
}

Status EngineState::CheckFailure(kvbench_status code, MessageBuffer& buffer,
                                 const char* function) {
  if (!buffer.GuardIntact()) {
    buffer.RestoreGuard();
    return Breach(std::string(function) + " wrote past the end of its " +
                  std::to_string(MessageBuffer::kCapacity) + "-byte message buffer");
  }
  if (code < 0 || code > KVBENCH_STATUS_LAST) {
    return Breach(std::string(function) + " returned " + std::to_string(code) +
                  ", which is not a kvbench_status");
  }
  std::string text = buffer.Text();
  if (code == KVBENCH_NOT_FOUND) return Status::NotFound(std::move(text));
  if (text.empty()) text = std::string(function) + " failed";
  text = name_ + ": " + text;
  switch (code) {
    case KVBENCH_NOT_SUPPORTED:
      return Status::NotSupported(std::move(text));
    case KVBENCH_INVALID_ARGUMENT:
      return Status::InvalidArgument(std::move(text));
    case KVBENCH_IO_ERROR:
      return Status::IOError(std::move(text));
    case KVBENCH_CORRUPTION:
      return Status::Corruption(std::move(text));
    case KVBENCH_BUSY:
      return Status::Busy(std::move(text));
    default:
      return Status::Internal(std::move(text));
  }
}

}  // namespace kvbench::plugin_host
