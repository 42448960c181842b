// pbtree over a long run (issue 22): a large `urls` load (seed 001's keys and
// 40-byte values, 64K keys per transaction, index order), then half of the
// keys deleted at random, Reorganize(), and a fresh load of the keys that
// remain for comparison. Printed, every 1/10 of the load: keys, file bytes,
// file bytes per key (linear growth keeps it flat) and the process's peak
// RSS per key; then the file after the deletes, after Reorganize() and the
// fresh file of the same keys, and their ratio (the aim: within 1.10).
//
// Usage: pbtree_long_run [KEYS=10485760] [DIRECTORY=/tmp]
// The load generates its keys on the fly, so the RSS it reports is pbtree's
// (its cache, Options::cache_bytes = 256 MiB by default, and an open
// transaction's pages) plus the program; the deletes' shuffled index list
// (8 bytes per key) comes after.
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "datasets/key_generator.h"
#include "datasets/random.h"
#include "datasets/value_generator.h"
#include "engines/pbtree/pbtree.h"

namespace {

constexpr uint64_t kBatch = 65536;

double Seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

// A field of /proc/self/status in bytes ("RssAnon", "RssFile"); 0 if absent.
uint64_t StatusBytes(const std::string& field) {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind(field + ":", 0) == 0) {
      return std::strtoull(line.c_str() + field.size() + 1, nullptr, 10) * 1024;
    }
  }
  return 0;
}

uint64_t PeakRssBytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<uint64_t>(usage.ru_maxrss) * 1024;
}

[[noreturn]] void Die(const std::string& what, const pbtree::Status& s) {
  std::fprintf(stderr, "pbtree_long_run: %s: %s\n", what.c_str(), s.ToString().c_str());
  std::exit(1);
}

void Check(const std::string& what, const pbtree::Status& s) {
  if (!s.ok()) Die(what, s);
}

// Calls write(txn, n) for n = 0 .. count - 1 in transactions of kBatch, and
// committed(n + 1) after each commit.
template <typename Write, typename Committed>
void InBatches(pbtree::DB* db, uint64_t count, Write write, Committed committed) {
  std::unique_ptr<pbtree::WriteTxn> txn;
  for (uint64_t n = 0; n < count; ++n) {
    if (txn == nullptr) Check("begin", db->BeginWrite(&txn));
    write(txn.get(), n);
    if ((n + 1) % kBatch == 0 || n + 1 == count) {
      Check("commit", txn->Commit());
      txn.reset();
      committed(n + 1);
    }
  }
}

// Puts keys `indexes` (with their values; nullptr: 0 to count - 1) in
// transactions of kBatch.
void Load(pbtree::DB* db, const kvbench::datasets::KeyGenerator& keys,
          const std::vector<uint64_t>* indexes, uint64_t count, const std::string& path,
          bool report) {
  kvbench::datasets::ValueGenerator values(kvbench::datasets::ValueOptions{}, 1);
  std::string key, value;
  const auto start = std::chrono::steady_clock::now();
  // Reported at commits only (the file grows when a transaction commits).
  const uint64_t step = std::max<uint64_t>(count / 10 / kBatch, 1) * kBatch;
  InBatches(
      db, count,
      [&](pbtree::WriteTxn* txn, uint64_t n) {
        const uint64_t index = indexes == nullptr ? n : (*indexes)[n];
        keys.Key(index, &key);
        values.Value(index, 0, &value);
        Check("put", txn->Put(key, value));
      },
      [&](uint64_t done) {
        if (!report || (done % step != 0 && done != count)) return;
        const uint64_t file = std::filesystem::file_size(path);
        std::printf("%12llu  %14llu  %9.1f  %12.1f  %7.1f\n", static_cast<unsigned long long>(done),
                    static_cast<unsigned long long>(file), double(file) / double(done),
                    double(PeakRssBytes()) / double(done), Seconds(start));
        std::fflush(stdout);
      });
}

}  // namespace

