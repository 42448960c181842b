// Key-value pairs on WhiteDB: one record of two fields per pair, field 0 the
// escaped key as a WhiteDB string (whitedb_encoding.h) with a T-tree index,
// field 1 the value as a blob. README.md says what each operation costs (and
// why there is no hash index option).
//
// Lookups (Get, and Put/Delete finding the pair) are wg_find_record on the
// key's T-tree with the key built as a query parameter outside the database,
// so a Get allocates nothing inside it and runs under the shared lock.
// Forward scans are wg_make_query_rc on "key >= start" with the scan's limit
// as the row limit (pages of kScanPage rows when there is no limit). WhiteDB's
// queries run in ascending order only, so a backward scan reads ascending
// windows below the start key and visits each in reverse (see Scan).
//
// Not thread-safe and takes no lock: the session holds WhiteDB's lock around
// every call. One object per session (its buffers are reused across calls).
#pragma once

#include <string>
#include <vector>

#include "adapters/adapter.h"
#include "adapters/whitedb/whitedb_database.h"

namespace kvbench {

class WhitedbPairs {
 public:
  explicit WhitedbPairs(WhitedbDatabase* shared) : shared_(shared), db_(shared->db()) {}

  // Makes an empty database hold pairs (the key index). Under the write lock.
  static Status Start(WhitedbDatabase* shared);

  Status Put(Slice key, Slice value);         // write lock
  Status Get(Slice key, std::string* value);  // read lock
  Status Delete(Slice key);                   // write lock
  Status Scan(Slice start, const ScanOptions& options, ScanVisitor* visitor,
              size_t* visited);  // read lock

  // Rows fetched per query by a forward scan without a limit.
  static constexpr size_t kScanPage = 1024;

 private:
  // The pair's record, or nullptr. Leaves the escaped key in key_.
  Status Find(Slice key, void** record);
  // Passes one pair to the visitor; false when the visitor stops.
  bool Visit(void* record, bool keys_only, ScanVisitor* visitor);
  Status ScanForward(const ScanOptions& options, ScanVisitor* visitor, size_t* visited);
  Status ScanBackward(const ScanOptions& options, ScanVisitor* visitor, size_t* visited);
  // The escaped greatest key into *escaped; false when there is no pair.
  Status LastKey(std::string* escaped, bool* found);
  // The first pair whose escaped key is >= `escaped`, or nullptr.
  Status FirstAtOrAfter(const std::string& escaped, void** record);
  // Every record with lower <= key (lower empty: no bound) and key < / <=
  // upper, ascending, into rows_.
  Status FetchWindow(const std::string& lower, const std::string& upper, bool upper_inclusive);

  WhitedbDatabase* const shared_;
  void* const db_;
  std::string key_;          // the escaped key of the last Find
  std::string bound_;        // a scan's current bound (escaped)
  std::string visit_key_;    // an unescaped key passed to a visitor
  std::vector<void*> rows_;  // a backward scan's window
};

}  // namespace kvbench
