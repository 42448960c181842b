#include "adapters/whitedb/whitedb_encoding.h"

#include "adapters/whitedb/whitedb_messages.h"

namespace kvbench {
namespace {

// WhiteDB's manual: "shorter integers (28 bits) ... are kept directly in the
// field", so their encoding is the same wherever they are written.
constexpr int64_t kImmediateIntBound = int64_t{1} << 27;

bool IsImmediateInt(int64_t v) { return v > -kImmediateIntBound && v < kImmediateIntBound; }

}  // namespace

void EscapeWhitedbKey(Slice key, std::string* out) {
  out->clear();
  out->reserve(key.size() + 8);
  for (const char c : key) {
    if (static_cast<unsigned char>(c) > 1) {
      out->push_back(c);
    } else {
      out->push_back('\x01');
      out->push_back(c == 0 ? '\x01' : '\x02');
    }
  }
}

void UnescapeWhitedbKey(const char* escaped, size_t n, std::string* out) {
  out->clear();
  for (size_t i = 0; i < n; ++i) {
    if (escaped[i] != '\x01' || i + 1 == n) {
      out->push_back(escaped[i]);
    } else {
      out->push_back(escaped[++i] == '\x01' ? '\0' : '\x01');
    }
  }
}

Status EncodeWhitedbValue(void* db, const FieldValue& v, wg_int* out) {
  switch (v.type) {
    case FieldType::kNull:
      *out = 0;
      return Status::OK();
    case FieldType::kInt64:
      *out = wg_encode_int(db, v.int_value);
      return Status::OK();
    case FieldType::kDouble:
      *out = wg_encode_double(db, v.double_value);
      return Status::OK();
    case FieldType::kString:
      if (std::memchr(v.bytes.data(), 0, v.bytes.size()) != nullptr) {
        return Status::InvalidArgument(
            "whitedb: a string field cannot hold a NUL byte (WhiteDB strings are C strings; use a "
            "bytes field)");
      }
      *out = wg_encode_str(db, v.bytes.c_str(), nullptr);
      return Status::OK();
    case FieldType::kBytes:
      // A blob is not read past its length, so data() need not be terminated.
      *out = wg_encode_blob(db, v.bytes.data(), nullptr, static_cast<wg_int>(v.bytes.size()));
      return Status::OK();
    case FieldType::kReference:
      *out = wg_encode_record(db, wg_decode_record(db, static_cast<wg_int>(v.reference)));
      return Status::OK();
  }
  return Status::InvalidArgument("whitedb: unknown field type");
}

Status DecodeWhitedbValue(void* db, wg_int encoded, FieldValue* out) {
  if (encoded == 0) {
    out->type = FieldType::kNull;
    return Status::OK();
  }
  switch (wg_get_encoded_type(db, encoded)) {
    case WG_INTTYPE:
      out->type = FieldType::kInt64;
      out->int_value = wg_decode_int(db, encoded);
      return Status::OK();
    case WG_DOUBLETYPE:
      out->type = FieldType::kDouble;
      out->double_value = wg_decode_double(db, encoded);
      return Status::OK();
    case WG_STRTYPE:
      out->type = FieldType::kString;
      out->bytes.assign(wg_decode_str(db, encoded),
                        static_cast<size_t>(wg_decode_str_len(db, encoded)));
      return Status::OK();
    case WG_BLOBTYPE:
      out->type = FieldType::kBytes;
      out->bytes.assign(wg_decode_blob(db, encoded),
                        static_cast<size_t>(wg_decode_blob_len(db, encoded)));
      return Status::OK();
    case WG_RECORDTYPE:
      out->type = FieldType::kReference;
      out->reference = static_cast<RecordId>(encoded);
      return Status::OK();
    case WG_NULLTYPE:
      out->type = FieldType::kNull;
      return Status::OK();
    default:
      return Status::Corruption("whitedb: a field holds WhiteDB type " +
                                std::to_string(wg_get_encoded_type(db, encoded)) +
                                ", which the adapter never writes");
  }
}

WhitedbFieldProbe::WhitedbFieldProbe(void* db, const FieldValue& value) : db_(db), value_(value) {
  switch (value.type) {
    case FieldType::kNull:
      has_encoded_ = decided_by_encoding_ = true;
      encoded_ = 0;
      break;
    case FieldType::kInt64:
      if (IsImmediateInt(value.int_value)) {
        has_encoded_ = decided_by_encoding_ = true;
        encoded_ = wg_encode_int(db, value.int_value);  // allocates nothing at this size
      }
      break;
    case FieldType::kReference:
      has_encoded_ = decided_by_encoding_ = true;
      encoded_ = static_cast<wg_int>(value.reference);
      break;
    case FieldType::kString:
      decided_by_encoding_ = std::memchr(value.bytes.data(), 0, value.bytes.size()) != nullptr;
      break;
    case FieldType::kDouble:
    case FieldType::kBytes:
      break;
  }
}

bool WhitedbFieldProbe::DecodedMatches(wg_int encoded) const {
  if (encoded == 0) return false;  // NULL; a NULL probe is decided by its encoding
  const wg_int type = wg_get_encoded_type(db_, encoded);
  switch (value_.type) {
    case FieldType::kInt64:
      return type == WG_INTTYPE && wg_decode_int(db_, encoded) == value_.int_value;
    case FieldType::kDouble:
      return type == WG_DOUBLETYPE && wg_decode_double(db_, encoded) == value_.double_value;
    case FieldType::kString:
      return type == WG_STRTYPE &&
             static_cast<size_t>(wg_decode_str_len(db_, encoded)) == value_.bytes.size() &&
             std::memcmp(wg_decode_str(db_, encoded), value_.bytes.data(), value_.bytes.size()) ==
                 0;
    case FieldType::kBytes:
      return type == WG_BLOBTYPE &&
             static_cast<size_t>(wg_decode_blob_len(db_, encoded)) == value_.bytes.size() &&
             std::memcmp(wg_decode_blob(db_, encoded), value_.bytes.data(), value_.bytes.size()) ==
                 0;
    case FieldType::kNull:
    case FieldType::kReference:
      return false;
  }
  return false;
}

WhitedbQueryParam::WhitedbQueryParam(void* db, const FieldValue& value) : db_(db), value_(value) {}

WhitedbQueryParam::~WhitedbQueryParam() {
  if (encoded_ == WG_ILLEGAL || in_word_) return;
  if (NeedsWriteLock(value_)) {
    wg_free_encoded(db_, encoded_);
  } else {
    wg_free_query_param(db_, encoded_);
  }
}

Status WhitedbQueryParam::Encode() {
  switch (value_.type) {
    case FieldType::kNull:
      encoded_ = wg_encode_query_param_null(db_, nullptr);
      in_word_ = true;
      break;
    case FieldType::kInt64:
      encoded_ = wg_encode_query_param_int(db_, value_.int_value);
      in_word_ = IsImmediateInt(value_.int_value);
      break;
    case FieldType::kDouble:
      encoded_ = wg_encode_query_param_double(db_, value_.double_value);
      break;
    case FieldType::kString:
      if (std::memchr(value_.bytes.data(), 0, value_.bytes.size()) != nullptr) {
        return Status::NotFound("whitedb: no string field holds a NUL byte");
      }
      encoded_ = wg_encode_query_param_str(db_, value_.bytes.c_str(), nullptr);
      break;
    case FieldType::kBytes:
      encoded_ = wg_encode_blob(db_, value_.bytes.data(), nullptr,
                                static_cast<wg_int>(value_.bytes.size()));
      break;
    case FieldType::kReference:
      encoded_ = wg_encode_query_param_record(
          db_, wg_decode_record(db_, static_cast<wg_int>(value_.reference)));
      in_word_ = true;
      break;
  }
  if (encoded_ == WG_ILLEGAL) {
    return Status::IOError("whitedb: cannot encode the query value" + TakeWhitedbMessages());
  }
  return Status::OK();
}

}  // namespace kvbench
