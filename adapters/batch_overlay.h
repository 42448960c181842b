// BatchOverlay: a session's uncommitted writes, for adapters whose engine
// cannot read a batch's own writes before it commits (an LSM WriteBatch; a
// Tkrzw SkipDBM, whose writes are invisible until it is synchronised). The
// contract asks that reads inside a batch see the batch's writes (the shared
// record layer keeps a record and its index keys in one batch), so Get asks
// the overlay first and Scan merges it, in key order, with the engine's
// cursor.
//
// Not thread-safe: one per session, like the session itself.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "adapters/adapter.h"

namespace kvbench {

class BatchOverlay {
 public:
  void Put(Slice key, Slice value) { writes_[std::string(key)] = std::string(value); }
  void Delete(Slice key) { writes_[std::string(key)] = std::nullopt; }
  void Clear() { writes_.clear(); }
  bool empty() const { return writes_.empty(); }

  // The batch's answer for `key`: OK with *value for a put, NotFound for a
  // delete, or std::nullopt when the batch did not write it (ask the engine).
  std::optional<Status> Get(Slice key, std::string *value) const {
    const auto it = writes_.find(std::string(key));
    if (it == writes_.end()) return std::nullopt;
    if (!it->second) return Status::NotFound();
    value->assign(*it->second);
    return Status::OK();
  }

  // Every write in key order: the key and its value, or std::nullopt for a
  // delete.
  const std::map<std::string, std::optional<std::string>> &writes() const { return writes_; }

  // Visits the engine's entries merged with the batch's writes in scan order,
  // from `start` (or the edge) in `options.direction`, up to `options.limit`.
  // `cursor` must already be positioned at the engine's first entry in scan
  // order (the first key >= start forward, the last key <= start backward).
  // A key the batch wrote shows the batch's value; a key it deleted is
  // skipped. Returns the number of entries visited.
  //
  // Cursor: bool Valid() const; std::string_view key() const;
  // std::string_view value() const; void Next(); void Prev().
  template <typename Cursor>
  size_t MergeScan(Cursor &cursor, Slice start, const ScanOptions &options,
                   ScanVisitor *visitor) const {
    const bool forward = options.direction == ScanDirection::kForward;
    auto p = writes_.end();
    if (!writes_.empty()) {
      if (forward) {
        p = options.from_edge ? writes_.begin() : writes_.lower_bound(std::string(start));
      } else {
        auto up = options.from_edge ? writes_.end() : writes_.upper_bound(std::string(start));
        p = up == writes_.begin() ? writes_.end() : std::prev(up);
      }
    }
    const auto advance_write = [&] {
      if (forward) {
        ++p;
      } else {
        p = p == writes_.begin() ? writes_.end() : std::prev(p);
      }
    };
    const auto advance_cursor = [&] { forward ? cursor.Next() : cursor.Prev(); };
    size_t n = 0;
    while (options.limit == 0 || n < options.limit) {
      const bool have_engine = cursor.Valid();
      const bool have_write = p != writes_.end();
      if (!have_engine && !have_write) break;
      int order = 0;  // < 0: the engine's key comes first in scan order
      if (have_engine && have_write) {
        const int c = cursor.key().compare(std::string_view(p->first));
        order = forward ? c : -c;
      }
      if (have_write && (!have_engine || order >= 0)) {
        if (have_engine && order == 0) advance_cursor();  // the batch's write wins
        const auto &[key, value] = *p;
        advance_write();
        if (!value) continue;
        ++n;
        if (!visitor->Visit(key, options.keys_only ? Slice() : Slice(*value))) break;
        continue;
      }
      ++n;
      if (!visitor->Visit(cursor.key(), options.keys_only ? Slice() : cursor.value())) break;
      advance_cursor();
    }
    return n;
  }

 private:
  std::map<std::string, std::optional<std::string>> writes_;
};

}  // namespace kvbench
