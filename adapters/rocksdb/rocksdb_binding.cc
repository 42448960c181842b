// `rocksdb`: RocksDB 7.8 (Debian's librocksdb-dev) through the shared LSM
// adapter (adapters/lsm/lsm_adapter.h), the default column family of one DB
// in the engine's directory, block-based tables.
#include <rocksdb/cache.h>
#include <rocksdb/db.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/table.h>
#include <rocksdb/version.h>
#include <rocksdb/write_batch.h>

#include "adapters/lsm/lsm_adapter.h"
#include "adapters/registry.h"

namespace kvbench {
namespace {

struct RocksDbEngine {
  using DB = rocksdb::DB;
  using Slice = rocksdb::Slice;
  using ReadOptions = rocksdb::ReadOptions;
  using WriteOptions = rocksdb::WriteOptions;
  using WriteBatch = rocksdb::WriteBatch;
  using Iterator = rocksdb::Iterator;
  static constexpr const char* kName = "rocksdb";

  struct Settings {
    rocksdb::CompressionType compression = rocksdb::kNoCompression;
    uint64_t block_cache = 0;
    int bloom_bits = 0;
    uint64_t write_buffer = 0;
    int background_jobs = 0;
    bool wal = true;
    bool sync_on_commit = false;
    bool direct_reads = false;
  };
  struct Handles {};  // RocksDB keeps its cache and filter policy by shared_ptr

  static std::vector<OptionSpec> OptionSpecs() {
    return {
        {"rocksdb.compression", "snappy",
         "block compression: none, snappy (RocksDB's default), lz4 or zstd"},
        {"rocksdb.block_cache", "32MiB", "LRU block cache (RocksDB's default size)"},
        {"rocksdb.bloom_bits", "10",
         "bits per key of a Bloom filter per table (0: none, RocksDB's default); 10 is db_bench's"},
        {"rocksdb.write_buffer", "64MiB", "memtable size before it is flushed (the default)"},
        {"rocksdb.max_background_jobs", "2", "flush and compaction threads (the default)"},
        {"rocksdb.wal", "true",
         "write-ahead log; false: writes live only in the memtable until a flush (db_bench's "
         "--disable_wal)"},
        {"rocksdb.sync", "none",
         "none: commits are not fsynced (survive a process crash, not a power loss); commit: "
         "every commit is (WriteOptions::sync)"},
        {"rocksdb.direct_reads", "false", "O_DIRECT reads: bypass the page cache (use_direct_reads)"},
    };
  }

  static Status ParseSettings(const EngineOptions& o, Settings* out) {
    const std::string compression = o.GetString("rocksdb.compression");
    if (compression == "none") out->compression = rocksdb::kNoCompression;
    else if (compression == "snappy") out->compression = rocksdb::kSnappyCompression;
    else if (compression == "lz4") out->compression = rocksdb::kLZ4Compression;
    else if (compression == "zstd") out->compression = rocksdb::kZSTD;
    else {
      return Status::InvalidArgument("option 'rocksdb.compression': '" + compression +
                                     "' is not none, snappy, lz4 or zstd");
    }
    KVBENCH_RETURN_IF_ERROR(o.GetBytes("rocksdb.block_cache", &out->block_cache));
    int64_t v = 0;
    KVBENCH_RETURN_IF_ERROR(o.GetInt64("rocksdb.bloom_bits", &v));
    if (v < 0 || v > 64) return Status::InvalidArgument("option 'rocksdb.bloom_bits': must be 0..64");
    out->bloom_bits = static_cast<int>(v);
    KVBENCH_RETURN_IF_ERROR(o.GetBytes("rocksdb.write_buffer", &out->write_buffer));
    if (out->write_buffer < (64 << 10)) {
      return Status::InvalidArgument("option 'rocksdb.write_buffer': at least 64 KiB");
    }
    KVBENCH_RETURN_IF_ERROR(o.GetInt64("rocksdb.max_background_jobs", &v));
    if (v < 1 || v > 64) {
      return Status::InvalidArgument("option 'rocksdb.max_background_jobs': must be 1..64");
    }
    out->background_jobs = static_cast<int>(v);
    KVBENCH_RETURN_IF_ERROR(o.GetBool("rocksdb.wal", &out->wal));
    const std::string sync = o.GetString("rocksdb.sync");
    if (sync != "none" && sync != "commit") {
      return Status::InvalidArgument("option 'rocksdb.sync': '" + sync + "' is not none or commit");
    }
    out->sync_on_commit = sync == "commit";
    if (out->sync_on_commit && !out->wal) {
      return Status::InvalidArgument(
          "option 'rocksdb.sync': commit needs the write-ahead log (rocksdb.wal = true)");
    }
    KVBENCH_RETURN_IF_ERROR(o.GetBool("rocksdb.direct_reads", &out->direct_reads));
    return Status::OK();
  }

