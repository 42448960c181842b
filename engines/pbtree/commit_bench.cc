// commit_bench: the cost of small commits (seed 001's insert-one-per-txn
// phase) on a loaded tree, without the harness: `base` URL-like keys (~142
// bytes, 40-byte values) loaded in 64K-key transactions, then `commits`
// one-key transactions (DB::Put) of new keys interleaved with the loaded ones.
//
//   build/engines/pbtree/pbtree_commit_bench [base] [commits] [none|commit] [dir] [wal|nowal]
//                                            [keys-file] [asis|reorganize]
//
// With `keys-file` (one key per line, e.g. `kvbench gen urls --count N`), the
// load takes its first `base` lines in file order and the commits the next
// `commits` lines, as seed 001 does; without it, even keys are loaded and odd
// ones committed in increasing order.
// `nowal` commits as pbtree did before the log (every commit writes its
// pages and a meta page), for A/B runs in one binary. `reorganize` syncs and
// reorganizes the loaded tree before the commits, as seed 001 does.
// Prints the load's and the commits' rates, the CPU time of the commits
// (this thread's, which other processes on the machine do not inflate as
// much as the wall time) and the pager's counters; for a profile run it
// under `perf record -g`.
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "engines/pbtree/pbtree.h"

namespace {

std::string Key(uint64_t i) {
  char buf[160];
  std::snprintf(buf, sizeof(buf),
                "https://www.example.org/archive/section-%03llu/topic-%05llu/"
                "documents/2026/11/very-long-path-name-for-prefix-tests/item-%012llu.html",
                static_cast<unsigned long long>(i / 100000 % 1000),
                static_cast<unsigned long long>(i / 100 % 100000),
                static_cast<unsigned long long>(i));
  return buf;
}

double Seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

// This thread's user and system CPU seconds and minor page faults.
struct ThreadUsage {
  double user = 0;
  double system = 0;
  long minor_faults = 0;
};

ThreadUsage GetThreadUsage() {
  rusage ru{};
  getrusage(RUSAGE_THREAD, &ru);
  const auto seconds = [](const timeval& tv) {
    return static_cast<double>(tv.tv_sec) + static_cast<double>(tv.tv_usec) * 1e-6;
  };
  return ThreadUsage{seconds(ru.ru_utime), seconds(ru.ru_stime), ru.ru_minflt};
}

int Fail(const pbtree::Status& s) {
  std::fprintf(stderr, "pbtree_commit_bench: %s\n", s.ToString().c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  const uint64_t base = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 262144;
  const uint64_t commits = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 65536;
  const bool sync = argc > 3 && std::string(argv[3]) == "commit";
  const std::string dir = argc > 4 ? argv[4] : "/tmp";
  const bool wal = !(argc > 5 && std::string(argv[5]) == "nowal");
  const bool reorganize = argc > 7 && std::string(argv[7]) == "reorganize";
  std::vector<std::string> file_keys;
  if (argc > 6) {
    std::ifstream in(argv[6]);
    for (std::string line; file_keys.size() < base + commits && std::getline(in, line);) {
      file_keys.push_back(line);
    }
    if (file_keys.size() < base + commits) {
      std::fprintf(stderr, "pbtree_commit_bench: %s has fewer than %llu lines\n", argv[6],
                   static_cast<unsigned long long>(base + commits));
      return 1;
    }
  }
  // The i-th loaded key and the i-th committed key.
  auto loaded_key = [&](uint64_t i) { return file_keys.empty() ? Key(2 * i) : file_keys[i]; };
  auto committed_key = [&](uint64_t i) {
    return file_keys.empty() ? Key(2 * (i * (base / std::max<uint64_t>(commits, 1))) + 1)
                             : file_keys[base + i];
  };
  const std::string path = dir + "/pbtree_commit_bench.db";
  std::remove(path.c_str());
  std::remove((path + "-log").c_str());
  pbtree::Options options;
  options.sync = sync ? pbtree::SyncMode::kCommit : pbtree::SyncMode::kNone;
  options.wal = wal;
  std::unique_ptr<pbtree::DB> db;
  pbtree::Status s = pbtree::DB::Open(options, path, &db);
  if (!s.ok()) return Fail(s);
  const std::string value(40, 'v');
  auto start = std::chrono::steady_clock::now();
  for (uint64_t i = 0; i < base;) {
    std::unique_ptr<pbtree::WriteTxn> txn;
    if (!(s = db->BeginWrite(&txn)).ok()) return Fail(s);
    for (uint64_t end = std::min(base, i + 65536); i < end; ++i) {
      if (!(s = txn->Put(loaded_key(i), value)).ok()) return Fail(s);
    }
    if (!(s = txn->Commit()).ok()) return Fail(s);
  }
  const double load = Seconds(start);
  if (reorganize) {
    if (!(s = db->Sync()).ok()) return Fail(s);
    if (!(s = db->Reorganize()).ok()) return Fail(s);
  }
  pbtree::Stats before;
  db->GetStats(&before);
  start = std::chrono::steady_clock::now();
  const ThreadUsage usage_start = GetThreadUsage();
  for (uint64_t i = 0; i < commits; ++i) {
    if (!(s = db->Put(committed_key(i), value)).ok()) return Fail(s);
  }
  const double one = Seconds(start);
  const ThreadUsage usage_end = GetThreadUsage();
  // Counters before GetStats, whose checkpoint writes pages too.
  const auto close_start = std::chrono::steady_clock::now();
  pbtree::Stats after;
  db->GetStats(&after);
  const double checkpoint = Seconds(close_start);
  std::printf("load %llu keys: %.0f puts/s\n", static_cast<unsigned long long>(base), base / load);
  std::printf("%llu one-key commits (%s, %s): %.0f commits/s, %.2f us each\n",
              static_cast<unsigned long long>(commits), sync ? "sync=commit" : "sync=none",
              wal ? "wal" : "nowal", commits / one, one * 1e6 / commits);
  const double n = static_cast<double>(commits);
  std::printf("cpu time of the commits: %.2f us each (user %.2f, system %.2f), %.3f minor faults\n",
              (usage_end.user + usage_end.system - usage_start.user - usage_start.system) * 1e6 / n,
              (usage_end.user - usage_start.user) * 1e6 / n,
              (usage_end.system - usage_start.system) * 1e6 / n,
              (usage_end.minor_faults - usage_start.minor_faults) / n);
  std::printf("per commit: %.2f pages written, %.2f write calls, %.2f syncs; %.2f in place\n",
              (after.pages_written - before.pages_written) / n,
              (after.write_calls - before.write_calls) / n, (after.syncs - before.syncs) / n,
              (after.in_place_commits - before.in_place_commits) / n);
  std::printf("descents per commit: %.3f from the root, %.3f from the leaf's parent, %.3f none\n",
              (after.descents_from_root - before.descents_from_root) / n,
              (after.descents_from_parent - before.descents_from_parent) / n,
              (after.descents_skipped - before.descents_skipped) / n);
  std::printf("checkpoint and stats walk after the commits: %.3f s\n", checkpoint);
  s = db->Check();
  if (!s.ok()) return Fail(s);
  std::printf("check: ok, %llu keys, depth %u\n", static_cast<unsigned long long>(db->Count()),
              after.depth);
  return 0;
}