int main(int argc, char** argv) {
  const uint64_t count = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 10485760;
  const std::filesystem::path dir =
      std::filesystem::path(argc > 2 ? argv[2] : "/tmp") / "kvbench-pbtree-long-run";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string path = dir / "long.db", fresh_path = dir / "fresh.db";

  kvbench::datasets::DatasetSpec spec;
  spec.kind = "urls";
  spec.count = count;
  std::unique_ptr<kvbench::datasets::KeyGenerator> keys;
  if (kvbench::Status s = kvbench::datasets::NewKeyGenerator(spec, &keys); !s.ok()) {
    std::fprintf(stderr, "pbtree_long_run: %s\n", s.ToString().c_str());
    return 1;
  }
  pbtree::Options options;
  std::printf(
      "pbtree long run: %llu urls keys, 40-byte values, %llu per transaction, cache "
      "%llu MiB\n\n",
      static_cast<unsigned long long>(count), static_cast<unsigned long long>(kBatch),
      static_cast<unsigned long long>(options.cache_bytes >> 20));
  std::printf("%12s  %14s  %9s  %12s  %7s\n", "keys", "file bytes", "B/key", "peak RSS B/key", "s");

  std::unique_ptr<pbtree::DB> db;
  Check("open", pbtree::DB::Open(options, path, &db));
  Load(db.get(), *keys, nullptr, count, path, /*report=*/true);
  const uint64_t loaded_bytes = std::filesystem::file_size(path);
  const uint64_t load_peak_rss = PeakRssBytes();
  // Pages read through pbtree's mapping of its file count in RSS as file
  // pages (the kernel's page cache, reclaimable), apart from its own memory.
  const uint64_t load_rss_anon = StatusBytes("RssAnon"), load_rss_file = StatusBytes("RssFile");

  // Half the keys, chosen at random, deleted in transactions of kBatch.
  kvbench::datasets::Rng rng(11);
  std::vector<uint64_t> order(count);
  for (uint64_t i = 0; i < count; ++i) order[i] = i;
  for (uint64_t i = count; i > 1; --i) std::swap(order[i - 1], order[rng.Uniform(i)]);
  const uint64_t deletes = count / 2;
  auto start = std::chrono::steady_clock::now();
  std::string key;
  InBatches(
      db.get(), deletes,
      [&](pbtree::WriteTxn* txn, uint64_t n) {
        keys->Key(order[n], &key);
        Check("delete", txn->Delete(key));
      },
      [](uint64_t) {});
  const double delete_s = Seconds(start);
  const uint64_t after_delete_bytes = std::filesystem::file_size(path);
  start = std::chrono::steady_clock::now();
  Check("reorganize", db->Reorganize());
  const double reorganize_s = Seconds(start);
  const uint64_t reorganized_bytes = std::filesystem::file_size(path);
  if (db->Count() != count - deletes) {
    std::fprintf(stderr, "pbtree_long_run: %llu keys left, expected %llu\n",
                 static_cast<unsigned long long>(db->Count()),
                 static_cast<unsigned long long>(count - deletes));
    return 1;
  }
  Check("check", db->Check());
  db.reset();

  // The same remaining keys loaded into a new file, in index order.
  std::vector<uint64_t> remaining(order.begin() + deletes, order.end());
  std::sort(remaining.begin(), remaining.end());
  std::unique_ptr<pbtree::DB> fresh;
  Check("open fresh", pbtree::DB::Open(options, fresh_path, &fresh));
  Load(fresh.get(), *keys, &remaining, remaining.size(), fresh_path, /*report=*/false);
  fresh.reset();
  const uint64_t fresh_bytes = std::filesystem::file_size(fresh_path);

  std::printf("\nafter the load:          %14llu bytes\n",
              static_cast<unsigned long long>(loaded_bytes));
  std::printf("after %llu deletes:  %14llu bytes (%.1f s)\n",
              static_cast<unsigned long long>(deletes),
              static_cast<unsigned long long>(after_delete_bytes), delete_s);
  std::printf("after Reorganize():      %14llu bytes (%.1f s)\n",
              static_cast<unsigned long long>(reorganized_bytes), reorganize_s);
  std::printf("fresh load of the rest:  %14llu bytes\n",
              static_cast<unsigned long long>(fresh_bytes));
  std::printf("reorganized / fresh:     %.3f\n", double(reorganized_bytes) / double(fresh_bytes));
  std::printf("peak RSS of the load:     %14llu bytes (%.1f per key loaded)\n",
              static_cast<unsigned long long>(load_peak_rss),
              double(load_peak_rss) / double(count));
  std::printf("RSS at the load's end:    %14llu bytes anonymous (%.1f per key), %llu file-backed\n",
              static_cast<unsigned long long>(load_rss_anon), double(load_rss_anon) / double(count),
              static_cast<unsigned long long>(load_rss_file));
  std::filesystem::remove_all(dir);
  return 0;
}
