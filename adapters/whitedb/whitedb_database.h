// What every session of one `whitedb` adapter shares: the attached WhiteDB
// database, what it holds, and the adapter's directory of live record ids.
//
// Memory: private memory by default (wg_attach_local_database, as the seed's
// tests 1-9 may run); with whitedb.shm_segment = N a System V shared-memory
// segment, which is how WhiteDB's own tests ran. WhiteDB names a segment by a
// decimal SysV key (and silently falls back to key 1000 for any other name),
// so the adapter never passes a user's name through: segment N is key
// kWhitedbKeyBase + N, a range whose high bytes spell "kv". Open refuses a
// segment that exists already (kvbench cannot tell a crashed run's leftover
// from another program's database, and removes only what it created); Close
// detaches and removes the segment it created.
//
// What it holds: either key-value pairs or one record table, whichever the
// first use asks for, as in `native`: WhiteDB's indexes are per field number
// across all records, so the pairs' key index on field 0 would index a
// table's field 0 (and put table records into key scans).
//
// Live ids: WhiteDB keeps no directory of records a caller could check an id
// against, and reading a freed record reads whatever reused its memory. The
// adapter keeps one bit per 8-byte word of the database (size / 64 bytes of
// address space, touched only where records are) set for each live record of
// the table. A record id is WhiteDB's encoded record value, which is the
// record's offset in the database, so the check is a shift and a load.
//
// Tombstones: WhiteDB (as Debian builds it, with backlinks) refuses to delete
// a record another record refers to. The contract lets any record be deleted
// and keeps the referring fields as they were, so such a record becomes a
// tombstone: its fields are cleared, its id is no longer live, and WhiteDB's
// record stays until the last reference to it goes (whitedb_record_table.cc
// reaps it then).
//
// Thread-safety: members change only under WhiteDB's write lock and are read
// under its read or write lock (whitedb_lock.h); the class itself never locks.
#pragma once

#include <whitedb/dbapi.h>

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_set>

#include "adapters/engine_options.h"
#include "adapters/record.h"
#include "common/status.h"

namespace kvbench {

// The adapter's settings, parsed from its options by ParseWhitedbSettings
// (Open and CheckOptions both use it).
struct WhitedbSettings {
  uint64_t size = 0;         // whitedb.size: the database's bytes, fixed at creation
  uint32_t shm_segment = 0;  // whitedb.shm_segment: 0 private memory, else segment N
};

// Below this WhiteDB cannot lay out its areas (measured: 200,000 bytes is the
// least it accepts; 1 MiB leaves room for a few records).
inline constexpr uint64_t kWhitedbMinSize = 1 << 20;
// The SysV key of segment N is kWhitedbKeyBase + N ('k' 'v' 00 00).
inline constexpr int kWhitedbKeyBase = 0x6B760000;
inline constexpr uint32_t kWhitedbMaxSegment = 0xFFFF;
// WhiteDB indexes fields 0..127 only (MAX_INDEXED_FIELDNR in its dballoc.h).
inline constexpr uint32_t kWhitedbMaxIndexedField = 127;

// InvalidArgument "option 'whitedb.x': ..." for a bad value.
Status ParseWhitedbSettings(const EngineOptions& options, WhitedbSettings* out);

class WhitedbDatabase {
 public:
  enum class Holds { kNothing, kPairs, kTable };

  // Creates the database. IOError naming the option when the memory cannot be
  // had or the segment exists already (checked before attaching, and again
  // after: a segment that appeared in between is detached, not removed).
  static Status Attach(const WhitedbSettings& settings, std::unique_ptr<WhitedbDatabase>* out);
  // Frees the private memory, or detaches and removes the segment.
  ~WhitedbDatabase();
  WhitedbDatabase(const WhitedbDatabase&) = delete;
  WhitedbDatabase& operator=(const WhitedbDatabase&) = delete;

  // WhiteDB's database handle, for every wg_ call.
  void* db() const { return db_; }

  // A record's id, and the record of an id. WhiteDB encodes a record as its
  // offset from the start of the database (encode_datarec_offset is the
  // identity in its dbdata.h), which is all wg_encode_record and
  // wg_decode_record compute, after checking the database handle on every
  // call; the adapter's handle is checked once, at Attach, which also checks
  // that this libwgdb encodes records so. The same values, without a library
  // call per record (one per match of a query, one per insert).
  RecordId IdOf(const void* record) const {
    return static_cast<RecordId>(static_cast<const char*>(record) - base_);
  }
  void* RecordAt(RecordId id) const { return base_ + id; }
  const WhitedbSettings& settings() const { return settings_; }

  // IOError "whitedb: database full ..." naming whitedb.size, quoting what
  // WhiteDB printed (whitedb_messages.h): every NULL record and WG_ILLEGAL
  // encoding from WhiteDB means its memory ran out. One line.
  Status Full(std::string_view what) const;

  // What the database holds, set once by the first Put or OpenRecordTable.
  Holds holds = Holds::kNothing;
  std::string table_name;
  uint32_t table_fields = 0;
  // Record-table fields with a T-tree index (CreateIndex).
  bool indexed[kWhitedbMaxIndexedField + 1] = {};
  bool any_index = false;

  // The live record directory (see the file comment).
  bool IsLive(RecordId id) const {
    return id != 0 && (id & 7) == 0 && id < settings_.size &&
           (live_[id >> 9] >> ((id >> 3) & 63) & 1) != 0;
  }
  void MarkLive(RecordId id) { live_[id >> 9] |= uint64_t{1} << ((id >> 3) & 63); }
  void MarkDead(RecordId id) { live_[id >> 9] &= ~(uint64_t{1} << ((id >> 3) & 63)); }
  // Deleted records WhiteDB still keeps because others refer to them.
  std::unordered_set<RecordId> tombstones;

 private:
  WhitedbDatabase(const WhitedbSettings& settings, void* db, char* base, uint64_t* live)
      : settings_(settings), db_(db), base_(base), live_(live) {}

  const WhitedbSettings settings_;
  void* const db_;
  char* const base_;  // offset 0 of the database (wg_decode_record(db, 0))
  // calloc'ed: pages of zeros are mapped only when a bit in them is set.
  uint64_t* const live_;
};

}  // namespace kvbench
