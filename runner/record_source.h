// RecordSource: the records a record phase writes, from its `schema`: either
// seed 000's typed fields (TypedRecordGenerator, e.g. "int*5") or seed 004's
// named string fields ("named:F,K,V": F fields, K-byte names, V-byte values).
//
// It also gives the RecordTableSpec the phase opens: one declared type per
// field and, for named records, the field names.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "adapters/record.h"
#include "datasets/record_generator.h"

namespace kvbench::runner {

class RecordSource {
 public:
  // InvalidArgument naming the bad part of `schema`.
  static Status Parse(const std::string& schema, const std::string& table, uint64_t seed,
                      std::unique_ptr<RecordSource>* out);

  const RecordTableSpec& spec() const { return spec_; }
  const std::string& schema() const { return schema_; }
  size_t field_count() const { return spec_.types.size(); }

  // Record `index`'s fields into *fields (resized). A reference field holds
  // the index of the record it points to (mapped to a record id by the caller).
  void Fill(uint64_t index, std::vector<FieldValue>* fields) const;

 private:
  RecordSource() = default;

  std::string schema_;
  RecordTableSpec spec_;
  std::optional<datasets::TypedRecordGenerator> typed_;
  std::optional<datasets::FieldRecordGenerator> named_;
};

}  // namespace kvbench::runner
