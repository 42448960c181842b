// Between kvbench's values and WhiteDB's encoded field values (wg_int).
//
// Field types map to WhiteDB's own encodings: int64 -> wg_encode_int (kept in
// the field itself when short, else allocated), double -> wg_encode_double,
// string -> wg_encode_str (under 32 bytes a chunk of its own, longer ones kept
// once per distinct string), bytes -> wg_encode_blob (kept once per distinct
// value), reference -> wg_encode_record (the record's offset), NULL -> 0.
// WhiteDB strings are C strings, so a string field cannot hold a NUL byte
// (InvalidArgument: use a bytes field).
//
// Keys of key-value pairs are WhiteDB strings too, escaped so that they hold
// no NUL: 0x00 -> 0x01 0x01, 0x01 -> 0x01 0x02, every other byte as is. The
// escape keeps unsigned byte order (WhiteDB compares strings with strcmp, and
// a key that is a prefix of another still sorts first), so the T-tree on the
// key field orders pairs exactly as the contract's scans need. Strings rather
// than blobs because WhiteDB's public API can build a query parameter of a
// string outside the database (wg_encode_query_param_str), which a read under
// the shared lock needs, and has no such call for a blob.
#pragma once

#include <whitedb/dbapi.h>

#include <cstring>
#include <string>

#include "adapters/record.h"
#include "common/status.h"

namespace kvbench {

// *out = the escaped key, NUL-terminated by std::string.
void EscapeWhitedbKey(Slice key, std::string* out);
// *out = the key whose escape is the `n` bytes at `escaped`.
void UnescapeWhitedbKey(const char* escaped, size_t n, std::string* out);

// Encodes `v` into the database (a string or bytes value is allocated there,
// or shared with an equal one). References are encoded unchecked: the caller
// checks the target. WG_ILLEGAL in *out means the database is full.
// InvalidArgument for a string holding a NUL byte.
Status EncodeWhitedbValue(void* db, const FieldValue& v, wg_int* out);

// Decodes an encoded field into *out (reusing out->bytes). Corruption for a
// WhiteDB type the adapter never writes.
Status DecodeWhitedbValue(void* db, wg_int encoded, FieldValue* out);

// Tells whether an encoded field equals one FieldValue, for full scans:
// WhiteDB's manual says short integers, NULL (and record pointers, which are
// offsets) are kept in the field itself, so for those one comparison of
// encoded words decides, as the seed's speed11 compares. Other values are
// decoded and compared. `value` must outlive the probe.
class WhitedbFieldProbe {
 public:
  WhitedbFieldProbe(void* db, const FieldValue& value);

  bool Matches(wg_int encoded) const {
    if (has_encoded_ && encoded == encoded_) return true;
    return !decided_by_encoding_ && DecodedMatches(encoded);
  }

 private:
  bool DecodedMatches(wg_int encoded) const;

  void* const db_;
  const FieldValue& value_;
  wg_int encoded_ = 0;
  bool has_encoded_ = false;
  // True when no other encoding can equal the value (immediates), or when
  // nothing can (a string with a NUL byte).
  bool decided_by_encoding_ = false;
};

// An encoded query parameter for wg_make_query, freed on destruction. Values
// are built outside the database (wg_encode_query_param_*), except bytes:
// WhiteDB has no blob parameter, so a bytes value is encoded into the
// database (needs_write_lock) and released with wg_free_encoded.
class WhitedbQueryParam {
 public:
  WhitedbQueryParam(void* db, const FieldValue& value);
  ~WhitedbQueryParam();
  WhitedbQueryParam(const WhitedbQueryParam&) = delete;
  WhitedbQueryParam& operator=(const WhitedbQueryParam&) = delete;

  static bool NeedsWriteLock(const FieldValue& value) { return value.type == FieldType::kBytes; }
  // Call once, under the lock NeedsWriteLock asks for. NotFound when no
  // stored value can equal it (a string with a NUL byte); IOError when it
  // cannot be encoded.
  Status Encode();
  wg_int encoded() const { return encoded_; }

 private:
  void* const db_;
  const FieldValue& value_;
  wg_int encoded_ = WG_ILLEGAL;
  // NULL, a record, or an integer WhiteDB keeps in the word itself: nothing
  // was allocated, so nothing is freed (wg_free_query_param would find so).
  bool in_word_ = false;
};

}  // namespace kvbench
