// The engine options of bdb-hash and bdb-btree: their specs (names, defaults, help) and the
// settings parsed from resolved values. Kept apart from the adapter so that the defaults are
// declared once: the adapter derives its pre-Open capabilities from the same specs.
#pragma once

#include <db.h>

#include <cstdint>
#include <vector>

#include "adapters/engine_options.h"

namespace kvbench {

struct BdbSettings {
  uint64_t cache_size = 0;      // bytes for the memory pool
  bool transactional = false;   // DB_TXN batches, write-ahead log, recovery at open
  bool sync_on_commit = false;  // bdb.sync=commit
  bool private_env = true;      // environment regions in process memory, not __db.NNN files
  uint32_t page_size = 0;       // 0: Berkeley DB's choice (the file system's block size)
  uint32_t hash_ffactor = 0;    // 0: computed by Berkeley DB
  uint32_t hash_nelem = 0;      // 0: the table grows from empty
};

// Specs for an adapter of access method `type` (DB_HASH adds the hash-only options).
std::vector<OptionSpec> BdbOptionSpecs(DBTYPE type);

// Parses resolved options (every spec present). InvalidArgument names the option.
Status ParseBdbSettings(const EngineOptions& options, DBTYPE type, BdbSettings* out);

}  // namespace kvbench
