// Values as a pure function of (seed, index, version): the value stored for
// key i, and the value an update writes (version 1, 2...), can be rebuilt by
// any thread to verify a read.
//
// Size: fixed, or uniform / zipfian in [min_size, max_size] (zipfian as YCSB's
// fieldlengthdistribution=zipfian: min_size the most common).
//
// Compressibility c: the fraction of a value's bytes that compress away. A
// value of n bytes is r = max(1, round(n x (1 - c))) random bytes repeated to
// fill n, so an LZ compressor keeps about r bytes (as LevelDB's db_bench
// builds its values). With the printable alphabet the random bytes are 95
// printable ASCII characters, which an entropy coder squeezes a further ~18%;
// the binary alphabet is incompressible. The random bytes come from a 1 MiB
// pool made from the seed, at an offset chosen by hashing (index, version);
// the first 8 bytes are the hash itself, so values differ.
//
// Thread-safety: Value() is const and safe from many threads; it does not
// allocate once *out has capacity for max_size() bytes.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/status.h"
#include "datasets/params.h"
#include "datasets/zipfian.h"

namespace kvbench::datasets {

struct ValueOptions {
  enum class SizeDistribution { kFixed, kUniform, kZipfian };
  SizeDistribution size_distribution = SizeDistribution::kFixed;
  // The fixed size: seed 001 stores 40 bytes with every key.
  uint32_t size = 40;
  // Bounds for the uniform and zipfian sizes.
  uint32_t min_size = 1;
  uint32_t max_size = 100;
  // 0.5 as LevelDB's db_bench: engines with compression get something to do.
  double compressibility = 0.5;
  // Printable ASCII keeps values readable and safe for text columns.
  bool printable = true;
};

// Options from named parameters: size, size_distribution (fixed, uniform,
// zipfian), min_size, max_size, compressibility, alphabet (printable, binary).
// InvalidArgument naming the option on a bad value or unknown name.
std::vector<ParamSpec> ValueParams();
Status ParseValueOptions(const ParamMap& params, ValueOptions* out);

class ValueGenerator {
 public:
  ValueGenerator(const ValueOptions& options, uint64_t seed);

  // The value of (index, version) into *out, replacing its contents.
  void Value(uint64_t index, uint64_t version, std::string* out) const;
  // Its size, without making it.
  size_t Size(uint64_t index, uint64_t version) const;
  size_t max_size() const { return max_size_; }
  const ValueOptions& options() const { return options_; }

 private:
  uint64_t Hash(uint64_t index, uint64_t version) const;

  ValueOptions options_;
  uint64_t keyed_seed_;
  size_t max_size_;
  std::string pool_;
  // Zipfian sizes: the generator's constants (its NextLong is used with a
  // fixed item count, so it never changes and is safe to share).
  std::unique_ptr<ZipfianGenerator> zipfian_;
};

}  // namespace kvbench::datasets
