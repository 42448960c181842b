// The shared record layer: a RecordTable (adapters/record.h) over any
// Session's Put/Get/Delete/Scan, for every engine without records of its own.
// docs/record-codec.md has the full story; in short:
//
// Keys (table names are [A-Za-z0-9_]+, so '#' never occurs in one):
//   "/<table>/<id>"                   a record: id in decimal, ids count from 1,
//                                     value = record_codec encoding (named when
//                                     the spec has names); seed 004's "/order/1"
//   "/<table>#meta"                   the table's metadata (table_meta.h)
//   "/<table>#i<field>.<gen>#<value>" a secondary index entry: the posting list
//                                     of ids whose field holds <value>
//                                     (record_index.h)
//
// Ids: the next id lives in memory and is handed out from reservations of
// kIdReservation ids. The metadata is written when a table object opens (with
// its first reservation), when the counter reaches the reservation's end, on
// CreateIndex, and by the destructor. While an object is open the stored next
// id is its reservation's end and marked not clean, so a crash leaves a gap
// of ids, never a reused one; the destructor stores the exact next id, marked
// clean. Opening probes forward from the stored next id while records exist;
// when the metadata is not clean it first probes one reservation's worth of
// ids past it (covering one reservation write lost in an aborted batch).
//
// Costs (Gets/Puts per call, h = indexed fields): InsertRecord 1 Put + h
// (Get + Put of a posting list), plus 1 metadata Put every kIdReservation
// inserts; CreateRecord the same; SetField 1 Get + 1 Put, plus 2 (Get + Put)
// when the field is indexed and its value changes; GetField, GetRecord,
// FollowReference 1 Get; DeleteRecord 1 Delete, or 1 Get + 1 Delete + h
// (Get + Put) with indexes; QueryEqual 1 Get; ScanEqual one Scan on ordered
// engines, else one Get per id ever assigned; CreateIndex a ScanEqual's
// reads plus one Get + Put per distinct value. Opening a table: 2 Gets + 1 Put
// (+ kIdReservation Gets after a crash); destroying the object: 1 Put.
//
// Consistency: a record and its index entries are separate keys; a call's
// writes are atomic only inside a batch on a transactional engine. Writes
// inside a batch read back the batch's own earlier writes (a posting list, a
// record inserted in the batch), so the engine's reads inside a batch must
// see them; stdmap and redis do not (docs/record-codec.md, "Batches").
//
// Not thread-safe (like its Session). One table object per table at a time:
// two objects over the same table would hand out the same ids.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "adapters/adapter.h"
#include "adapters/record.h"
#include "adapters/record_layer/record_codec.h"
#include "adapters/record_layer/table_meta.h"

namespace kvbench::record_layer {

// Ids handed out between two metadata writes.
inline constexpr RecordId kIdReservation = 1024;
// Ids an index build gathers in memory before writing their posting lists,
// which bounds its memory on big tables (about 100 bytes an id).
inline constexpr size_t kIndexBuildChunk = size_t{1} << 20;

// InvalidArgument unless the spec is usable: a name of 1-64 letters, digits
// and '_', at least one field, and either no names or one per field.
Status ValidateRecordTableSpec(const RecordTableSpec& spec);

class KvRecordTable final : public RecordTable {
 public:
  // Opens or creates `spec.name` over `session`, which must outlive the table.
  // InvalidArgument for a bad spec or one that contradicts the stored table
  // (field count, field names); Corruption for unreadable metadata.
  static Status Open(Session* session, const RecordTableSpec& spec,
                     std::unique_ptr<RecordTable>* table);

  // Writes the exact next id (clean); errors are dropped (a later open
  // probes instead).
  ~KvRecordTable() override;

