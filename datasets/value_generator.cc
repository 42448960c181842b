#include "datasets/value_generator.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "datasets/random.h"

namespace kvbench::datasets {

namespace {

constexpr uint64_t kTagValue = 0x76616c7565ULL;  // "value"
constexpr uint64_t kTagPool = 0x706f6f6cULL;     // "pool"
// 64 KiB: random parts start at any of 64K offsets (and their first 8 bytes
// are hashed), and the pool stays in the L2 cache, so making a value costs
// the harness a copy, not a cache miss inside every measured operation's
// loop (a 1 MiB pool cost lmdb's bulk load 14% of its time).
constexpr size_t kPoolSize = 64 << 10;
constexpr uint32_t kMaxValueSize = 64 << 20;

char PoolByte(uint64_t random_bits, bool printable) {
  return printable ? static_cast<char>(' ' + FastRange32(random_bits, 95))
                   : static_cast<char>(random_bits & 0xff);
}

}  // namespace

std::vector<ParamSpec> ValueParams() {
  return {
      {"size", "40", "bytes per value when size_distribution=fixed (seed 001: 40)"},
      {"size_distribution", "fixed", "fixed, uniform or zipfian (min_size most common)"},
      {"min_size", "1", "smallest value for uniform/zipfian sizes"},
      {"max_size", "100", "largest value for uniform/zipfian sizes"},
      {"compressibility", "0.5", "fraction of each value's bytes that compress away, 0..1"},
      {"alphabet", "printable", "printable (ASCII 32..126) or binary (all 256 bytes)"},
  };
}

Status ParseValueOptions(const ParamMap& params, ValueOptions* out) {
  DatasetParams p;
  KVBENCH_RETURN_IF_ERROR(DatasetParams::Resolve("values", ValueParams(), params, &p));
  ValueOptions o;
  uint64_t size = 0, min_size = 0, max_size = 0;
  size_t distribution = 0, alphabet = 0;
  KVBENCH_RETURN_IF_ERROR(p.GetUint64("size", 0, kMaxValueSize, &size));
  KVBENCH_RETURN_IF_ERROR(
      p.GetChoice("size_distribution", {"fixed", "uniform", "zipfian"}, &distribution));
  KVBENCH_RETURN_IF_ERROR(p.GetUint64("min_size", 0, kMaxValueSize, &min_size));
  KVBENCH_RETURN_IF_ERROR(p.GetUint64("max_size", min_size, kMaxValueSize, &max_size));
  KVBENCH_RETURN_IF_ERROR(p.GetDouble("compressibility", 0.0, 1.0, &o.compressibility));
  KVBENCH_RETURN_IF_ERROR(p.GetChoice("alphabet", {"printable", "binary"}, &alphabet));
  o.size = static_cast<uint32_t>(size);
  o.min_size = static_cast<uint32_t>(min_size);
  o.max_size = static_cast<uint32_t>(max_size);
  o.size_distribution = static_cast<ValueOptions::SizeDistribution>(distribution);
  o.printable = alphabet == 0;
  *out = o;
  return Status::OK();
}

ValueGenerator::ValueGenerator(const ValueOptions& options, uint64_t seed)
    : options_(options), keyed_seed_(KeyedSeed(seed, kTagValue)) {
  using Dist = ValueOptions::SizeDistribution;
  max_size_ = options_.size_distribution == Dist::kFixed ? options_.size : options_.max_size;
  if (options_.size_distribution == Dist::kZipfian) {
    zipfian_ = std::make_unique<ZipfianGenerator>(options_.min_size, options_.max_size);
  }
  // The pool holds every random part at some offset: at least kPoolSize, more
  // for larger values.
  pool_.resize(std::max(kPoolSize, 2 * max_size_));
  HashStream stream(KeyedSeed(seed, kTagPool));
  for (char& c : pool_) c = PoolByte(stream.Next(), options_.printable);
}

uint64_t ValueGenerator::Hash(uint64_t index, uint64_t version) const {
  return HashKeyed(keyed_seed_ ^ Mix64(version), index);
}

size_t ValueGenerator::Size(uint64_t index, uint64_t version) const {
  using Dist = ValueOptions::SizeDistribution;
  switch (options_.size_distribution) {
    case Dist::kFixed:
      return options_.size;
    case Dist::kUniform: {
      const uint64_t span = uint64_t{options_.max_size} - options_.min_size + 1;
      const uint64_t r = Mix64(Hash(index, version));
      return options_.min_size +
             static_cast<size_t>((static_cast<unsigned __int128>(r) * span) >> 64);
    }
    case Dist::kZipfian:
      return std::min<size_t>(zipfian_->ItemFor(UnitDouble(Mix64(Hash(index, version)))),
                              options_.max_size);
  }
  return options_.size;
}

void ValueGenerator::Value(uint64_t index, uint64_t version, std::string* out) const {
  const size_t size = Size(index, version);
  out->resize(size);
  if (size == 0) return;
  char* dst = out->data();
  const uint64_t h = Hash(index, version);
  size_t random_part = static_cast<size_t>(
      std::llround(static_cast<double>(size) * (1.0 - options_.compressibility)));
  random_part = std::clamp<size_t>(random_part, 1, size);
  const size_t offset = static_cast<size_t>(h % (pool_.size() - random_part + 1));
  std::memcpy(dst, pool_.data() + offset, random_part);
  // The hash in the first bytes keeps values of equal offsets apart.
  uint64_t bits = h;
  for (size_t i = 0; i < std::min<size_t>(8, random_part); ++i) {
    dst[i] = PoolByte(bits, options_.printable);
    bits = Mix64(bits);
  }
  // Repeat the random part: each copy doubles what is filled.
  size_t filled = random_part;
  while (filled < size) {
    const size_t n = std::min(filled, size - filled);
    std::memcpy(dst + filled, dst, n);
    filled += n;
  }
}

}  // namespace kvbench::datasets
