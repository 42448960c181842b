#include "adapters/bdb/bdb_options.h"

#include <string>

namespace kvbench {
namespace {

// Reads an optional unsigned option: empty text leaves *out at 0 ("engine default").
Status GetOptionalU32(const EngineOptions& options, const char* name, uint32_t* out) {
  if (options.GetString(name).empty()) return Status::OK();
  int64_t v = 0;
  KVBENCH_RETURN_IF_ERROR(options.GetInt64(name, &v));
  if (v < 0 || v > UINT32_MAX) {
    return Status::InvalidArgument(std::string("option '") + name + "': " + std::to_string(v) +
                                   " is out of range");
  }
  *out = static_cast<uint32_t>(v);
  return Status::OK();
}

}  // namespace

std::vector<OptionSpec> BdbOptionSpecs(DBTYPE type) {
  std::vector<OptionSpec> specs = {
      {"bdb.cache_size", "64MiB", "memory pool size (DB_ENV->set_cachesize)"},
      {"bdb.transactional", "false",
       "false: seed 004's plain database, batches emulated; true: DB_TXN batches, WAL, recovery"},
      {"bdb.sync", "none",
       "none: flush at Sync/Close only; commit: durable at each commit (log flush, or DB->sync "
       "after each write and batch without transactions, as seed 004's sync run)"},
      {"bdb.page_size", "", "database page size in bytes; empty: Berkeley DB's choice"},
      {"bdb.private_env", "true",
       "true: environment regions in process memory, as for seed 004's database opened without "
       "an environment; false: in __db.NNN files in the directory (for multi-process use)"},
  };
  if (type == DB_HASH) {
    specs.push_back(
        {"bdb.hash_ffactor", "", "hash fill factor (keys per bucket); empty: computed"});
    specs.push_back({"bdb.hash_nelem", "", "expected number of keys, to presize the table"});
  }
  return specs;
}

Status ParseBdbSettings(const EngineOptions& options, DBTYPE type, BdbSettings* out) {
  BdbSettings s;
  KVBENCH_RETURN_IF_ERROR(options.GetBytes("bdb.cache_size", &s.cache_size));
  KVBENCH_RETURN_IF_ERROR(options.GetBool("bdb.transactional", &s.transactional));
  KVBENCH_RETURN_IF_ERROR(options.GetBool("bdb.private_env", &s.private_env));
  const std::string sync = options.GetString("bdb.sync");
  if (sync != "none" && sync != "commit") {
    return Status::InvalidArgument("option 'bdb.sync': '" + sync + "' is not none or commit");
  }
  s.sync_on_commit = sync == "commit";
  KVBENCH_RETURN_IF_ERROR(GetOptionalU32(options, "bdb.page_size", &s.page_size));
  if (type == DB_HASH) {
    KVBENCH_RETURN_IF_ERROR(GetOptionalU32(options, "bdb.hash_ffactor", &s.hash_ffactor));
    KVBENCH_RETURN_IF_ERROR(GetOptionalU32(options, "bdb.hash_nelem", &s.hash_nelem));
  }
  *out = s;
  return Status::OK();
}

}  // namespace kvbench
