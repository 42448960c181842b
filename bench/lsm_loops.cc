// The standalone loops kvbench's leveldb and rocksdb figures are held
// against: db_bench's fillrandom and readrandom in about 60 lines, written
// directly on each library with the adapters' default options (snappy, 10-bit
// Bloom filters, 8 MiB / 32 MiB block cache, default memtable, no sync):
// COUNT 16-byte keys ("k" + 15 digits, as the `numbered` dataset) put one at a
// time in a shuffled order with 100-byte values, then COUNT random gets.
// Usage: lsm_loops leveldb|rocksdb DIR COUNT REPETITIONS
// Prints one line per repetition: "load <ops/s> get <ops/s>".
#include <leveldb/cache.h>
#include <leveldb/db.h>
#include <leveldb/filter_policy.h>
#include <rocksdb/cache.h>
#include <rocksdb/db.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/table.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>

namespace {

// Keys have 15 digits: the modulo tells the compiler they fit key[17].
constexpr unsigned long long kKeyLimit = 1000000000000000ULL;

using Clock = std::chrono::steady_clock;
double Seconds(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// Fills, then reads, through any DB with LevelDB's API shape.
template <typename DB, typename WO, typename RO>
void Run(DB* db, uint64_t n, double* load, double* get) {
  char key[17], value[101];
  std::mt19937_64 rng(42);
  for (char& c : value) c = static_cast<char>(' ' + rng() % 95);
  auto t0 = Clock::now();
  for (uint64_t i = 0; i < n; ++i) {
    const uint64_t k = (i * 2654435761u) % n;  // a permutation of [0, n) for n not a multiple of it
    std::snprintf(key, sizeof key, "k%015llu",
                  static_cast<unsigned long long>((k + 1) % kKeyLimit));
    value[i % 100] ^= 1;  // a different value each time, as kvbench's
    if (!db->Put(WO(), {key, 16}, {value, 100}).ok()) std::exit(1);
  }
  *load = static_cast<double>(n) / Seconds(t0);
  std::string out;
  t0 = Clock::now();
  for (uint64_t i = 0; i < n; ++i) {
    std::snprintf(key, sizeof key, "k%015llu",
                  static_cast<unsigned long long>((rng() % n + 1) % kKeyLimit));
    if (!db->Get(RO(), {key, 16}, &out).ok()) std::exit(1);
  }
  *get = static_cast<double>(n) / Seconds(t0);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: lsm_loops leveldb|rocksdb DIR COUNT REPETITIONS\n");
    return 2;
  }
  const std::string engine = argv[1], dir = argv[2];
  const uint64_t n = std::strtoull(argv[3], nullptr, 10);
  for (int r = 0; r < std::atoi(argv[4]); ++r) {
    std::filesystem::remove_all(dir);
    double load = 0, get = 0;
    if (engine == "leveldb") {
      leveldb::Options o;
      o.create_if_missing = true;
      std::unique_ptr<leveldb::Cache> cache(leveldb::NewLRUCache(8 << 20));
      std::unique_ptr<const leveldb::FilterPolicy> bloom(leveldb::NewBloomFilterPolicy(10));
      o.block_cache = cache.get();
      o.filter_policy = bloom.get();
      leveldb::DB* db = nullptr;
      if (!leveldb::DB::Open(o, dir, &db).ok()) return 1;
      Run<leveldb::DB, leveldb::WriteOptions, leveldb::ReadOptions>(db, n, &load, &get);
      delete db;
    } else if (engine == "rocksdb") {
      rocksdb::Options o;
      o.create_if_missing = true;
      rocksdb::BlockBasedTableOptions t;
      t.block_cache = rocksdb::NewLRUCache(32 << 20);
      t.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
      o.table_factory.reset(rocksdb::NewBlockBasedTableFactory(t));
      rocksdb::DB* db = nullptr;
      if (!rocksdb::DB::Open(o, dir, &db).ok()) return 1;
      Run<rocksdb::DB, rocksdb::WriteOptions, rocksdb::ReadOptions>(db, n, &load, &get);
      delete db;
    } else {
      return 2;
    }
    std::printf("load %.0f get %.0f\n", load, get);
  }
  std::filesystem::remove_all(dir);
  return 0;
}
