// `leveldb`: LevelDB 1.23 (Debian's libleveldb-dev) through the shared LSM
// adapter (adapters/lsm/lsm_adapter.h), one DB in the engine's directory.
#include <leveldb/cache.h>
#include <leveldb/db.h>
#include <leveldb/filter_policy.h>
#include <leveldb/write_batch.h>

#include "adapters/lsm/lsm_adapter.h"
#include "adapters/registry.h"

namespace kvbench {
namespace {

struct LevelDbEngine {
  using DB = leveldb::DB;
  using Slice = leveldb::Slice;
  using ReadOptions = leveldb::ReadOptions;
  using WriteOptions = leveldb::WriteOptions;
  using WriteBatch = leveldb::WriteBatch;
  using Iterator = leveldb::Iterator;
  static constexpr const char* kName = "leveldb";

  struct Settings {
    bool compression = false;
    uint64_t block_cache = 0;
    int bloom_bits = 0;
    uint64_t write_buffer = 0;
    bool sync_on_commit = false;
  };
  struct Handles {
    std::unique_ptr<leveldb::Cache> cache;
    std::unique_ptr<const leveldb::FilterPolicy> filter;
  };

  static std::vector<OptionSpec> OptionSpecs() {
    return {
        {"leveldb.compression", "snappy", "block compression: none or snappy (LevelDB's default)"},
        {"leveldb.block_cache", "8MiB", "LRU cache of uncompressed blocks (LevelDB's default size)"},
        {"leveldb.bloom_bits", "10",
         "bits per key of a Bloom filter per table (0: none, LevelDB's default); 10 is db_bench's"},
        {"leveldb.write_buffer", "4MiB", "memtable size before it is written out (the default)"},
        {"leveldb.sync", "none",
         "none: writes are not fsynced (survive a process crash, not a power loss); commit: every "
         "commit is (WriteOptions::sync)"},
    };
  }

  static Status ParseSettings(const EngineOptions& o, Settings* out) {
    const std::string compression = o.GetString("leveldb.compression");
    if (compression != "none" && compression != "snappy") {
      return Status::InvalidArgument("option 'leveldb.compression': '" + compression +
                                     "' is not none or snappy");
    }
    out->compression = compression == "snappy";
    KVBENCH_RETURN_IF_ERROR(o.GetBytes("leveldb.block_cache", &out->block_cache));
    int64_t bits = 0;
    KVBENCH_RETURN_IF_ERROR(o.GetInt64("leveldb.bloom_bits", &bits));
    if (bits < 0 || bits > 64) {
      return Status::InvalidArgument("option 'leveldb.bloom_bits': must be 0..64");
    }
    out->bloom_bits = static_cast<int>(bits);
    KVBENCH_RETURN_IF_ERROR(o.GetBytes("leveldb.write_buffer", &out->write_buffer));
    if (out->write_buffer < (64 << 10)) {
      return Status::InvalidArgument("option 'leveldb.write_buffer': at least 64 KiB");
    }
    const std::string sync = o.GetString("leveldb.sync");
    if (sync != "none" && sync != "commit") {
      return Status::InvalidArgument("option 'leveldb.sync': '" + sync + "' is not none or commit");
    }
    out->sync_on_commit = sync == "commit";
    return Status::OK();
  }

  static Status Open(const Settings& s, const std::string& dir, std::unique_ptr<DB>* db,
                     Handles* handles) {
    leveldb::Options options;
    options.create_if_missing = true;
    options.compression = s.compression ? leveldb::kSnappyCompression : leveldb::kNoCompression;
    options.write_buffer_size = s.write_buffer;
    handles->cache.reset(leveldb::NewLRUCache(s.block_cache));
    options.block_cache = handles->cache.get();
    if (s.bloom_bits > 0) {
      handles->filter.reset(leveldb::NewBloomFilterPolicy(s.bloom_bits));
      options.filter_policy = handles->filter.get();
    }
    DB* opened = nullptr;
    Status st = lsm::FromEngine(DB::Open(options, dir, &opened), "open");
    db->reset(opened);
    return st;
  }

  static WriteOptions MakeWriteOptions(const Settings& s) {
    WriteOptions w;
    w.sync = s.sync_on_commit;
    return w;
  }

  // From LevelDB's documentation of WriteOptions::sync.
  static DurabilityDeclaration DeclareDurability(const Settings& s) {
    DurabilityDeclaration d;
    d.atomic_batches = true;
    d.process_crash = FaultPromise::kDurable;  // the log is written to the OS at every commit
    if (s.sync_on_commit) {
      d.power_loss = FaultPromise::kDurable;
      d.basis = "leveldb.sync=commit: the log is fsynced at every commit";
    } else {
      d.basis = "leveldb.sync=none: a machine crash can lose the last writes";
    }
    return d;
  }

  // LevelDB has no flush call: a synced empty write forces its log to disk.
  static Status Sync(DB* db, const Settings&) {
    WriteOptions w;
    w.sync = true;
    WriteBatch empty;
    return lsm::FromEngine(db->Write(w, &empty), "sync");
  }

  static Status CompactAll(DB* db) {
    db->CompactRange(nullptr, nullptr);
    return Status::OK();
  }

  static std::string Version() {
    return "LevelDB " + std::to_string(leveldb::kMajorVersion) + "." +
           std::to_string(leveldb::kMinorVersion);
  }
};

}  // namespace
}  // namespace kvbench

KVBENCH_REGISTER_ADAPTER(leveldb, "leveldb",
                         "LevelDB: LSM tree, WriteBatch batches (ordered, durable)",
                         [] { return std::make_unique<kvbench::lsm::LsmAdapter<kvbench::LevelDbEngine>>(); });
