#include "datasets/key_generator.h"

#include <fmt/core.h>

#include "datasets/key_kinds.h"

namespace kvbench::datasets {

namespace {

using Constructor = Status (*)(const DatasetSpec&, uint64_t, DatasetParams,
                               std::unique_ptr<KeyGenerator>*);

struct KindEntry {
  DatasetKind kind;
  Constructor construct;
};

Status NewUrls(const DatasetSpec& spec, uint64_t count, DatasetParams params,
               std::unique_ptr<KeyGenerator>* out) {
  return internal::NewUrlKeyGenerator(spec, count, std::move(params), false, out);
}

Status NewPaths(const DatasetSpec& spec, uint64_t count, DatasetParams params,
                std::unique_ptr<KeyGenerator>* out) {
  return internal::NewUrlKeyGenerator(spec, count, std::move(params), true, out);
}

const std::vector<KindEntry>& Entries() {
  static const std::vector<KindEntry> entries = {
      {{"urls", "URLs and file-system paths, 142 bytes on average, hierarchical (seed 001)",
        internal::UrlKeyParams(true)},
       &NewUrls},
      {{"paths", "file-system paths, hierarchical", internal::UrlKeyParams(false)}, &NewPaths},
      {{"sequential", "start + i as a big-endian unsigned integer (byte order = numeric order)",
        internal::SequentialKeyParams()},
       &internal::NewSequentialKeyGenerator},
      {{"timestamp", "seconds since 1970 growing by `step` per key, 8-byte big-endian (seed 003)",
        internal::TimestampKeyParams()},
       &internal::NewTimestampKeyGenerator},
      {{"random-int", "uniform random integers in [min, max], big-endian, duplicates allowed",
        internal::RandomIntKeyParams()},
       &internal::NewRandomIntKeyGenerator},
      {{"ycsb", "YCSB CoreWorkload keys: \"user\" + FNV-64 hash of i (or i when ordered)",
        internal::YcsbKeyParams()},
       &internal::NewYcsbKeyGenerator},
      {{"numbered", "prefix + decimal number, e.g. /order/1 (seed 004)",
        internal::NumberedKeyParams()},
       &internal::NewNumberedKeyGenerator},
      {{"file", "keys read from a file, one a line", internal::FileKeyParams()},
       &internal::NewFileKeyGenerator},
  };
  return entries;
}

}  // namespace

const std::vector<DatasetKind>& DatasetKinds() {
  static const std::vector<DatasetKind> kinds = [] {
    std::vector<DatasetKind> out;
    for (const KindEntry& e : Entries()) out.push_back(e.kind);
    return out;
  }();
  return kinds;
}

Status NewKeyGenerator(const DatasetSpec& spec, std::unique_ptr<KeyGenerator>* out) {
  for (const KindEntry& e : Entries()) {
    if (e.kind.name != spec.kind) continue;
    DatasetParams params;
    KVBENCH_RETURN_IF_ERROR(DatasetParams::Resolve(fmt::format("dataset '{}'", spec.kind),
                                                   e.kind.params, spec.params, &params));
    const uint64_t count = spec.count != 0 || spec.kind == "file" ? spec.count : kDefaultKeyCount;
    std::unique_ptr<KeyGenerator> generator;
    KVBENCH_RETURN_IF_ERROR(e.construct(spec, count, std::move(params), &generator));
    if (generator->count() > generator->capacity()) {
      return Status::InvalidArgument(
          fmt::format("dataset '{}': count {} exceeds the {} distinct indexes its options allow",
                      spec.kind, generator->count(), generator->capacity()));
    }
    *out = std::move(generator);
    return Status::OK();
  }
  std::string known;
  for (const KindEntry& e : Entries()) known += (known.empty() ? "" : ", ") + e.kind.name;
  return Status::InvalidArgument(fmt::format("unknown dataset '{}' (known: {})", spec.kind, known));
}

namespace internal {

int AppendDecimal(uint64_t v, char** p) {
  char tmp[20];
  int n = 0;
  do {
    tmp[n++] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v != 0);
  for (int k = n - 1; k >= 0; --k) *(*p)++ = tmp[k];
  return n;
}

}  // namespace internal

}  // namespace kvbench::datasets
