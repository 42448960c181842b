// The `whitedb` adapter against bare loops on WhiteDB's C API (issue 30:
// the adapter within 10% of the bare loop), for seed 000's insert and
// indexed-query tests:
//   insert: speed5, RECORDS records of 5 growing integers, each created raw
//           and its fields set as new (wg_create_raw_record, wg_set_new_field,
//           wg_encode_int);
//   query:  speed13, on speed10's database (RECORDS records, field 3 the
//           record number mod 100,000, a T-tree on field 3), QUERIES queries
//           for field 3 == 123, each built, fetched to the end and freed.
// The adapter runs the same work through the contract as the seed-000
// workload does: InsertRecord in batches of 100,000 (one WhiteDB write lock
// per batch), QueryEqual with a limit of 100 inside one batch. Both run in
// private memory of 1,000,000,000 bytes, REPS times, which runs first
// alternating between repetitions; each line is one repetition's ops/s, and
// the last lines the medians and the ratios.
//
// Usage: whitedb_loops [RECORDS] [QUERIES] [REPS] [ONLY]   (10000000 1000000 5)
// ONLY (bare-insert, adapter-insert, bare-query or adapter-query) runs that
// one loop REPS times and prints its ops/s per repetition: for a profiler.
#include <whitedb/dbapi.h>
extern "C" {
#include <whitedb/indexapi.h>  // no extern "C" of its own
}

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "adapters/registry.h"
#include "adapters/whitedb/whitedb_messages.h"

namespace {

using Clock = std::chrono::steady_clock;
constexpr wg_int kSize = 1000000000;
constexpr uint64_t kBatch = 100000;

// How many of records 0..records-1 have field 3 (record number mod 100,000)
// equal to the value the queries ask for.
uint64_t Matching(uint64_t records) {
  constexpr uint64_t kSought = 123;
  return records / 100000 + (records % 100000 > kSought ? 1 : 0);
}

double Since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

void Check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "whitedb_loops: %s failed\n", what);
    std::exit(1);
  }
}

void Check(const kvbench::Status& s, const char* what) {
  if (!s.ok()) {
    std::fprintf(stderr, "whitedb_loops: %s: %s\n", what, s.ToString().c_str());
    std::exit(1);
  }
}

// speed5 as the seed wrote it. Returns records/s.
double BareInsert(uint64_t records) {
  void* db = wg_attach_local_database(kSize);
  Check(db != nullptr, "wg_attach_local_database");
  const auto t0 = Clock::now();
  for (uint64_t i = 0; i < records; ++i) {
    void* rec = wg_create_raw_record(db, 5);
    Check(rec != nullptr, "wg_create_raw_record");
    for (wg_int j = 0; j < 5; ++j) {
      wg_set_new_field(db, rec, j, wg_encode_int(db, static_cast<wg_int>(i) + j));
    }
  }
  const double s = Since(t0);
  wg_delete_local_database(db);
  return records / s;
}

// speed10's database (untimed), speed12's index (untimed), speed13's
// queries (timed). Returns queries/s.
double BareQuery(uint64_t records, uint64_t queries) {
  void* db = wg_attach_local_database(kSize);
  Check(db != nullptr, "wg_attach_local_database");
  for (uint64_t i = 0; i < records; ++i) {
    void* rec = wg_create_raw_record(db, 5);
    Check(rec != nullptr, "wg_create_raw_record");
    for (wg_int j = 0; j < 5; ++j) {
      const wg_int v = j == 3 ? static_cast<wg_int>(i % 100000) : static_cast<wg_int>(i) + j;
      wg_set_new_field(db, rec, j, wg_encode_int(db, v));
    }
  }
  Check(wg_create_index(db, 3, WG_INDEX_TYPE_TTREE, nullptr, 0) >= 0, "wg_create_index");
  uint64_t found = 0;
  const auto t0 = Clock::now();
  for (uint64_t q = 0; q < queries; ++q) {
    wg_query_arg arg;
    arg.column = 3;
    arg.cond = WG_COND_EQUAL;
    arg.value = wg_encode_query_param_int(db, 123);
    wg_query* query = wg_make_query(db, nullptr, 0, &arg, 1);
    Check(query != nullptr, "wg_make_query");
    while (wg_fetch(db, query) != nullptr) ++found;
    wg_free_query(db, query);
  }
  const double s = Since(t0);
  Check(found == queries * Matching(records), "the query's match count");
  wg_delete_local_database(db);
  return queries / s;
}

struct AdapterRun {
  std::unique_ptr<kvbench::Adapter> adapter;
  std::unique_ptr<kvbench::Session> session;
  std::unique_ptr<kvbench::RecordTable> table;

