// Micro-benchmarks of the dataset generators: one per key kind, value and
// record generator and request distribution. items_per_second is keys (or
// values, records, draws) per second on one core. The `urls` target is at
// least 5 million keys/s, so that making keys never limits a benchmark of an
// engine.
//
//   build-dir/bench/datasets_bench --benchmark_min_time=0.2
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "datasets/index_permutation.h"
#include "datasets/key_generator.h"
#include "datasets/random.h"
#include "datasets/record_generator.h"
#include "datasets/request_distribution.h"
#include "datasets/value_generator.h"

namespace kvbench::datasets {
namespace {

constexpr uint64_t kKeyCount = 1000000;

std::unique_ptr<KeyGenerator> MakeKeys(const std::string& kind, ParamMap params = {}) {
  DatasetSpec spec;
  spec.kind = kind;
  spec.count = kind == "file" ? 0 : kKeyCount;
  spec.params = std::move(params);
  std::unique_ptr<KeyGenerator> g;
  const Status s = NewKeyGenerator(spec, &g);
  if (!s.ok()) {
    std::fprintf(stderr, "%s\n", s.ToString().c_str());
    std::abort();
  }
  return g;
}

// Keys 0, 1, 2... as a load phase makes them.
void BM_Keys(benchmark::State& state, const std::string& kind) {
  auto g = MakeKeys(kind);
  std::string key;
  key.reserve(g->max_length());
  uint64_t i = 0;
  for (auto _ : state) {
    g->Key(i, &key);
    benchmark::DoNotOptimize(key.data());
    if (++i == g->count()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
}

// Keys at random indexes, as a query phase makes them.
void BM_KeysRandomIndex(benchmark::State& state, const std::string& kind) {
  auto g = MakeKeys(kind);
  std::string key;
  key.reserve(g->max_length());
  uint64_t i = 0;
  for (auto _ : state) {
    g->Key(Mix64(++i) % g->count(), &key);
    benchmark::DoNotOptimize(key.data());
  }
  state.SetItemsProcessed(state.iterations());
}

void BM_AbsentUrlKeys(benchmark::State& state) {
  auto g = MakeKeys("urls");
  std::string key;
  uint64_t i = 0;
  for (auto _ : state) {
    g->AbsentKey(i++, &key);
    benchmark::DoNotOptimize(key.data());
  }
  state.SetItemsProcessed(state.iterations());
}

// `file` reads 100,000 url keys written to a temporary file.
void BM_FileKeys(benchmark::State& state) {
  char path[] = "/tmp/kvbench_bench_keys_XXXXXX";
  const int fd = mkstemp(path);
  if (fd < 0) {
    state.SkipWithError("cannot create a temporary key file");
    return;
  }
  close(fd);
  {
    auto urls = MakeKeys("urls");
    std::ofstream out(path);
    std::string key;
    for (uint64_t i = 0; i < 100000; ++i) {
      urls->Key(i, &key);
      out << key << '\n';
    }
  }
  auto g = MakeKeys("file", {{"path", path}});
  std::remove(path);
  std::string key;
  uint64_t i = 0;
  for (auto _ : state) {
    g->Key(i, &key);
    benchmark::DoNotOptimize(key.data());
    if (++i == g->count()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
}

void BM_Values(benchmark::State& state) {
  ValueOptions options;
  options.size = static_cast<uint32_t>(state.range(0));
  ValueGenerator g(options, 1);
  std::string value;
  uint64_t i = 0;
  for (auto _ : state) {
    g.Value(i++, 0, &value);
    benchmark::DoNotOptimize(value.data());
  }
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(state.iterations() * state.range(0));
}

void BM_FieldRecords(benchmark::State& state) {
  FieldRecordOptions options;  // seed 004's 50 fields of 50/50 bytes
  FieldRecordGenerator g(options, 1);
  std::vector<std::string> values;
  uint64_t i = 0;
  for (auto _ : state) {
    g.Fill(i++, &values);
    benchmark::DoNotOptimize(values.data());
  }
  state.SetItemsProcessed(state.iterations());
}

void BM_TypedRecords(benchmark::State& state) {
  std::vector<TypedFieldSpec> schema;
  if (!ParseRecordSchema(kDefaultRecordSchema, &schema).ok()) std::abort();
  TypedRecordGenerator g(schema, 1);
  std::vector<FieldValue> fields;
  uint64_t i = 0;
  for (auto _ : state) {
    g.Fill(i++, &fields);
    benchmark::DoNotOptimize(fields.data());
  }
  state.SetItemsProcessed(state.iterations());
}

void BM_Distribution(benchmark::State& state, const std::string& kind) {
  std::unique_ptr<RequestDistribution> d;
  if (!NewRequestDistribution({kind, {}}, kKeyCount, 1, 0, 1, &d).ok()) std::abort();
  for (auto _ : state) benchmark::DoNotOptimize(d->Next(kKeyCount));
  state.SetItemsProcessed(state.iterations());
}

void BM_IndexPermutation(benchmark::State& state) {
  IndexPermutation p(kKeyCount, 1);
  uint64_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(p(i));
    if (++i == kKeyCount) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
}

BENCHMARK_CAPTURE(BM_Keys, urls, std::string("urls"));
BENCHMARK_CAPTURE(BM_KeysRandomIndex, urls, std::string("urls"));
BENCHMARK(BM_AbsentUrlKeys);
BENCHMARK_CAPTURE(BM_Keys, paths, std::string("paths"));
BENCHMARK_CAPTURE(BM_Keys, sequential, std::string("sequential"));
BENCHMARK_CAPTURE(BM_Keys, timestamp, std::string("timestamp"));
BENCHMARK_CAPTURE(BM_Keys, random_int, std::string("random-int"));
BENCHMARK_CAPTURE(BM_Keys, ycsb, std::string("ycsb"));
BENCHMARK_CAPTURE(BM_Keys, numbered, std::string("numbered"));
BENCHMARK(BM_FileKeys);
BENCHMARK(BM_Values)->Arg(40)->Arg(1000);
BENCHMARK(BM_FieldRecords);
BENCHMARK(BM_TypedRecords);
BENCHMARK_CAPTURE(BM_Distribution, uniform, std::string("uniform"));
BENCHMARK_CAPTURE(BM_Distribution, zipfian, std::string("zipfian"));
BENCHMARK_CAPTURE(BM_Distribution, latest, std::string("latest"));
BENCHMARK_CAPTURE(BM_Distribution, hotspot, std::string("hotspot"));
BENCHMARK_CAPTURE(BM_Distribution, sequential, std::string("sequential"));
BENCHMARK_CAPTURE(BM_Distribution, exponential, std::string("exponential"));
BENCHMARK(BM_IndexPermutation);

}  // namespace
}  // namespace kvbench::datasets

BENCHMARK_MAIN();