  static Status Open(const Settings& s, const std::string& dir, std::unique_ptr<DB>* db,
                     Handles*) {
    rocksdb::Options options;
    options.create_if_missing = true;
    options.compression = s.compression;
    options.write_buffer_size = s.write_buffer;
    options.max_background_jobs = s.background_jobs;
    options.use_direct_reads = s.direct_reads;
    rocksdb::BlockBasedTableOptions table;
    table.block_cache = rocksdb::NewLRUCache(s.block_cache);
    if (s.bloom_bits > 0) table.filter_policy.reset(rocksdb::NewBloomFilterPolicy(s.bloom_bits));
    options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
    DB* opened = nullptr;
    Status st = lsm::FromEngine(DB::Open(options, dir, &opened), "open");
    db->reset(opened);
    return st;
  }

  static WriteOptions MakeWriteOptions(const Settings& s) {
    WriteOptions w;
    w.sync = s.sync_on_commit;
    w.disableWAL = !s.wal;
    return w;
  }

  // From RocksDB's wiki (WAL, WriteOptions::sync and disableWAL).
  static DurabilityDeclaration DeclareDurability(const Settings& s) {
    DurabilityDeclaration d;
    d.atomic_batches = true;
    if (!s.wal) {
      d.process_crash = FaultPromise::kConsistent;
      d.power_loss = FaultPromise::kConsistent;
      d.basis = "rocksdb.wal=false: writes since the last memtable flush are lost in any crash";
    } else if (!s.sync_on_commit) {
      d.process_crash = FaultPromise::kDurable;
      d.power_loss = FaultPromise::kConsistent;
      d.basis =
          "rocksdb.sync=none: the WAL is written, not fsynced, at commit: a machine crash "
          "can lose the last writes";
    } else {
      d.process_crash = FaultPromise::kDurable;
      d.power_loss = FaultPromise::kDurable;
      d.basis = "rocksdb.sync=commit: the WAL is fsynced at every commit";
    }
    return d;
  }

  // With the log: sync it. Without: flush the memtables into tables.
  static Status Sync(DB* db, const Settings& s) {
    if (s.wal) return lsm::FromEngine(db->FlushWAL(/*sync=*/true), "sync");
    return lsm::FromEngine(db->Flush(rocksdb::FlushOptions()), "sync");
  }

  static Status CompactAll(DB* db) {
    return lsm::FromEngine(db->CompactRange(rocksdb::CompactRangeOptions(), nullptr, nullptr),
                           "reorganize");
  }

  static std::string Version() {
    return "RocksDB " + std::to_string(ROCKSDB_MAJOR) + "." + std::to_string(ROCKSDB_MINOR) + "." +
           std::to_string(ROCKSDB_PATCH);
  }
};

}  // namespace
}  // namespace kvbench

KVBENCH_REGISTER_ADAPTER(rocksdb, "rocksdb",
                         "RocksDB: LSM tree, WriteBatch batches (ordered, durable)",
                         [] { return std::make_unique<kvbench::lsm::LsmAdapter<kvbench::RocksDbEngine>>(); });
