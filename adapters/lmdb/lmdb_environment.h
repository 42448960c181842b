// The LMDB environment behind the lmdb adapter: one environment in the
// engine's directory (data.mdb + lock.mdb) holding one unnamed database, its
// options, and the two operations that need every other user of the memory map
// to stand still: growing the map and compacting the file.
//
// Concurrency. LMDB lets one write transaction run beside any number of read
// transactions, but mdb_env_set_mapsize (and closing the environment) needs
// *no* transaction in the process to be active. So:
//  - every write transaction is begun and ended under writer_mutex(), which a
//    session holds for a single write or for a whole batch;
//  - every session's read transaction lives in an LmdbReader, used only under
//    the reader's own mutex (a per-session lock: uncontended, no cache line
//    shared between reading threads);
//  - GrowMap and Compact hold the writer lock and lock every registered
//    reader, so no transaction is active while the map moves.
// Reads never wait for the writer lock, so the two locks cannot deadlock.
#pragma once

#include <lmdb.h>

#include <atomic>
#include <cstdint>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "adapters/engine_options.h"
#include "common/status.h"

namespace kvbench {

// The lmdb adapter's options, parsed.
struct LmdbSettings {
  // Filled only by the adapter's parser from resolved options: the defaults
  // live once, in the OptionSpecs (`kvbench engines -v` shows them).
  // Performance.
  uint64_t map_size = 0;        // initial map; doubled whenever a write finds it full
  bool sync_on_commit = false;  // false: MDB_NOSYNC (the design's default: no sync per commit)
  bool no_meta_sync = false;    // MDB_NOMETASYNC: with syncing, skip the meta page's fsync
  bool write_map = false;       // MDB_WRITEMAP: write through the map instead of write()
  bool no_readahead = false;    // MDB_NORDAHEAD: for databases larger than RAM
  int64_t max_readers = 0;      // reader slots: one per session
  // Behaviour.
  bool append = false;  // MDB_APPEND on puts: keys must come in ascending order
};

std::vector<OptionSpec> LmdbOptionSpecs();

// InvalidArgument naming the option when a value does not parse.
Status ParseLmdbSettings(const EngineOptions& options, LmdbSettings* settings);

// A Status for LMDB return code `rc`: "<operation>: <mdb_strerror(rc)>".
Status LmdbError(int rc, std::string_view operation);

// One session's read-only transaction and cursor. Between calls the
// transaction is reset (it holds no snapshot); a read renews it under `mutex`.
// txn and cursor are null while the environment is closed.
struct LmdbReader {
  std::mutex mutex;
  MDB_txn* txn = nullptr;
  MDB_cursor* cursor = nullptr;
};

class LmdbEnvironment {
 public:
  LmdbEnvironment() = default;
  ~LmdbEnvironment() { Close(); }
  LmdbEnvironment(const LmdbEnvironment&) = delete;
  LmdbEnvironment& operator=(const LmdbEnvironment&) = delete;

  // Opens or creates the environment in `directory`.
  Status Open(const std::string& directory, const LmdbSettings& settings);
  // Frees every reader's handles and closes the environment. Safe when closed.
  void Close();

  bool is_open() const { return env_ != nullptr; }
  MDB_env* env() const { return env_; }
  MDB_dbi dbi() const { return dbi_; }
  const LmdbSettings& settings() const { return settings_; }
  const std::string& directory() const { return directory_; }
  // The longest key LMDB stores: fixed when liblmdb is compiled (511 in Debian).
  size_t max_key_size() const { return max_key_size_; }

  // Gives `reader` a reset read transaction and cursor, and registers it so
  // that GrowMap and Compact can quiesce it. Thread-safe.
  Status AttachReader(LmdbReader* reader);
  // Frees the reader's handles and forgets it. Thread-safe.
  void DetachReader(LmdbReader* reader);

  // Held from the beginning to the end of every write transaction.
  std::mutex& writer_mutex() { return writer_mutex_; }
  // Set by the session holding writer_mutex() for a batch, so that Compact
  // answers Busy rather than wait for (or try_lock, on the owning thread) a
  // lock that may be held until a later CommitBatch.
  void set_batch_open(bool open) { batch_open_ = open; }

  // Doubles the map size. The caller holds writer_mutex() and has ended its
  // write transaction (LMDB refuses to resize under an active one); readers
  // are waited for. The new size is persisted by the next commit.
  Status GrowMap(std::string_view operation);

  // Bytes of the map not yet used by the data file (map size minus the pages
  // in use). The caller holds writer_mutex().
  uint64_t FreeMapBytes() const;

  // LMDB's compaction: copies the live pages into a new file
  // (mdb_env_copyfd2 with MDB_CP_COMPACT), swaps it in for data.mdb and
  // reopens. Busy when a session holds an open batch.
  Status Compact();

  // mdb_env_sync(force): flushes even under MDB_NOSYNC.
  Status Sync();

 private:
  Status OpenEnv();
  Status CheckNotTruncated(MDB_env* env) const;
  Status CreateReaderHandles(LmdbReader* reader);
  static void FreeReaderHandles(LmdbReader* reader);

  LmdbSettings settings_;
  std::string directory_;
  uint64_t map_size_ = 0;  // the current map size, kept across Compact's reopen
  MDB_env* env_ = nullptr;
  MDB_dbi dbi_ = 0;
  size_t max_key_size_ = 0;

  std::mutex writer_mutex_;
  std::atomic<bool> batch_open_{false};
  std::mutex readers_mutex_;  // guards readers_; held while the map moves
  std::set<LmdbReader*> readers_;
};

}  // namespace kvbench
