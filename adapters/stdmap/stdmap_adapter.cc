// `stdmap`: an in-memory ordered baseline, std::map behind a reader-writer
// lock. A batch is buffered in its session and applied under the write lock at
// commit, so batches are atomic and can be aborted; the session's own Gets see
// its pending writes. Nothing survives Close().
#include <map>
#include <mutex>
#include <optional>
#include <shared_mutex>

#include "adapters/registry.h"
#include "adapters/support/batch_state.h"

namespace kvbench {
namespace {

struct SharedMap {
  std::shared_mutex mutex;
  std::map<std::string, std::string, std::less<>> entries;
};

class StdMapSession final : public Session {
 public:
  explicit StdMapSession(SharedMap* map) : map_(map) {}

  Status Put(Slice key, Slice value) override {
    if (batch_.open()) {
      pending_.insert_or_assign(std::string(key), std::string(value));
      return Status::OK();
    }
    std::unique_lock lock(map_->mutex);
    map_->entries.insert_or_assign(std::string(key), std::string(value));
    return Status::OK();
  }

  Status Get(Slice key, std::string* value) override {
    // Inside a batch the session reads its own pending writes first (the
    // shared record layer reads back what it wrote in the same batch).
    if (batch_.open()) {
      auto p = pending_.find(key);
      if (p != pending_.end()) {
        if (!p->second) return Status::NotFound();
        value->assign(*p->second);
        return Status::OK();
      }
    }
    std::shared_lock lock(map_->mutex);
    auto it = map_->entries.find(key);
    if (it == map_->entries.end()) return Status::NotFound();
    value->assign(it->second);
    return Status::OK();
  }

  Status Delete(Slice key) override {
    if (batch_.open()) {
      pending_.insert_or_assign(std::string(key), std::nullopt);
      return Status::OK();
    }
    std::unique_lock lock(map_->mutex);
    auto it = map_->entries.find(key);
    if (it == map_->entries.end()) return Status::NotFound();
    map_->entries.erase(it);
    return Status::OK();
  }

  Status BeginBatch() override { return batch_.Begin(); }

  Status CommitBatch() override {
    KVBENCH_RETURN_IF_ERROR(batch_.Commit());
    {
      std::unique_lock lock(map_->mutex);
      for (auto& [key, value] : pending_) {
        if (value) {
          map_->entries.insert_or_assign(key, std::move(*value));
        } else {
          map_->entries.erase(key);
        }
      }
    }
    pending_.clear();
    return Status::OK();
  }

  Status AbortBatch() override {
    KVBENCH_RETURN_IF_ERROR(batch_.Abort());
    pending_.clear();
    return Status::OK();
  }

  Status Scan(Slice start, const ScanOptions& options, ScanVisitor* visitor,
              size_t* visited) override {
    std::shared_lock lock(map_->mutex);
    size_t n = 0;
    const size_t limit = options.limit == 0 ? SIZE_MAX : options.limit;
    auto& entries = map_->entries;
    if (options.direction == ScanDirection::kForward) {
      auto it = options.from_edge ? entries.begin() : entries.lower_bound(start);
      for (; it != entries.end() && n < limit; ++it) {
        ++n;
        if (!visitor->Visit(it->first, options.keys_only ? Slice() : Slice(it->second))) break;
      }
    } else {
      // Last key <= start: one before the first key > start.
      auto it = options.from_edge ? entries.end() : entries.upper_bound(start);
      while (it != entries.begin() && n < limit) {
        --it;
        ++n;
        if (!visitor->Visit(it->first, options.keys_only ? Slice() : Slice(it->second))) break;
      }
    }
    if (visited != nullptr) *visited = n;
    return Status::OK();
  }

 private:
  SharedMap* map_;
  BatchState batch_;
  std::map<std::string, std::optional<std::string>, std::less<>> pending_;
};

class StdMapAdapter final : public Adapter {
 public:
  std::string LibraryVersion() const override { return "libstdc++"; }
  std::vector<OptionSpec> OptionSpecs() const override { return {}; }
  Status CheckOptions(const EngineOptions&) const override { return Status::OK(); }
  DurabilityDeclaration DeclareDurability(const EngineOptions&) const override {
    return {.basis = "an in-memory std::map: nothing outlives the process"};
  }

  Capabilities capabilities() const override {
    Capabilities c;
    c.ordered = true;
    c.transactional = true;
    c.concurrent_readers = true;
    return c;
  }
  Status Open(const OpenRequest&) override {
    map_.entries.clear();
    return Status::OK();
  }
  Status Close() override {
    map_.entries.clear();
    return Status::OK();
  }
  Status NewSession(std::unique_ptr<Session>* session) override {
    *session = std::make_unique<StdMapSession>(&map_);
    return Status::OK();
  }
  Status Sync() override { return Status::OK(); }
  Status ListFiles(std::vector<std::string>* paths) const override {
    paths->clear();
    return Status::OK();
  }

 private:
  SharedMap map_;
};

}  // namespace
}  // namespace kvbench

KVBENCH_REGISTER_ADAPTER(stdmap, "stdmap", "In-memory std::map baseline (ordered, not durable)",
                         [] { return std::make_unique<kvbench::StdMapAdapter>(); });
