// The portable record codec: one record (a tuple of typed, optionally named
// fields) as one byte string, the same bytes on every CPU. The shared record
// layer stores records with it, and seed 004's "serialise-only" baseline
// measures it alone. docs/record-codec.md is the full specification.
//
// Format, version 1 (all multi-byte numbers explicit; "varint" is unsigned
// LEB128: 7 bits a byte, least significant group first, high bit set on every
// byte but the last, at most 10 bytes, value < 2^64):
//
//   record  := version:u8 (= 0x01)  flags:u8  count:varint  field{count}
//   flags   := bit 0 set: named (every field carries its name); bits 1-7 are 0
//   field   := [name_length:varint name:bytes]   only when named
//              tag:u8 payload
//   tag 0 null       no payload
//   tag 1 int64      8 bytes, little-endian two's complement
//   tag 2 double     8 bytes, little-endian IEEE-754 binary64 bit pattern
//   tag 3 string     length:varint, then the bytes (any bytes, NUL included)
//   tag 4 bytes      length:varint, then the bytes
//   tag 5 reference  8 bytes, little-endian unsigned record id
//
// Nothing follows the last field. Encoders write the shortest varint; decoders
// accept any varint of at most 10 bytes.
//
// Speed: encoding sizes the output once and writes it with memcpy (one string
// resize, no allocation once the caller's string has grown); decoding assigns
// into the caller's FieldValues (no allocation once their strings have grown);
// FindField skips fields without copying them.
//
// Errors: every decoder bounds-checks each read and returns Corruption naming
// the byte offset for truncated or malformed input; it never reads past the
// input and never allocates more than the input's size suggests.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "adapters/record.h"
#include "common/status.h"

namespace kvbench::record_codec {

inline constexpr uint8_t kFormatVersion = 1;
inline constexpr uint8_t kFlagNamed = 0x01;

// Wire tags. Numerically equal to FieldType's values, but the format is
// defined by these constants, not by the enum.
inline constexpr uint8_t kTagNull = 0;
inline constexpr uint8_t kTagInt64 = 1;
inline constexpr uint8_t kTagDouble = 2;
inline constexpr uint8_t kTagString = 3;
inline constexpr uint8_t kTagBytes = 4;
inline constexpr uint8_t kTagReference = 5;

struct RecordHeader {
  bool named = false;
  uint32_t field_count = 0;
  size_t fields_offset = 0;  // where field 0 starts
};

// One field read in place: `bytes` and `name` point into the record passed
// to FindField and live as long as it does.
struct FieldView {
  FieldType type = FieldType::kNull;
  int64_t int_value = 0;
  double double_value = 0;
  RecordId reference = 0;
  Slice bytes;  // kString and kBytes
  Slice name;   // empty for unnamed records
  // [begin, end) is the field's tag and payload inside the record (the name
  // excluded), so a field can be replaced by splicing.
  size_t begin = 0;
  size_t end = 0;
};

// Appends the encoding of `count` fields to *out. `names` is nullptr (an
// unnamed record) or points to `count` names. Never fails.
void EncodeRecord(const FieldValue* fields, size_t count, const std::string* names,
                  std::string* out);
inline void EncodeRecord(const std::vector<FieldValue>& fields,
                         const std::vector<std::string>& names, std::string* out) {
  EncodeRecord(fields.data(), fields.size(), names.empty() ? nullptr : names.data(), out);
}

// Appends one field's tag and payload (no name) to *out.
void EncodeField(const FieldValue& value, std::string* out);
void EncodeField(const FieldView& value, std::string* out);

// Reads the version, flags and field count. Corruption for anything else.
Status ReadHeader(Slice record, RecordHeader* header);

// Decodes every field into *fields (resized to the field count). When `names`
// is not nullptr it receives each field's name (empty for unnamed records),
// pointing into `record`. Corruption for truncated, malformed or trailing
// input; *fields is then unspecified.
Status DecodeRecord(Slice record, std::vector<FieldValue>* fields,
                    std::vector<Slice>* names = nullptr);

// Reads field `index` without copying it, skipping the fields before it (the
// fields after it are not validated). `header` comes from ReadHeader(record).
// InvalidArgument when index >= the record's field count; Corruption for
// malformed input.
Status FindField(Slice record, const RecordHeader& header, uint32_t index, FieldView* view);
Status FindField(Slice record, uint32_t index, FieldView* view);

// Copies a view into a FieldValue (reusing value->bytes).
void CopyField(const FieldView& view, FieldValue* value);
// operator==(FieldValue, FieldValue) without materialising the view.
bool FieldEquals(const FieldView& view, const FieldValue& value);

}  // namespace kvbench::record_codec
