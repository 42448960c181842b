// The bare loops kvbench's sqlite and lmdb figures are held against: what the
// adapters do, written directly against the libraries, with nothing of
// kvbench's in between. Same settings as the adapters' defaults (sqlite: WAL,
// synchronous=OFF, cache_size=1048576, a BLOB key table, prepared upsert and
// select; lmdb: MDB_NOSYNC|MDB_NOTLS, a 64 GiB map), the same keys as the
// `numbered` dataset with prefix "k" and 15 digits (16 bytes), 100-byte values,
// the load in one transaction, then uniformly random gets of present keys.
// The keys are made before each timed loop, as kvbench leaves its own key
// generation out of a phase's time: the loops time the library calls alone.
//
// Usage: bare_loops sqlite|lmdb DIR COUNT REPETITIONS
// Prints one line per repetition: "load <ops/s> get <ops/s>".
#include <lmdb.h>
#include <sqlite3.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
double Seconds(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}
// 15 digits: the modulo tells the compiler the key fits its 17 bytes.
void Key(uint64_t i, char* out) {
  std::snprintf(out, 17, "k%015llu",
                static_cast<unsigned long long>((i + 1) % 1000000000000000ULL));
}
// n keys of 16 bytes, back to back: in index order, or uniformly random
// present keys (the same draws for every engine).
std::vector<char> MakeKeys(uint64_t n, bool random) {
  std::vector<char> keys(n * 16 + 1);
  std::mt19937_64 rng(42);
  for (uint64_t i = 0; i < n; ++i) Key(random ? rng() % n : i, &keys[i * 16]);
  return keys;
}
void Check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "bare_loops: %s failed\n", what);
    std::exit(1);
  }
}

void Sqlite(const std::string& dir, uint64_t n, double* load, double* get) {
  sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
  sqlite3* db = nullptr;
  Check(sqlite3_open_v2((dir + "/data.sqlite").c_str(), &db,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                        nullptr) == SQLITE_OK,
        "open");
  Check(sqlite3_exec(db,
                     "PRAGMA journal_mode=WAL; PRAGMA synchronous=OFF; "
                     "PRAGMA cache_size=1048576; PRAGMA busy_timeout=60000; "
                     "CREATE TABLE kv(k BLOB PRIMARY KEY, v BLOB)",
                     nullptr, nullptr, nullptr) == SQLITE_OK,
        "setup");
  sqlite3_stmt *put, *sel;
  sqlite3_prepare_v2(
      db, "INSERT INTO kv(k, v) VALUES(?1, ?2) ON CONFLICT(k) DO UPDATE SET v = excluded.v", -1,
      &put, nullptr);
  sqlite3_prepare_v2(db, "SELECT v FROM kv WHERE k = ?1", -1, &sel, nullptr);
  char value[100];
  std::memset(value, 'v', sizeof value);
  std::vector<char> keys = MakeKeys(n, false);
  auto t0 = Clock::now();
  Check(sqlite3_exec(db, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) == SQLITE_OK, "begin");
  for (uint64_t i = 0; i < n; ++i) {
    sqlite3_bind_blob(put, 1, &keys[i * 16], 16, SQLITE_STATIC);
    sqlite3_bind_blob(put, 2, value, sizeof value, SQLITE_STATIC);
    Check(sqlite3_step(put) == SQLITE_DONE, "put");
    sqlite3_reset(put);
  }
  Check(sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr) == SQLITE_OK, "commit");
  *load = static_cast<double>(n) / Seconds(t0);
  keys = MakeKeys(n, true);
  std::string out;
  t0 = Clock::now();
  for (uint64_t i = 0; i < n; ++i) {
    sqlite3_bind_blob(sel, 1, &keys[i * 16], 16, SQLITE_STATIC);
    Check(sqlite3_step(sel) == SQLITE_ROW, "get");
    out.assign(static_cast<const char*>(sqlite3_column_blob(sel, 0)), sqlite3_column_bytes(sel, 0));
    sqlite3_reset(sel);
  }
  *get = static_cast<double>(n) / Seconds(t0);
  sqlite3_finalize(put);
  sqlite3_finalize(sel);
  sqlite3_close(db);
}

void Lmdb(const std::string& dir, uint64_t n, double* load, double* get) {
  MDB_env* env;
  mdb_env_create(&env);
  mdb_env_set_mapsize(env, size_t{64} << 30);
  Check(mdb_env_open(env, dir.c_str(), MDB_NOSYNC | MDB_NOTLS, 0644) == 0, "open");
  MDB_txn* txn;
  MDB_dbi dbi;
  char value[100];
  std::memset(value, 'v', sizeof value);
  std::vector<char> keys = MakeKeys(n, false);
  auto t0 = Clock::now();
  Check(mdb_txn_begin(env, nullptr, 0, &txn) == 0, "begin");
  mdb_dbi_open(txn, nullptr, 0, &dbi);
  for (uint64_t i = 0; i < n; ++i) {
    MDB_val k{16, &keys[i * 16]}, v{sizeof value, value};
    Check(mdb_put(txn, dbi, &k, &v, 0) == 0, "put");
  }
  Check(mdb_txn_commit(txn) == 0, "commit");
  *load = static_cast<double>(n) / Seconds(t0);
  keys = MakeKeys(n, true);
  std::string out;
  Check(mdb_txn_begin(env, nullptr, MDB_RDONLY, &txn) == 0, "read txn");
  mdb_txn_reset(txn);
  t0 = Clock::now();
  for (uint64_t i = 0; i < n; ++i) {
    MDB_val k{16, &keys[i * 16]}, v;
    mdb_txn_renew(txn);  // as the adapter: one read transaction per get
    Check(mdb_get(txn, dbi, &k, &v) == 0, "get");
    out.assign(static_cast<const char*>(v.mv_data), v.mv_size);
    mdb_txn_reset(txn);
  }
  *get = static_cast<double>(n) / Seconds(t0);
  mdb_txn_abort(txn);
  mdb_env_close(env);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: bare_loops sqlite|lmdb DIR COUNT REPETITIONS\n");
    return 2;
  }
  const std::string engine = argv[1], dir = argv[2];
  const uint64_t n = std::strtoull(argv[3], nullptr, 10);
  const int reps = std::atoi(argv[4]);
  for (int r = 0; r < reps; ++r) {
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    double load = 0, get = 0;
    if (engine == "sqlite") {
      Sqlite(dir, n, &load, &get);
    } else if (engine == "lmdb") {
      Lmdb(dir, n, &load, &get);
    } else {
      return 2;
    }
    std::printf("load %.0f get %.0f\n", load, get);
  }
  std::filesystem::remove_all(dir);
  return 0;
}
