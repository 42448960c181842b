// Keys as a pure function of (dataset, seed, index).
//
// A KeyGenerator makes key i of a dataset in O(1) time and memory without a
// key table (the `file` kind excepted: it holds the file's lines), so any
// thread can make present keys, absent keys and "recently inserted" keys for
// ten million keys at no memory cost. Key i depends only on the kind, its
// parameters, the seed and i: never on the count, the thread or the call
// order, so a set of 1M keys is the first 1M keys of a set of 2M.
//
// Kinds (see DatasetKinds() for each kind's options and defaults):
//   urls        URLs and file-system paths, 142 bytes on average, hierarchical
//               (many keys per host and directory); sorted and front-coded
//               they shrink to about 0.4 of their bytes. Distinct.
//   paths       file-system paths alone, same construction. Distinct.
//   sequential  start + i as a `width`-byte big-endian unsigned integer, so
//               byte order is numeric order. Distinct.
//   timestamp   seconds since 1970-01-01T00:00:00Z: start + i * step, as an
//               8-byte big-endian unsigned integer (seed 003: step 7 s). Distinct.
//   random-int  uniform integers in [min, max], `width`-byte big-endian;
//               duplicates happen (seed 003 Test 7). Not distinct.
//   ycsb        YCSB CoreWorkload.buildKeyName(i): "user" + FNV-64 hash of i
//               (insertorder=hashed) or i itself (ordered), left-padded with
//               zeros to `zeropadding` digits. Distinct except for YCSB's rare
//               hash collisions.
//   numbered    prefix + decimal(start + i), zero-padded (seed 004's
//               "/order/<id>"). Distinct.
//   file        line i of a file (blank lines skipped, a trailing '\r' removed).
//               Distinct only if the file's lines are.
//
// Absent keys: AbsentKey(j) never equals Key(i) for any i < capacity() and any
// j, so it is a guaranteed miss whatever was loaded or inserted since. Absent
// keys look like present ones and sort next to them, so an ordered engine
// must search as deep as for a hit:
//   urls, paths   Key(j) with its file extension replaced by one that present
//                 keys never use (".bak", ".orig"...).
//   fixed-width   sequential, timestamp, random-int: Key(j) plus one 0x00 byte
//                 (one byte longer than every present key).
//   ycsb, numbered  Key(j) + "x" (present keys end in a digit).
//   file          line (j mod lines) + "\n" (no present key holds a newline).
//
// Thread-safety: every method is const and safe to call from many threads at
// once. Key and AbsentKey replace *out's contents and do not allocate once
// *out has capacity for max_length() bytes.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "datasets/params.h"

namespace kvbench::datasets {

// How a kind's keys are best shown to people (`kvbench gen`).
enum class KeyEncoding {
  kText,               // printable text (escape anything else)
  kBigEndianUnsigned,  // width-byte big-endian unsigned integer: show the number
  kEpochSeconds,       // 8-byte big-endian seconds since 1970: show a UTC time
};

struct DatasetSpec {
  std::string kind = "urls";
  // Keys in the set: indexes [0, count). 0 means the kind's default:
  // 1,000,000 (seed 001's size), or every line for `file`.
  uint64_t count = 0;
  uint64_t seed = 1;
  ParamMap params;
};

class KeyGenerator {
 public:
  virtual ~KeyGenerator() = default;

  // Writes key `index` into *out. Requires index < capacity().
  virtual void Key(uint64_t index, std::string* out) const = 0;
  // Writes absent key `index` into *out (any index); see the file comment for
  // the guarantee.
  virtual void AbsentKey(uint64_t index, std::string* out) const = 0;

  // The number of keys in the set (indexes [0, count)).
  uint64_t count() const { return count_; }
  // The number of valid indexes: keys beyond count() are the ones a workload
  // inserts later. Huge for synthetic kinds, the line count for `file`.
  virtual uint64_t capacity() const = 0;
  // True when Key(i) != Key(j) for all i != j < capacity() is guaranteed.
  virtual bool distinct() const = 0;
  // An upper bound of every key's length (present and absent), in bytes.
  virtual size_t max_length() const = 0;
  virtual KeyEncoding encoding() const { return KeyEncoding::kText; }

  const std::string& kind() const { return kind_; }
  uint64_t seed() const { return seed_; }
  // Every option with its resolved value, defaults included (for results).
  const DatasetParams& params() const { return params_; }

 protected:
  KeyGenerator(const DatasetSpec& spec, uint64_t count, DatasetParams params)
      : kind_(spec.kind), seed_(spec.seed), count_(count), params_(std::move(params)) {}

 private:
  std::string kind_;
  uint64_t seed_;
  uint64_t count_;
  DatasetParams params_;
};

// Makes the generator a spec describes. InvalidArgument for an unknown kind
// ("unknown dataset 'x' (known: ...)"), an unknown option or a bad value (the
// message names the dataset and option); IOError naming the file when a `file`
// dataset's file cannot be read.
Status NewKeyGenerator(const DatasetSpec& spec, std::unique_ptr<KeyGenerator>* out);

// One dataset kind: its name, one line of description and its options.
struct DatasetKind {
  std::string name;
  std::string description;
  std::vector<ParamSpec> params;
};
const std::vector<DatasetKind>& DatasetKinds();

inline constexpr uint64_t kDefaultKeyCount = 1000000;

}  // namespace kvbench::datasets
