// Records in the adapter contract: tables of records with typed fields,
// secondary indexes and references between records (seed 000's WhiteDB
// operations, seed 004's records of named fields).
//
// A Session opens a RecordTable by spec (Session::OpenRecordTable). Three
// implementations exist:
//   - native: nativedb's own records, indexes and references;
//   - sqlite: a real table with typed columns, CREATE INDEX, rowid references;
//   - every other engine: the shared record layer (adapters/record_layer/),
//     which encodes a record into one value with the portable record codec
//     (docs/record-codec.md) and keeps each secondary index as extra keys.
//     Session's default OpenRecordTable returns it, so an adapter gets records
//     without writing a line.
//
// Record ids are assigned by the engine, are never 0, and are opaque to the
// caller (a nativedb offset, a sqlite rowid, the record layer's counter). A
// reference field holds the id of a record of the same table.
//
// Transactions: a RecordTable's writes are the Session's writes; BeginBatch /
// CommitBatch on the Session group them exactly as they group Put calls. The
// shared record layer reads back inside a batch what it wrote there (index
// posting lists), so it needs an engine whose reads in a batch see the
// batch's writes; redis's pipelined MULTI does not, so on redis, record
// writes on a table with an index must not be batched.
//
// Lifetimes and threads: a RecordTable belongs to the Session that opened it,
// is used by that Session's thread only, and is destroyed before the Session.
// Statuses follow adapter.h: NotFound for an absent record, NotSupported for
// an operation the engine cannot do, InvalidArgument for a bad field number or
// a spec that contradicts the stored table.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/status.h"

namespace kvbench {

using RecordId = uint64_t;

enum class FieldType : uint8_t { kNull, kInt64, kDouble, kString, kBytes, kReference };

// The name used in workload schemas, docs and errors: "null", "int", "double",
// "string", "bytes", "ref".
const char* FieldTypeName(FieldType type);

// One field's value; only the member matching `type` is meaningful. Reused by
// callers across records, so decoding into it allocates nothing once `bytes`
// has grown to size.
struct FieldValue {
  FieldType type = FieldType::kNull;
  int64_t int_value = 0;
  double double_value = 0;
  std::string bytes;       // kString and kBytes
  RecordId reference = 0;  // kReference

  static FieldValue Null() { return FieldValue(); }
  static FieldValue Int(int64_t v) {
    FieldValue f;
    f.type = FieldType::kInt64;
    f.int_value = v;
    return f;
  }
  static FieldValue Double(double v) {
    FieldValue f;
    f.type = FieldType::kDouble;
    f.double_value = v;
    return f;
  }
  static FieldValue String(std::string v) {
    FieldValue f;
    f.type = FieldType::kString;
    f.bytes = std::move(v);
    return f;
  }
  static FieldValue Bytes(std::string v) {
    FieldValue f;
    f.type = FieldType::kBytes;
    f.bytes = std::move(v);
    return f;
  }
  static FieldValue Reference(RecordId id) {
    FieldValue f;
    f.type = FieldType::kReference;
    f.reference = id;
    return f;
  }
};

// Same type and same meaningful member (doubles compare by value).
bool operator==(const FieldValue& a, const FieldValue& b);
inline bool operator!=(const FieldValue& a, const FieldValue& b) { return !(a == b); }
// "int 42", "string \"abc\"" ... for test failures and error messages.
std::string DescribeFieldValue(const FieldValue& v);

struct RecordTableSpec {
  // Letters, digits and '_' only; at most 64 characters.
  std::string name = "records";
  // One declared type per field; the record's field count is types.size()
  // (at least 1). Engines with typed storage (sqlite's columns) declare these
  // types; a field may still hold NULL or, where the engine allows, another
  // type. kNull declares a field of no particular type.
  std::vector<FieldType> types;
  // Empty, or one name per field (seed 004's records are maps of named
  // fields). Named records are self-describing in the portable codec: every
  // encoded record carries its field names, as a serialised map does.
  std::vector<std::string> field_names;
};

enum class SetMode {
  // The field holds nothing yet (NULL, as in a fresh record): the engine may
  // skip reading the old value (WhiteDB's wg_set_new_field). Indexes stay right.
  kNew,
  // Any field: the old value is freed and index entries move (wg_set_field).
  kChecked,
};

class RecordTable {
 public:
  virtual ~RecordTable() = default;

  // A record whose fields are all NULL (seed 000 speed3: created, not set).
  virtual Status CreateRecord(RecordId* id) = 0;
  // A record holding `fields` (exactly the spec's field count, else
  // InvalidArgument): create plus set each field as new, in one call. An
  // engine may refuse a reference to a record that does not exist
  // (InvalidArgument); none is required to check.
  virtual Status InsertRecord(const std::vector<FieldValue>& fields, RecordId* id) = 0;
  // NotFound when there is no such record; InvalidArgument for a field out
  // of range.
  virtual Status SetField(RecordId id, uint32_t field, const FieldValue& value, SetMode mode) = 0;
  virtual Status GetField(RecordId id, uint32_t field, FieldValue* value) = 0;
  // All fields, in order, into *fields (resized to the field count).
  virtual Status GetRecord(RecordId id, std::vector<FieldValue>* fields) = 0;
  // Removes the record and its index entries; its space may be reused.
  // Deleting an absent record returns NotFound or OK (both are success to the
  // runner, as for Session::Delete).
  virtual Status DeleteRecord(RecordId id) = 0;

  // Seeking NULL is engine-defined (SQL's NULL never equals anything, the
  // record layer's does); callers seek non-NULL values.
  //
  // Every record whose `field` equals `value`, found by looking at every
  // record (no index is used, even when one exists). Appends at most `limit`
  // matching ids (0: no limit) to *matches (cleared first) and sets *examined
  // (optional) to the number of records looked at.
  virtual Status ScanEqual(uint32_t field, const FieldValue& value, size_t limit,
                           std::vector<RecordId>* matches, uint64_t* examined) = 0;

  // Builds a secondary index on `field` over the existing records and keeps it
  // right from then on. InvalidArgument when the field has one already.
  virtual Status CreateIndex(uint32_t field) = 0;
  // The records whose `field` equals `value`, through the index: at most
  // `limit` ids (0: no limit) into *matches (cleared first), in an engine-
  // defined order. InvalidArgument when the field has no index.
  virtual Status QueryEqual(uint32_t field, const FieldValue& value, size_t limit,
                            std::vector<RecordId>* matches) = 0;

  // The id held by reference field `field` of record `id`. NotFound when the
  // record is absent or the field is NULL; InvalidArgument when it holds
  // something other than a reference.
  virtual Status FollowReference(RecordId id, uint32_t field, RecordId* target) = 0;
};

class Session;

// The shared record layer over any Session's Put/Get/Delete/Scan
// (adapters/record_layer/kv_record_table.h); Session::OpenRecordTable's
// default.
Status OpenKvRecordTable(Session* session, const RecordTableSpec& spec,
                         std::unique_ptr<RecordTable>* table);

}  // namespace kvbench
