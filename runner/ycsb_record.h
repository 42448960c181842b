// YCSB records stored as one value.
//
// A YCSB record is `field_count` fields (field0...fieldN-1), each a string of
// bytes. A key-value engine stores the whole record as one value, laid out so
// that field i's bytes are at a known place:
//
//   constant field lengths (fieldlengthdistribution=constant): the fields'
//     bytes back to back, no header; field i is at offset i x fieldlength.
//   variable field lengths (uniform, zipfian): a table of field_count 4-byte
//     little-endian lengths, then the fields' bytes back to back; field i is
//     at 4 x field_count + the lengths of fields 0..i-1.
//
// Field names (YCSB's "field0"...) are not stored: they are implied by the
// position. Field bytes come from the phase's ValueGenerator (one field per
// value, sized by fieldlength and fieldlengthdistribution), so a record is a
// pure function of (key index, version).
//
// Thread-safety: const methods only; safe from many threads.
#pragma once

#include <cstdint>
#include <string>

#include "common/status.h"

namespace kvbench::datasets {
class ValueGenerator;
}

namespace kvbench::runner {

class YcsbRecordLayout {
 public:
  // `fields` makes one field's bytes; it must outlive the layout.
  YcsbRecordLayout(const datasets::ValueGenerator* fields, uint32_t field_count);

  // The record of key `index` at `version` (0: as inserted) into *out.
  void Record(uint64_t index, uint64_t version, std::string* out) const;
  // Field `field` of (index, version) into *out.
  void Field(uint64_t index, uint64_t version, uint32_t field, std::string* out) const;
  // Where field `field` is in `record`; false when `record` does not have
  // this layout (a value some other writer stored).
  bool Locate(Slice record, uint32_t field, size_t* offset, size_t* length) const;
  // Replaces field `field` of *record with `bytes` (an update of one field);
  // false, leaving *record unchanged, when *record does not have this layout.
  bool ReplaceField(uint32_t field, Slice bytes, std::string* record) const;

  uint32_t field_count() const { return field_count_; }
  bool variable_lengths() const { return variable_; }

 private:
  const datasets::ValueGenerator* fields_;
  uint32_t field_count_;
  bool variable_;
  size_t fixed_length_;  // for constant lengths
};

}  // namespace kvbench::runner
