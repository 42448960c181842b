// native_bench: seed 000's WhiteDB speed tests (speed1..speed16) against
// nativedb, at a chosen size.
//
//   native_bench [--records=N] [google benchmark flags]
//
// Times are wall-clock (UseRealTime): run it on an idle machine. N (default
// 1000000; the seed uses 10000000) is the record count of the
// insert, scan, index and chain tests. Field 3 of the scan/index database
// holds i % (N / 100), so every value occurs on 100 records, as in the seed's
// 10M records with 100000 distinct values. Each insert test creates its
// database outside the timed region (CreateDelete times that on its own),
// except InsertIntsFromNothing, which counts creation without prefaulting so
// that it pays the same page faults as the fresh-memory baseline.
#include <benchmark/benchmark.h>
#include <sys/mman.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "engines/native/database.h"

namespace {

using nativedb::Database;
using nativedb::Options;
using nativedb::Record;
using nativedb::Status;
using nativedb::Value;

constexpr uint32_t kFields = 5;

uint64_t g_records = 1000000;

uint64_t ArenaBytes(uint64_t records) { return records * 128 + (uint64_t{64} << 20); }

std::unique_ptr<Database> NewDb(uint64_t bytes, bool prefault = true) {
  Options options;
  options.size = bytes;
  options.prefault = prefault;
  std::unique_ptr<Database> db;
  Status st = Database::Create(options, &db);
  if (!st.ok()) return nullptr;
  return db;
}

// Baseline: 5N words of fresh memory written once, page faults included, as
// the seed's "allocate 1 GB and write 50 million integers". mmap rather than
// malloc: glibc would recycle a freed block, and recycled memory is not fresh.
void BM_BaselineWriteFreshMemory(benchmark::State& state) {
  const uint64_t words = g_records * kFields;
  for (auto _ : state) {
    void* mapping =
        mmap(nullptr, words * 8, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapping == MAP_FAILED) return state.SkipWithError("mmap failed");
    auto* block = static_cast<uint64_t*>(mapping);
    for (uint64_t i = 0; i < words; ++i) block[i] = i;
    benchmark::DoNotOptimize(block);
    benchmark::ClobberMemory();
    state.PauseTiming();
    munmap(mapping, words * 8);
    state.ResumeTiming();
  }
  state.SetItemsProcessed(static_cast<int64_t>(words * state.iterations()));
}

// speed1: create and delete a database of state.range(0) MiB.
void BM_CreateDelete(benchmark::State& state) {
  const uint64_t bytes = static_cast<uint64_t>(state.range(0)) << 20;
  for (auto _ : state) {
    auto db = NewDb(bytes);
    if (db == nullptr) return state.SkipWithError("create failed");
    db.reset();
  }
}

// Runs `body(db)` on a fresh database each iteration; creation and deletion
// are not timed.
template <class Body>
void OnFreshDb(benchmark::State& state, uint64_t bytes, uint64_t items, Body body) {
  for (auto _ : state) {
    state.PauseTiming();
    auto db = NewDb(bytes);
    if (db == nullptr) return state.SkipWithError("create failed");
    state.ResumeTiming();
    if (!body(*db)) return state.SkipWithError("operation failed");
    state.PauseTiming();
    db.reset();
    state.ResumeTiming();
  }
  state.SetItemsProcessed(static_cast<int64_t>(items * state.iterations()));
}

// speed2: N records of 5 NULL fields.
void BM_InsertNullRecords(benchmark::State& state) {
  OnFreshDb(state, ArenaBytes(g_records), g_records, [](Database& db) {
    Record r;
    for (uint64_t i = 0; i < g_records; ++i) {
      if (!db.CreateRecord(kFields, &r).ok()) return false;
    }
    return true;
  });
}

// speed4: create each record and delete it at once.
void BM_InsertDeleteRecords(benchmark::State& state) {
  OnFreshDb(state, ArenaBytes(g_records), g_records, [](Database& db) {
    Record r;
    for (uint64_t i = 0; i < g_records; ++i) {
      if (!db.CreateRecord(kFields, &r).ok() || !db.DeleteRecord(r).ok()) return false;
    }
    return true;
  });
}

// speed5: N records of 5 growing integers, "as new" (wg_set_new_field) or
// checked (wg_set_field), optionally reading each value back.
template <bool kChecked, bool kReadBack>
bool InsertInts(Database& db) {
  Record r;
  int64_t sum = 0;
  for (uint64_t i = 0; i < g_records; ++i) {
    if (!db.CreateRecord(kFields, &r).ok()) return false;
    for (uint32_t f = 0; f < kFields; ++f) {
      const Value v = Value::Int(static_cast<int64_t>(i + f));
      if (!(kChecked ? db.SetField(r, f, v) : db.SetNewField(r, f, v)).ok()) return false;
      if (kReadBack) sum += db.GetField(r, f).int_value();
    }
  }
  benchmark::DoNotOptimize(sum);
  return true;
}

template <bool kChecked, bool kReadBack>
void BM_InsertInts(benchmark::State& state) {
  OnFreshDb(state, ArenaBytes(g_records), g_records, InsertInts<kChecked, kReadBack>);
}

// The insert test timed from nothing: creating the arena without prefault is
// inside the timing, so it faults pages in as the baseline does.
void BM_InsertIntsFromNothing(benchmark::State& state) {
  for (auto _ : state) {
    auto db = NewDb(ArenaBytes(g_records), /*prefault=*/false);
    if (db == nullptr || !InsertInts<false, false>(*db)) return state.SkipWithError("failed");
    state.PauseTiming();
    db.reset();
    state.ResumeTiming();
  }
  state.SetItemsProcessed(static_cast<int64_t>(g_records * state.iterations()));
}

// speed5 variant: N*5/50000 records of 50000 fields each.
void BM_InsertLongRecords(benchmark::State& state) {
  constexpr uint32_t kLong = 50000;
  const uint64_t records = g_records * kFields / kLong;
  OnFreshDb(state, ArenaBytes(g_records), records * kLong, [records](Database& db) {
    Record r;
    for (uint64_t i = 0; i < records; ++i) {
      if (!db.CreateRecord(kLong, &r).ok()) return false;
      for (uint32_t f = 0; f < kLong; ++f) {
        if (!db.SetNewField(r, f, Value::Int(static_cast<int64_t>(f))).ok()) return false;
      }
    }
    return true;
  });
}

// speed6/7/8: N/10 records of 5 fields holding one value (a 30-byte string,
// a 100-byte interned string, a double).
void InsertValues(benchmark::State& state, Value value) {
  const uint64_t records = g_records / 10;
  OnFreshDb(state, ArenaBytes(g_records), records, [records, value](Database& db) {
    Record r;
    for (uint64_t i = 0; i < records; ++i) {
      if (!db.CreateRecord(kFields, &r).ok()) return false;
      for (uint32_t f = 0; f < kFields; ++f) {
        if (!db.SetNewField(r, f, value).ok()) return false;
      }
    }
    return true;
  });
}

const std::string kString30(30, 's');
const std::string kString100(100, 'S');
void BM_InsertString30(benchmark::State& state) { InsertValues(state, Value::String(kString30)); }
void BM_InsertString100(benchmark::State& state) { InsertValues(state, Value::String(kString100)); }
void BM_InsertDouble(benchmark::State& state) { InsertValues(state, Value::Double(3.25)); }

// speed10: the database the scan, index and query tests share (built once).
Database* ScanDb() {
  static std::unique_ptr<Database> db = [] {
    auto fresh = NewDb(ArenaBytes(g_records));
    const int64_t distinct = static_cast<int64_t>(g_records / 100);
    Record r;
    for (uint64_t i = 0; i < g_records; ++i) {
      fresh->CreateRecord(kFields, &r);
      for (uint32_t f = 0; f < kFields; ++f) {
        const int64_t v = f == 3 ? static_cast<int64_t>(i) % distinct : static_cast<int64_t>(i);
        fresh->SetNewField(r, f, Value::Int(v));
      }
    }
    return fresh;
  }();
  return db.get();
}

// speed11: scan all records for field 3 == 123 (100 matches).
void BM_ScanField(benchmark::State& state) {
  Database* db = ScanDb();
  size_t found = 0;
  for (auto _ : state) found = db->ScanEqual(3, Value::Int(123), 0, nullptr);
  if (found != 100) state.SkipWithError("expected 100 matches");
  state.SetItemsProcessed(static_cast<int64_t>(g_records * state.iterations()));
}

// speed12: build the index on field 3 (dropping it again is not timed).
void BM_BuildIndex(benchmark::State& state) {
  Database* db = ScanDb();
  for (auto _ : state) {
    if (!db->CreateIndex(3).ok()) return state.SkipWithError("create index failed");
    state.PauseTiming();
    db->DropIndex(3);
    state.ResumeTiming();
  }
  state.SetItemsProcessed(static_cast<int64_t>(g_records * state.iterations()));
}

// speed13: indexed equality queries collecting their 100 matches; the seed
// repeats value 123, the random variant spreads queries over every value.
template <bool kRandomKeys>
void BM_IndexedQuery(benchmark::State& state) {
  Database* db = ScanDb();
  if (!db->HasIndex(3) && !db->CreateIndex(3).ok()) return state.SkipWithError("no index");
  const uint64_t distinct = g_records / 100;
  std::vector<Record> out;
  out.reserve(128);
  uint64_t key = 123;
  size_t matches = 0;
  for (auto _ : state) {
    if (kRandomKeys) key = (key * 6364136223846793005ULL + 1442695040888963407ULL);
    db->FindEqual(3, Value::Int(static_cast<int64_t>(kRandomKeys ? key % distinct : key)), 0, &out);
    matches += out.size();
  }
  if (matches != 100 * static_cast<size_t>(state.iterations())) {
    state.SkipWithError("expected 100 matches per query");
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
}

// speed15: a chain of N records, each pointing at the one before in field 3;
// field 2 of the first points at the last.
bool BuildChain(Database& db) {
  Record first, prev, r;
  if (!db.CreateRecord(kFields, &first).ok()) return false;
  prev = first;
  for (uint64_t i = 1; i < g_records; ++i) {
    if (!db.CreateRecord(kFields, &r).ok()) return false;
    if (!db.SetNewField(r, 3, Value::Ref(prev)).ok()) return false;
    prev = r;
  }
  return db.SetNewField(first, 2, Value::Ref(prev)).ok();
}

void BM_BuildChain(benchmark::State& state) {
  OnFreshDb(state, ArenaBytes(g_records), g_records, BuildChain);
}

// speed16: follow the chain from the last record back to the first.
void BM_TraverseChain(benchmark::State& state) {
  static std::unique_ptr<Database> db = [] {
    auto fresh = NewDb(ArenaBytes(g_records));
    BuildChain(*fresh);
    return fresh;
  }();
  const Record last = db->GetField(db->FirstRecord(), 2).record_value();
  uint64_t count = 0;
  for (auto _ : state) {
    count = 0;
    for (Record r = last; r; r = db->GetField(r, 3).record_value()) ++count;
    benchmark::DoNotOptimize(count);
  }
  if (count != g_records) state.SkipWithError("chain length is wrong");
  state.SetItemsProcessed(static_cast<int64_t>(g_records * state.iterations()));
}

// Wall-clock times in milliseconds (queries in nanoseconds).
benchmark::internal::Benchmark* Add(const char* name, void (*fn)(benchmark::State&),
                                    benchmark::TimeUnit unit = benchmark::kMillisecond) {
  return benchmark::RegisterBenchmark(name, fn)->Unit(unit)->UseRealTime();
}

void RegisterAll() {
  Add("BaselineWriteFreshMemory", BM_BaselineWriteFreshMemory);
  Add("CreateDelete/MiB", BM_CreateDelete)->Arg(10)->Arg(1024);
  Add("InsertNullRecords", BM_InsertNullRecords);
  Add("InsertDeleteRecords", BM_InsertDeleteRecords);
  Add("InsertInts/SetNewField", BM_InsertInts<false, false>);
  Add("InsertInts/SetField", BM_InsertInts<true, false>);
  Add("InsertInts/ReadBack", BM_InsertInts<false, true>);
  Add("InsertIntsFromNothing", BM_InsertIntsFromNothing);
  Add("InsertLongRecords", BM_InsertLongRecords);
  Add("InsertString30/tenth", BM_InsertString30);
  Add("InsertString100/tenth", BM_InsertString100);
  Add("InsertDouble/tenth", BM_InsertDouble);
  Add("ScanField", BM_ScanField);
  Add("BuildIndex", BM_BuildIndex);
  Add("IndexedQuery/SameKey", BM_IndexedQuery<false>, benchmark::kNanosecond);
  Add("IndexedQuery/RandomKeys", BM_IndexedQuery<true>, benchmark::kNanosecond);
  Add("BuildChain", BM_BuildChain);
  Add("TraverseChain", BM_TraverseChain);
}

}  // namespace

int main(int argc, char** argv) {
  // --records=N is ours; everything else goes to Google Benchmark.
  std::vector<char*> rest;
  for (int i = 0; i < argc; ++i) {
    if (std::strncmp(argv[i], "--records=", 10) == 0) {
      g_records = std::strtoull(argv[i] + 10, nullptr, 10);
      if (g_records < 100) g_records = 100;
    } else {
      rest.push_back(argv[i]);
    }
  }
  int rest_argc = static_cast<int>(rest.size());
  benchmark::AddCustomContext("records", std::to_string(g_records));
  RegisterAll();
  benchmark::Initialize(&rest_argc, rest.data());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