  Status CreateRecord(RecordId* id) override;
  Status InsertRecord(const std::vector<FieldValue>& fields, RecordId* id) override;
  Status SetField(RecordId id, uint32_t field, const FieldValue& value, SetMode mode) override;
  Status GetField(RecordId id, uint32_t field, FieldValue* value) override;
  Status GetRecord(RecordId id, std::vector<FieldValue>* fields) override;
  Status DeleteRecord(RecordId id) override;
  Status ScanEqual(uint32_t field, const FieldValue& value, size_t limit,
                   std::vector<RecordId>* matches, uint64_t* examined) override;
  Status CreateIndex(uint32_t field) override;
  Status QueryEqual(uint32_t field, const FieldValue& value, size_t limit,
                    std::vector<RecordId>* matches) override;
  Status FollowReference(RecordId id, uint32_t field, RecordId* target) override;

  // How many ids CreateIndex gathers in memory before writing posting lists
  // (default kIndexBuildChunk); tests make it small to exercise resuming.
  void set_index_build_chunk(size_t ids) { index_build_chunk_ = ids; }

 private:
  // Where a walk over the stored records stands (Walk pauses and resumes).
  struct RecordWalk {
    bool use_scan = true;
    bool resumed = false;  // ordered engines: walk_from_ holds the first key not yet visited
    bool done = false;
    RecordId next_id = 1;  // others: the next id to Get
  };

  KvRecordTable(Session* session, const RecordTableSpec& spec);

  Status Load();
  Status ProbeNextId(bool clean);
  Status WriteMeta(bool clean);
  Status AllocateId(RecordId* id);
  Status CheckField(uint32_t field) const;
  const TableMeta::Index* FindIndex(uint32_t field) const;

  void MakeRecordKey(RecordId id, std::string* key) const;
  // record_codec::ReadHeader, plus Corruption when the field count is not the table's.
  Status ReadHeader(Slice record, record_codec::RecordHeader* header) const;
  // Gets record `id` into record_ and reads its header into header_. NotFound
  // when absent (or an empty value, as the null engine returns).
  Status ReadRecord(RecordId id);
  Status Exists(RecordId id, bool* exists);

  // Index entry maintenance for one canonical value (record_index.h).
  void MakeIndexKey(const TableMeta::Index& index, Slice canonical, std::string* key,
                    bool* hashed) const;
  Status IndexAdd(const TableMeta::Index& index, Slice canonical, const RecordId* ids,
                  size_t count);
  Status IndexRemove(const TableMeta::Index& index, Slice canonical, RecordId id);

  // Calls fn(id, encoded record) for stored records in key order (ordered
  // engines) or id order (others) until fn returns false (the walk pauses;
  // call again to resume) or every record was seen (walk->done).
  template <typename Fn>
  Status Walk(RecordWalk* walk, Fn&& fn);
  Status BuildIndex(const TableMeta::Index& index);

  Session* const session_;
  const RecordTableSpec spec_;
  const uint32_t field_count_;
  const std::string record_prefix_;  // "/<table>/"
  const std::string meta_key_;       // "/<table>#meta"
  const std::string* const names_;   // spec_.field_names.data() or nullptr

  TableMeta meta_;
  RecordId next_id_ = 1;   // the id InsertRecord hands out next
  RecordId reserved_ = 1;  // ids below this are covered by the stored metadata
  bool loaded_ = false;    // Load succeeded: the destructor writes the metadata
  size_t index_build_chunk_ = kIndexBuildChunk;
  std::string null_record_;  // the encoding of an all-NULL record (CreateRecord)

  // Reused across calls, so a warm table allocates nothing per call.
  std::string key_;
  std::string record_;
  record_codec::RecordHeader header_;
  std::string encoded_;
  std::string index_key_;
  std::string posting_;
  std::string posting_scratch_;
  std::string old_canonical_;
  std::string new_canonical_;
  // One walk at a time: where a paused Scan resumes, and where the visitor
  // writes that key (never into the buffer the running Scan started from).
  std::string walk_from_;
  std::string walk_pause_;
};

}  // namespace kvbench::record_layer
