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
// per batch), QueryEqual with a limit of 100 inside a batch. Every database
// is private memory of 1,000,000,000 bytes.
//
// How it compares. Each repetition gives three databases: the bare loop's
// (A), the adapter's, and a second bare loop's (B), B being the noise check:
// B/A should be 1. The test runs on the three in slices (100,000 records, or
// 10,000 queries), slice k on each of them in turn, the order rotating with
// k, so all three see the machine in the same state within a fraction of a
// second; slow spells of this VM, which last seconds, hit all three alike.
// A side's time is the sum of its slices. Memory is in the same state for
// all: WhiteDB mallocs its database, and left to itself glibc maps 1 GB
// afresh for each and the run spends a third of its time faulting pages in.
// Here malloc never maps (M_MMAP_MAX 0) nor gives memory back
// (M_TRIM_THRESHOLD), and the heap is grown and faulted in once at the start,
// so no timed slice faults a page (each line prints its faults to show it).
// A warm-up repetition is run and thrown away.
//
// Figures: per repetition the ratios adapter/A and B/A of operations per
// second (below 1 is slower than A); over the repetitions their medians with
// a distribution-free interval (order statistics, binomial coverage printed),
// and the instructions and cycles per operation counted in user space over
// the timed slices only (perf_event_open): the instructions do not depend on
// the machine's noise.
//
// Usage: whitedb_loops [RECORDS] [QUERIES] [REPS] [ONLY]   (10000000 1000000 5)
// QUERIES 0 runs the insert test only.
// ONLY (bare-insert, adapter-insert, bare-query or adapter-query) runs that
// one side alone REPS times and prints each run: for a profiler.
#include <linux/perf_event.h>
#include <malloc.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <whitedb/dbapi.h>
extern "C" {
#include <whitedb/indexapi.h>  // no extern "C" of its own
}

#include <algorithm>
#include <array>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "adapters/registry.h"
#include "adapters/whitedb/whitedb_messages.h"

namespace {

using Clock = std::chrono::steady_clock;
constexpr wg_int kSize = 1000000000;
constexpr uint64_t kBatch = 100000;      // records per insert slice (and adapter batch)
constexpr uint64_t kQuerySlice = 10000;  // queries per query slice
constexpr int kSides = 3;                // bare A, adapter, bare B

[[noreturn, gnu::cold, gnu::noinline]] void Fail(const char* what, const kvbench::Status* s) {
  if (s == nullptr) {
    std::fprintf(stderr, "whitedb_loops: %s failed\n", what);
  } else {
    std::fprintf(stderr, "whitedb_loops: %s: %s\n", what, s->ToString().c_str());
  }
  std::exit(1);
}

// Inline checks with the failure out of line, so the adapter's loop pays a
// test per call, as the bare loop does.
inline void Check(bool ok, const char* what) {
  if (!ok) [[unlikely]] {
    Fail(what, nullptr);
  }
}

inline void Check(const kvbench::Status& s, const char* what) {
  if (!s.ok()) [[unlikely]] {
    Fail(what, &s);
  }
}

// How many of records 0..records-1 have field 3 (record number mod 100,000)
// equal to the value the queries ask for.
uint64_t Matching(uint64_t records) {
  constexpr uint64_t kSought = 123;
  return records / 100000 + (records % 100000 > kSought ? 1 : 0);
}

// Instructions retired and cycles spent in user space by this thread,
// counted by the PMU (perf_event_open). available() is false where the
// kernel or the VM gives no counter; then neither is printed.
class PmuCounters {
 public:
  PmuCounters()
      : instructions_(Open(PERF_COUNT_HW_INSTRUCTIONS)), cycles_(Open(PERF_COUNT_HW_CPU_CYCLES)) {}
  ~PmuCounters() {
    if (instructions_ >= 0) close(instructions_);
    if (cycles_ >= 0) close(cycles_);
  }
  bool available() const { return instructions_ >= 0 && cycles_ >= 0; }
  void Start() {
    for (const int fd : {instructions_, cycles_}) {
      if (fd < 0) continue;
      ioctl(fd, PERF_EVENT_IOC_RESET, 0);
      ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
    }
  }
  // {instructions, cycles} since Start.
  std::pair<uint64_t, uint64_t> Stop() { return {Read(instructions_), Read(cycles_)}; }