  AdapterRun() {
    Check(kvbench::AdapterRegistry::Global().Create("whitedb", &adapter), "create");
    kvbench::OpenRequest request;
    request.directory = "/tmp";
    Check(
        kvbench::ResolveEngineOptions("whitedb", adapter->OptionSpecs(),
                                      {{"whitedb.size", std::to_string(kSize)}}, &request.options),
        "options");
    Check(adapter->Open(request), "open");
    Check(adapter->NewSession(&session), "session");
    kvbench::RecordTableSpec spec;
    spec.types.assign(5, kvbench::FieldType::kInt64);
    Check(session->OpenRecordTable(spec, &table), "table");
  }
  ~AdapterRun() {
    table.reset();
    session.reset();
    adapter->Close();
  }

  // `field3` gives field 3's value for record i.
  template <class Field3>
  void Insert(uint64_t records, Field3 field3) {
    std::vector<kvbench::FieldValue> fields(5, kvbench::FieldValue::Int(0));
    kvbench::RecordId id;
    for (uint64_t i = 0; i < records; ++i) {
      if (i % kBatch == 0) Check(session->BeginBatch(), "begin");
      for (int j = 0; j < 5; ++j) fields[j].int_value = static_cast<int64_t>(i) + j;
      fields[3].int_value = field3(i);
      Check(table->InsertRecord(fields, &id), "insert");
      if ((i + 1) % kBatch == 0 || i + 1 == records) Check(session->CommitBatch(), "commit");
    }
  }
};

double AdapterInsert(uint64_t records) {
  AdapterRun run;
  const auto t0 = Clock::now();
  run.Insert(records, [](uint64_t i) { return static_cast<int64_t>(i) + 3; });
  return records / Since(t0);
}

double AdapterQuery(uint64_t records, uint64_t queries) {
  AdapterRun run;
  run.Insert(records, [](uint64_t i) { return static_cast<int64_t>(i % 100000); });
  Check(run.table->CreateIndex(3), "index");
  std::vector<kvbench::RecordId> matches;
  const kvbench::FieldValue sought = kvbench::FieldValue::Int(123);
  uint64_t found = 0;
  const auto t0 = Clock::now();
  Check(run.session->BeginBatch(), "begin");
  for (uint64_t q = 0; q < queries; ++q) {
    Check(run.table->QueryEqual(3, sought, 100, &matches), "query");
    found += matches.size();
  }
  Check(run.session->CommitBatch(), "commit");
  const double s = Since(t0);
  Check(found == queries * std::min<uint64_t>(100, Matching(records)), "the query's match count");
  return queries / s;
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

// One loop alone (main's ONLY argument). Returns main's exit code.
int RunOnly(const std::string& only, uint64_t records, uint64_t queries, int reps) {
  for (int r = 0; r < reps; ++r) {
    double rate;
    if (only == "bare-insert") {
      rate = BareInsert(records);
    } else if (only == "adapter-insert") {
      rate = AdapterInsert(records);
    } else if (only == "bare-query") {
      rate = BareQuery(records, queries);
    } else if (only == "adapter-query") {
      rate = AdapterQuery(records, queries);
    } else {
      std::fprintf(stderr,
                   "whitedb_loops: ONLY is bare-insert, adapter-insert, bare-query or "
                   "adapter-query, not '%s'\n",
                   only.c_str());
      return 2;
    }
    std::printf("rep %d  %s %.0f\n", r, only.c_str(), rate);
    std::fflush(stdout);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const uint64_t records = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 10000000;
  const uint64_t queries = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 1000000;
  const int reps = argc > 3 ? std::atoi(argv[3]) : 5;
  // As the adapter does at its first Open: WhiteDB's messages ("new index
  // created ...") kept off stderr, for the bare loops too.
  kvbench::ContainWhitedbMessages();
  if (argc > 4) return RunOnly(argv[4], records, queries, reps);
  std::vector<double> bare_insert, adapter_insert, bare_query, adapter_query;
  for (int r = 0; r < reps; ++r) {
    // Which goes first alternates: the first of a pair runs on memory the
    // previous one just returned, and that alone moved a ratio by 10%.
    if (r % 2 == 0) {
      bare_insert.push_back(BareInsert(records));
      adapter_insert.push_back(AdapterInsert(records));
      bare_query.push_back(BareQuery(records, queries));
      adapter_query.push_back(AdapterQuery(records, queries));
    } else {
      adapter_insert.push_back(AdapterInsert(records));
      bare_insert.push_back(BareInsert(records));
      adapter_query.push_back(AdapterQuery(records, queries));
      bare_query.push_back(BareQuery(records, queries));
    }
    std::printf("rep %d  insert bare %.0f adapter %.0f  query bare %.0f adapter %.0f\n", r,
                bare_insert.back(), adapter_insert.back(), bare_query.back(), adapter_query.back());
    std::fflush(stdout);
  }
  const double bi = Median(bare_insert), ai = Median(adapter_insert);
  const double bq = Median(bare_query), aq = Median(adapter_query);
  std::printf("insert (speed5): bare %.0f records/s, adapter %.0f records/s, ratio %.3f\n", bi, ai,
              ai / bi);
  std::printf("query (speed13): bare %.0f queries/s, adapter %.0f queries/s, ratio %.3f\n", bq, aq,
              aq / bq);
  return 0;
}
