// The phase operations, and every other closed set of words a phase takes,
// as enums defined once with a descriptor table. Names exist only at the file
// boundary (the workload parser reads them, results.json writes them); the
// plan, the executor, the workers and the reports' inputs use the enums.
//
// Adding a phase operation: a row in kPhaseOps (phase_op.cc), its stream in
// runner/operation_stream.cc (or record_phase.cc for a record operation), and
// a test. Nothing else switches on the operation by name.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace kvbench::runner {

enum class PhaseOp : uint8_t {
  kInsert, kUpdate, kDelete, kRmw, kGet, kScan, kRange, kSkip, kMix,
  kReorganize, kReopen, kSync, kRecreate, kMemoryBaseline,
  kRecordCreate, kRecordInsert, kRecordGet, kRecordSet, kRecordDelete, kRecordScan,
  kRecordIndex, kRecordQuery, kRecordFollow,
  kDeleteAbsent,
};

// How the executor runs a phase of the operation.
enum class PhaseShape : uint8_t {
  kStream,      // worker threads, each a stream of timed key-value operations
  kSingleCall,  // one timed call to the engine (reorganize, reopen, sync)
  kRecreate,    // close, delete and reopen the engine `count` times
  kRecord,      // record operations on one client thread (record_phase.h)
};

// The phase fields (workload.h, PhaseSpec) an operation reads, as bits.
// The parser refuses a field the operation does not read (a typo or a
// misplaced field would otherwise be silently ignored), and results list
// exactly these as the phase's parameters.
enum PhaseField : uint32_t {
  kFieldCount = 1u << 0,         // count / duration
  kFieldBatch = 1u << 1,         // writes (or record operations) per transaction
  kFieldWarmup = 1u << 2,
  kFieldKeys = 1u << 3,          // present | absent | repeat
  kFieldDistribution = 1u << 4,  // distribution and distribution_params
  kFieldSync = 1u << 5,
  kFieldOrder = 1u << 6,
  kFieldLimit = 1u << 7,
  kFieldDirection = 1u << 8,     // direction and values
  kFieldFromTo = 1u << 9,
  kFieldSkip = 1u << 10,
  kFieldProportions = 1u << 11,
  kFieldThreads = 1u << 12,      // threads, target, pacing, table_per_thread
  kFieldRecord = 1u << 13,       // schema, table
  kFieldField = 1u << 14,
  kFieldValue = 1u << 15,
  kFieldSet = 1u << 16,          // set, read_back
  kFieldDeleteAfter = 1u << 17,
};

struct PhaseOpInfo {
  PhaseOp op;
  const char* name;  // as written in workload files and results.json
  PhaseShape shape;
  uint32_t fields;         // PhaseField bits the operation reads
  bool needs_ordered;      // scans: unsupported on unordered engines
  bool needs_record_table; // a record table must exist (an earlier schema)
  bool writes;             // writes data: `sync = "commit"` applies
  bool needs_durable;      // means nothing for an in-memory engine (reopen)
  bool needs_stored_data;  // unsupported on engines that keep no data (null)
  // Changes the engine's state so that a second repetition would not do the
  // same work and nothing in the adapter contract undoes it (an index built
  // is there for the next repetition): the plan runs it once.
  bool single_run = false;
};

// Every operation, in declaration order.
std::span<const PhaseOpInfo> AllPhaseOps();
const PhaseOpInfo& InfoOf(PhaseOp op);
inline const char* NameOf(PhaseOp op) { return InfoOf(op).name; }
// False for an unknown name.
bool ParsePhaseOp(std::string_view name, PhaseOp* out);
// "insert, update, ..." for messages, generated from the table.
std::string PhaseOpNames();

// The other closed sets a phase takes. Each has Name/Parse through one table.
enum class KeyChoice : uint8_t { kPresent, kAbsent, kRepeat };  // get: which keys
enum class InsertOrder : uint8_t { kIndex, kShuffled };
enum class CommitSync : uint8_t { kNone, kCommit };  // engine Sync() after each commit
enum class CacheState : uint8_t { kAsIs, kCold, kHot };
enum class ScanWay : uint8_t { kForward, kBackward };
enum class RecordSetMode : uint8_t { kNew, kChecked };
// Under a target rate, how a worker waits for an operation's intended start:
// sleep (then yield) or spin on the clock. Spinning keeps the core busy and
// its caches warm, which isolates the cost of an idle core waking up.
enum class Pacing : uint8_t { kSleep, kSpin };

const char* NameOf(KeyChoice v);
const char* NameOf(InsertOrder v);
const char* NameOf(CommitSync v);
const char* NameOf(CacheState v);  // "" for kAsIs (results.json's "not applicable")
const char* NameOf(ScanWay v);
const char* NameOf(RecordSetMode v);
const char* NameOf(Pacing v);
bool Parse(std::string_view name, KeyChoice* out);
bool Parse(std::string_view name, InsertOrder* out);
bool Parse(std::string_view name, CommitSync* out);
bool Parse(std::string_view name, CacheState* out);
bool Parse(std::string_view name, ScanWay* out);
bool Parse(std::string_view name, RecordSetMode* out);
bool Parse(std::string_view name, Pacing* out);

}  // namespace kvbench::runner