 private:
  static int Open(uint64_t config) {
    perf_event_attr attr;
    std::memset(&attr, 0, sizeof(attr));
    attr.size = sizeof(attr);
    attr.type = PERF_TYPE_HARDWARE;
    attr.config = config;
    attr.disabled = 1;
    attr.exclude_kernel = 1;
    attr.exclude_hv = 1;
    return static_cast<int>(syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0));
  }
  static uint64_t Read(int fd) {
    if (fd < 0) return 0;
    ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
    uint64_t count = 0;
    Check(read(fd, &count, sizeof(count)) == sizeof(count), "reading a PMU counter");
    return count;
  }

  const int instructions_;
  const int cycles_;
};

PmuCounters& Counter() {
  static PmuCounters counter;
  return counter;
}

long MinorFaults() {
  rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

// One side's timed slices, summed.
struct Tally {
  uint64_t ops = 0;
  double seconds = 0;
  uint64_t instructions = 0;  // user space
  uint64_t cycles = 0;        // user space
  long faults = 0;            // minor page faults

  double rate() const { return ops / seconds; }
  double InstructionsPerOp() const { return static_cast<double>(instructions) / ops; }
  double CyclesPerOp() const { return static_cast<double>(cycles) / ops; }
};

// Runs `slice` (`ops` operations) and adds it to *t.
template <class Slice>
void Timed(uint64_t ops, Tally* t, Slice slice) {
  const long faults = MinorFaults();
  Counter().Start();
  const auto t0 = Clock::now();
  slice();
  const double seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  const auto [instructions, cycles] = Counter().Stop();
  t->ops += ops;
  t->seconds += seconds;
  t->instructions += instructions;
  t->cycles += cycles;
  t->faults += MinorFaults() - faults;
}

// speed5's record i, field j (speed10's when kSpeed10: field 3 is i mod
// 100,000). A template argument, so neither side's loop tests it.
template <bool kSpeed10>
inline wg_int FieldOf(uint64_t i, wg_int j) {
  return kSpeed10 && j == 3 ? static_cast<wg_int>(i % 100000) : static_cast<wg_int>(i) + j;
}

// One database and the two tests' work on it, a slice at a time.
class Side {
 public:
  virtual ~Side() = default;
  // Records [from, to) of speed5 (of speed10 when `speed10`).
  virtual void Insert(uint64_t from, uint64_t to, bool speed10) = 0;
  // speed12: the T-tree on field 3.
  virtual void Index() = 0;
  // `n` of speed13's queries; returns the rows they found.
  virtual uint64_t Query(uint64_t n) = 0;
  // What each query finds on RECORDS records.
  virtual uint64_t PerQuery(uint64_t records) const = 0;

  Tally tally;
};

// The seed's loops on WhiteDB's API.
class BareSide final : public Side {
 public:
  BareSide() : db_(wg_attach_local_database(kSize)) {
    Check(db_ != nullptr, "wg_attach_local_database");
  }
  ~BareSide() override { wg_delete_local_database(db_); }

  void Insert(uint64_t from, uint64_t to, bool speed10) override {
    speed10 ? Load<true>(from, to) : Load<false>(from, to);
  }
  void Index() override {
    Check(wg_create_index(db_, 3, WG_INDEX_TYPE_TTREE, nullptr, 0) >= 0, "wg_create_index");
  }
  uint64_t Query(uint64_t n) override {
    void* const db = db_;
    uint64_t found = 0;
    for (uint64_t q = 0; q < n; ++q) {
      wg_query_arg arg;
      arg.column = 3;
      arg.cond = WG_COND_EQUAL;
      arg.value = wg_encode_query_param_int(db, 123);
      wg_query* query = wg_make_query(db, nullptr, 0, &arg, 1);
      Check(query != nullptr, "wg_make_query");
      while (wg_fetch(db, query) != nullptr) ++found;
      wg_free_query(db, query);
    }
    return found;
  }
  uint64_t PerQuery(uint64_t records) const override { return Matching(records); }

 private:
  template <bool kSpeed10>
  void Load(uint64_t from, uint64_t to) {
    void* const db = db_;
    for (uint64_t i = from; i < to; ++i) {
      void* rec = wg_create_raw_record(db, 5);
      Check(rec != nullptr, "wg_create_raw_record");
      for (wg_int j = 0; j < 5; ++j) {
        wg_set_new_field(db, rec, j, wg_encode_int(db, FieldOf<kSpeed10>(i, j)));
      }
    }
  }

  void* const db_;
};

// The same work through the adapter contract, as the seed-000 workload runs it.
class AdapterSide final : public Side {
 public:
  AdapterSide() : fields_(5, kvbench::FieldValue::Int(0)) {
    Check(kvbench::AdapterRegistry::Global().Create("whitedb", &adapter_), "create");
    kvbench::OpenRequest request;
    request.directory = "/tmp";
    Check(
        kvbench::ResolveEngineOptions("whitedb", adapter_->OptionSpecs(),
                                      {{"whitedb.size", std::to_string(kSize)}}, &request.options),
        "options");
    Check(adapter_->Open(request), "open");
    Check(adapter_->NewSession(&session_), "session");
    kvbench::RecordTableSpec spec;
    spec.types.assign(5, kvbench::FieldType::kInt64);
    Check(session_->OpenRecordTable(spec, &table_), "table");
  }
  ~AdapterSide() override {
    table_.reset();
    session_.reset();
    adapter_->Close();
  }

  void Insert(uint64_t from, uint64_t to, bool speed10) override {
    Check(session_->BeginBatch(), "begin");
    speed10 ? Load<true>(from, to) : Load<false>(from, to);
    Check(session_->CommitBatch(), "commit");
  }
  void Index() override { Check(table_->CreateIndex(3), "index"); }
  uint64_t Query(uint64_t n) override {
    const kvbench::FieldValue sought = kvbench::FieldValue::Int(123);
    uint64_t found = 0;
    Check(session_->BeginBatch(), "begin");
    for (uint64_t q = 0; q < n; ++q) {
      Check(table_->QueryEqual(3, sought, 100, &matches_), "query");
      found += matches_.size();
    }
    Check(session_->CommitBatch(), "commit");
    return found;
  }
  uint64_t PerQuery(uint64_t records) const override {
    return std::min<uint64_t>(100, Matching(records));
  }

 private:
  template <bool kSpeed10>
  void Load(uint64_t from, uint64_t to) {
    kvbench::RecordId id;
    for (uint64_t i = from; i < to; ++i) {
      for (int j = 0; j < 5; ++j) fields_[j].int_value = FieldOf<kSpeed10>(i, j);
      Check(table_->InsertRecord(fields_, &id), "insert");
    }
  }

  std::unique_ptr<kvbench::Adapter> adapter_;
  std::unique_ptr<kvbench::Session> session_;
  std::unique_ptr<kvbench::RecordTable> table_;
  std::vector<kvbench::FieldValue> fields_;
  std::vector<kvbench::RecordId> matches_;
};

struct Args {
  uint64_t records;
  uint64_t queries;
};

using Sides = std::vector<Side*>;

// Slice k of a test on every side, in the order rotated by k.
template <class Slice>
void Rotate(const Sides& sides, uint64_t k, Slice slice) {
  for (size_t j = 0; j < sides.size(); ++j) slice(sides[(k + j) % sides.size()]);
}

// speed5 on every side, timed.
void InsertTest(const Args& a, const Sides& sides) {
  for (uint64_t from = 0, k = 0; from < a.records; from += kBatch, ++k) {
    const uint64_t to = std::min(a.records, from + kBatch);
    Rotate(sides, k,
           [&](Side* s) { Timed(to - from, &s->tally, [&] { s->Insert(from, to, false); }); });
  }
}

// speed10 and speed12 on every side (untimed), then speed13, timed.
void QueryTest(const Args& a, const Sides& sides) {
  for (Side* s : sides) {
    for (uint64_t from = 0; from < a.records; from += kBatch) {
      s->Insert(from, std::min(a.records, from + kBatch), true);
    }
    s->Index();
  }
  for (uint64_t done = 0, k = 0; done < a.queries; done += kQuerySlice, ++k) {
    const uint64_t n = std::min(a.queries - done, kQuerySlice);
    Rotate(sides, k, [&](Side* s) {
      uint64_t found = 0;
      Timed(n, &s->tally, [&] { found = s->Query(n); });
      Check(found == n * s->PerQuery(a.records), "the query's match count");
    });
  }
}

// The three sides of one repetition of one test: {bare A, adapter, bare B}.
// Where each database lands moves its cache behaviour by more than the
// effect measured (a fixed layout favoured one side by several per cent), so
// repetition `rep` lays them out differently: the three are created in an
// order rotated by `rep`, after a spacer of a size that varies with `rep`
// (whole pages and cache lines), and the medians are over layouts too.
std::array<Tally, kSides> Repetition(const Args& a, bool query, int rep) {
  const size_t spacer_bytes = 64 + (rep % 7) * size_t{4096} + (rep % 5) * size_t{64};
  std::unique_ptr<char[]> spacer(new char[spacer_bytes]);
  std::array<std::unique_ptr<Side>, kSides> side;  // {bare A, adapter, bare B}
  for (int j = 0; j < kSides; ++j) {
    const int role = (rep + j) % kSides;
    if (role == 1) {
      side[role] = std::make_unique<AdapterSide>();
    } else {
      side[role] = std::make_unique<BareSide>();
    }
  }
  const Sides sides = {side[0].get(), side[1].get(), side[2].get()};
  if (query) {
    QueryTest(a, sides);
  } else {
    InsertTest(a, sides);
  }
  return {side[0]->tally, side[1]->tally, side[2]->tally};
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

// A distribution-free interval for the median of `v`: the k-th smallest and
// k-th largest, k the largest with P(Binomial(n, 1/2) < k) <= 2.5%, and the
// coverage it has (at least 95%; for n < 6 the range, with its coverage).
struct Interval {
  double lo, hi, coverage;
};

Interval MedianInterval(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const int n = static_cast<int>(v.size());
  // below[k] = P(B < k) for B ~ Binomial(n, 1/2)
  std::vector<double> below(n + 2, 0);
  double term = std::pow(0.5, n);  // P(B = 0)
  for (int k = 0; k <= n; ++k) {
    below[k + 1] = below[k] + term;
    term = term * (n - k) / (k + 1);
  }
  int k = 1;
  while (k + 1 <= (n + 1) / 2 && below[k + 1] <= 0.025) ++k;
  return {v[k - 1], v[n - k], 1 - 2 * below[k]};
}

// Repetitions of one test.
struct Series {
  std::vector<std::array<Tally, kSides>> reps;

  // Side `side`'s rate over side 0's (bare A's), per repetition.
  std::vector<double> Ratios(int side) const {
    std::vector<double> r;
    for (const auto& rep : reps) r.push_back(rep[side].rate() / rep[0].rate());
    return r;
  }
  template <class F>
  double MedianOf(int side, F f) const {
    std::vector<double> x;
    for (const auto& rep : reps) x.push_back(f(rep[side]));
    return Median(x);
  }
};

// "whitedb insert adapter A ops/s  bare B ops/s  ratio R [lo, hi] ..." (the
// lines bench/bare_loop_ratio.sh passes on).
void Summarize(const char* test, const Series& s) {
  const std::vector<double> ratios = s.Ratios(1), noise = s.Ratios(2);
  const Interval ri = MedianInterval(ratios), ni = MedianInterval(noise);
  const auto rate = [](const Tally& t) { return t.rate(); };
  std::printf(
      "whitedb %-6s adapter %10.0f ops/s  bare %10.0f ops/s  ratio %.3f [%.3f, %.3f]  "
      "bare/bare %.3f [%.3f, %.3f]  (medians of %zu, intervals %.1f%%)",
      test, s.MedianOf(1, rate), s.MedianOf(0, rate), Median(ratios), ri.lo, ri.hi, Median(noise),
      ni.lo, ni.hi, ratios.size(), 100 * ri.coverage);
  if (Counter().available()) {
    const auto instructions = [](const Tally& t) { return t.InstructionsPerOp(); };
    const auto cycles = [](const Tally& t) { return t.CyclesPerOp(); };
    const double ia = s.MedianOf(1, instructions), ib = s.MedianOf(0, instructions);
    const double ca = s.MedianOf(1, cycles), cb = s.MedianOf(0, cycles);
    std::printf("  instructions/op adapter %.1f bare %.1f (%+.1f, %+.1f%%)", ia, ib, ia - ib,
                100 * (ia / ib - 1));
    std::printf("  cycles/op adapter %.0f bare %.0f (%+.1f%%)", ca, cb, 100 * (ca / cb - 1));
  }
  std::printf("\n");
}

// " bare R (I instr, C cycles, F faults)": a side's ops/s, and per operation
// its user-space instructions and cycles, and its page faults.
void PrintTally(const char* label, const Tally& t) {
  std::printf(" %s %.0f (", label, t.rate());
  if (Counter().available()) {
    std::printf("%.1f instr, %.0f cycles, ", t.InstructionsPerOp(), t.CyclesPerOp());
  }
  std::printf("%ld faults)", t.faults);
}

// One repetition's line for one test.
void PrintRep(const std::string& rep, const char* test, const std::array<Tally, kSides>& t) {
  std::printf("%s %-6s", rep.c_str(), test);
  PrintTally("bare", t[0]);
  PrintTally("adapter", t[1]);
  PrintTally("bare", t[2]);
  std::printf("  ratio %.3f, bare/bare %.3f\n", t[1].rate() / t[0].rate(),
              t[2].rate() / t[0].rate());
  std::fflush(stdout);
}

// One side alone (main's ONLY argument). Returns main's exit code.
int RunOnly(const std::string& only, const Args& a, int reps) {
  const bool query = only == "bare-query" || only == "adapter-query";
  const bool adapter = only == "adapter-insert" || only == "adapter-query";
  if (!query && !adapter && only != "bare-insert") {
    std::fprintf(stderr,
                 "whitedb_loops: ONLY is bare-insert, adapter-insert, bare-query or "
                 "adapter-query, not '%s'\n",
                 only.c_str());
    return 2;
  }
  for (int r = 0; r < reps; ++r) {
    std::unique_ptr<Side> side;
    if (adapter) {
      side = std::make_unique<AdapterSide>();
    } else {
      side = std::make_unique<BareSide>();
    }
    if (query) {
      QueryTest(a, {side.get()});
    } else {
      InsertTest(a, {side.get()});
    }
    std::printf("rep %d", r);
    PrintTally(only.c_str(), side->tally);
    std::printf("\n");
    std::fflush(stdout);
  }
  return 0;
}

// Grows the heap by room for the three databases of a repetition and faults
// every page of it in, then frees it (kept: M_TRIM_THRESHOLD), so the
// databases and the adapter's live-record bitmap are carved from memory that
// is in already.
void PrefaultHeap() {
  // A database's worth to spare: the bitmap and small allocations between
  // the databases leave holes, so the three need not fit back to back.
  const size_t bytes = (kSides + 1) * static_cast<size_t>(kSize);
  // volatile: else the compiler drops a buffer that is written and freed.
  volatile char* heap = static_cast<char*>(std::malloc(bytes));
  Check(heap != nullptr, "reserving the heap");
  for (size_t i = 0; i < bytes; i += 4096) heap[i] = 0;
  std::free(const_cast<char*>(heap));
}

}  // namespace

int main(int argc, char** argv) {
  const Args a{argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 10000000,
               argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 1000000};
  const int reps = argc > 3 ? std::atoi(argv[3]) : 5;
  // Every database from the same, already faulted-in heap (file comment).
  Check(mallopt(M_MMAP_MAX, 0) == 1, "mallopt(M_MMAP_MAX)");
  Check(mallopt(M_TRIM_THRESHOLD, -1) == 1, "mallopt(M_TRIM_THRESHOLD)");  // -1: never
  PrefaultHeap();
  // As the adapter does at its first Open: WhiteDB's messages ("new index
  // created ...") kept off stderr, for the bare loops too.
  kvbench::ContainWhitedbMessages();
  if (argc > 4) return RunOnly(argv[4], a, reps);
  if (!Counter().available()) {
    std::printf("no PMU counters (perf_event_open failed): instructions and cycles not counted\n");
  }
  Series insert, query;
  for (int r = -1; r < reps; ++r) {  // r == -1: the warm-up, thrown away
    const std::string rep = r < 0 ? "warm-up" : "rep " + std::to_string(r);
    const auto i = Repetition(a, false, r + 1);
    PrintRep(rep, "insert", i);
    if (r >= 0) insert.reps.push_back(i);
    if (a.queries == 0) continue;
    const auto q = Repetition(a, true, r + 1);
    PrintRep(rep, "query", q);
    if (r >= 0) query.reps.push_back(q);
  }
  if (reps < 1) return 0;
  Summarize("insert", insert);
  if (a.queries > 0) Summarize("query", query);
  return 0;
}
