// Record generators: the field values of record i as a pure function of
// (seed, index). Serialising them is the record codec's job, elsewhere.
//
// FieldRecordGenerator (seed 004): F fields of K-byte names and V-byte values,
// as the Perl make_record: field 0 is "order_id" holding the decimal order id
// (index + 1); fields 1..F-1 are named "key" + upper-case letters (K bytes)
// and hold "val" + upper-case letters (V bytes). The names are the same in
// every record (a schema) and distinct from each other; the values differ per
// record. Seed 004 ran 50/50, 50/05, 05/50 and 05/05 (fields/length).
//
// TypedRecordGenerator (seed 000): records of typed fields described by a
// schema string, a comma-separated list of field types, each optionally
// repeated with "*N":
//   null           no value
//   int            the record index (growing integers, speed5)
//   int%M          index mod M (speed10: the last five digits, M = 100000)
//   randint        a uniform random int64
//   double         a uniform random double in [0, 1e6)
//   str:N          N random lower-case letters, different per record (speed6: 30)
//   conststr:N     the same N letters in every record (speed7's shared 100-byte string)
//   bytes:N        N random bytes
//   ref            a reference to record index - 1 (speed15's chain; null for record 0)
// e.g. "int,double,str:30,str:100,ref" or "int*50000".
//
// Thread-safety: the generators are immutable after construction; Fill is
// const and safe from many threads. Neither allocates once the caller's
// vectors and strings have reached their sizes (reuse them across records).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "adapters/record.h"
#include "common/status.h"
#include "datasets/params.h"

namespace kvbench::datasets {

struct FieldRecordOptions {
  uint32_t fields = 50;        // seed 004's main case: 50 fields
  uint32_t name_length = 50;   // of 50-byte names
  uint32_t value_length = 50;  // and 50-byte values
};

// Parameters: fields, name_length, value_length. InvalidArgument when the
// names are too short to be distinct ("key" + enough letters for F - 1 names).
std::vector<ParamSpec> FieldRecordParams();
Status ParseFieldRecordOptions(const ParamMap& params, FieldRecordOptions* out);

class FieldRecordGenerator {
 public:
  // Requires options that ParseFieldRecordOptions accepts.
  FieldRecordGenerator(const FieldRecordOptions& options, uint64_t seed);

  // fields() names, index-aligned with Fill's values.
  const std::vector<std::string>& field_names() const { return names_; }
  // Record `index`'s values, one per field, into *values (resized to fields).
  void Fill(uint64_t index, std::vector<std::string>* values) const;

 private:
  FieldRecordOptions options_;
  uint64_t keyed_seed_;
  std::vector<std::string> names_;
};

// Field values are the adapter contract's (adapters/record.h). A generated
// kReference field holds the *index* of the referenced record; the runner maps
// it to the engine's record id before inserting.
using kvbench::FieldType;
using kvbench::FieldValue;

// One schema entry.
struct TypedFieldSpec {
  enum class Source {
    kNull,
    kIndex,
    kIndexModulo,
    kRandomInt,
    kRandomDouble,
    kRandomString,
    kConstantString,
    kRandomBytes,
    kPreviousRecord
  };
  Source source = Source::kNull;
  uint64_t modulus = 0;  // kIndexModulo
  uint32_t length = 0;   // strings and bytes
};

// Parses a schema string (grammar above). InvalidArgument naming the bad entry.
Status ParseRecordSchema(std::string_view schema, std::vector<TypedFieldSpec>* out);
inline constexpr std::string_view kDefaultRecordSchema = "int,double,str:30,str:100,ref";

class TypedRecordGenerator {
 public:
  TypedRecordGenerator(std::vector<TypedFieldSpec> schema, uint64_t seed);

  size_t field_count() const { return schema_.size(); }
  const std::vector<TypedFieldSpec>& schema() const { return schema_; }
  // Record `index`'s fields into *fields (resized to field_count()).
  void Fill(uint64_t index, std::vector<FieldValue>* fields) const;

 private:
  std::vector<TypedFieldSpec> schema_;
  uint64_t keyed_seed_;
  std::vector<std::string> constant_strings_;  // per field, for kConstantString
};

}  // namespace kvbench::datasets
