// The record layer's per-table metadata: what the table is (field count,
// declared types, names), where its id counter stands, and which fields are
// indexed. Stored under "/<table>#meta" as a record_codec record (unnamed):
//
//   field 0  string "kvbench.record_table"   (magic)
//   field 1  int    1                        (metadata version)
//   field 2  int    field count
//   field 3  int    next id: no stored record has an id >= this, unless the
//                   table was not closed cleanly (field 4 = 0)
//   field 4  int    1 when written by a clean close (next id is exact), else 0
//   field 5  int    next index generation
//   field 6  bytes  declared types, one codec tag byte per field
//   field 7  bytes  indexes: (field:varint generation:varint) repeated
//   field 8+ string field names, one per field, only for named tables
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "adapters/record.h"
#include "common/status.h"

namespace kvbench::record_layer {

struct TableMeta {
  struct Index {
    uint32_t field = 0;
    uint64_t generation = 0;  // part of the index's keys; never reused in a table
  };

  uint32_t field_count = 0;
  std::vector<FieldType> types;
  std::vector<std::string> names;  // empty for unnamed tables
  RecordId next_id = 1;
  bool clean = false;
  uint64_t next_generation = 1;
  std::vector<Index> indexes;
};

// Replaces *out with the encoding of `meta`.
void EncodeTableMeta(const TableMeta& meta, std::string* out);
// Corruption (naming what is wrong) for anything EncodeTableMeta did not write.
Status DecodeTableMeta(Slice encoded, TableMeta* meta);

}  // namespace kvbench::record_layer
