// The host's per-engine state for a plugin engine: the message buffer a
// call hands the plugin (with a guard word that catches a write past it), the
// flags a session's hot calls test, and what every session of one engine
// instance shares (the API table, the writer gate, the first ABI breach).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "adapters/plugin/plugin_adapter.h"
#include "adapters/support/batch_gate.h"
#include "kvbench/plugin.h"

namespace kvbench::plugin_host {

// A message buffer with a guard word after its capacity: a plugin that writes
// past `capacity` changes it, and the status check after the call sees it.
// Eight guard bytes, none of them NUL (a terminator one past the end is the
// commonest overrun): a write that runs on from the buffer changes the first.
class MessageBuffer {
 public:
  static constexpr size_t kCapacity = 512;

  MessageBuffer() {
    RestoreGuard();
    message_.text = storage_;
    message_.capacity = kCapacity;
  }

  // The buffer for one call; its text starts empty.
  kvbench_message* ForCall() {
    storage_[0] = '\0';
    return &message_;
  }
  // `code` is KVBENCH_OK and the guard is intact: one load, one compare and
  // one branch on a successful call.
  bool OkAndIntact(kvbench_status code) const {
    return ((Guard() ^ kGuard) | static_cast<uint32_t>(code)) == 0;
  }
  bool GuardIntact() const { return Guard() == kGuard; }
  void RestoreGuard() { std::memcpy(storage_ + kCapacity, &kGuard, sizeof kGuard); }
  // What the plugin wrote, cut at the capacity when it left out the NUL.
  std::string Text() const { return std::string(storage_, strnlen(storage_, kCapacity)); }

 private:
  static constexpr uint64_t kGuard = 0x21'64'72'61'75'67'2d'6b;  // "k-guard!" on little-endian
  uint64_t Guard() const {
    uint64_t guard;
    std::memcpy(&guard, storage_ + kCapacity, sizeof guard);
    return guard;
  }

  alignas(8) char storage_[kCapacity + sizeof kGuard];
  kvbench_message message_;
};

// A session's flags, in one byte its hot calls test at once.
enum SessionFlag : uint8_t {
  kBroken = 1,           // the engine broke the ABI: every call returns the breach
  kSerialiseWrites = 2,  // writes take turns (no concurrent writers)
  kNoGetRef = 4,         // an ABI 1.0 plugin: get through the value sink
};

// What every adapter and session of one engine instance shares: the table,
// and the first contract breach, after which every call fails with it.
//
// Each live session keeps its own copy of the breach flag (kBroken in its
// flag byte, which its hot calls read from the session object they already
// have), so a call tests one byte instead of following a pointer to this
// shared state first; Breach sets every session's flag.
class EngineState {
 public:
  explicit EngineState(const PluginEngine* engine) : engine_(engine) {}

  void AttachSession(std::atomic<uint8_t>* flags) {
    std::lock_guard lock(mutex_);
    session_flags_.push_back(flags);
    if (broken_.load(std::memory_order_relaxed)) {
      flags->fetch_or(kBroken, std::memory_order_relaxed);
    }
  }
  void DetachSession(std::atomic<uint8_t>* flags) {
    std::lock_guard lock(mutex_);
    session_flags_.erase(std::find(session_flags_.begin(), session_flags_.end(), flags));
  }

  const kvbench_engine_api& api() const { return engine_->api; }
  // Writers take it exclusively on an engine that declares no concurrent
  // writers (see PluginSession).
  BatchGate& writer_gate() { return writer_gate_; }
  const std::string& name() const { return name_; }
  bool broken() const { return broken_.load(std::memory_order_relaxed); }

  // Records the first breach (later calls of every session return it) and
  // returns it.
  [[gnu::noinline, gnu::cold]] Status Breach(std::string what);

  [[gnu::noinline, gnu::cold]] Status BreachStatus() {
    std::lock_guard lock(mutex_);
    return breach_;
  }

  // The Status for `code` returned by `function`; checks the code and the
  // message buffer's guard. OK costs one compare, inline.
  Status Check(kvbench_status code, MessageBuffer& buffer, const char* function) {
    if (buffer.OkAndIntact(code)) [[likely]] return Status::OK();
    return CheckFailure(code, buffer, function);
  }

  // The Status of a call that did not return OK with the guard intact:
  // a breach (the guard overwritten, a code that is no kvbench_status) or
  // the plugin's own failure, with its message.
  [[gnu::noinline, gnu::cold]] Status CheckFailure(kvbench_status code, MessageBuffer& buffer,
                                                   const char* function);


 private:
  const PluginEngine* engine_;
  const std::string name_ = engine_->api.name;
  std::atomic<bool> broken_{false};
  std::mutex mutex_;
  Status breach_;
  std::vector<std::atomic<uint8_t>*> session_flags_;  // under mutex_
  BatchGate writer_gate_;
};

}  // namespace kvbench::plugin_host
