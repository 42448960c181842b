#include "runner/phase_op.h"

#include <array>

namespace kvbench::runner {

namespace {

constexpr uint32_t kStreamCommon = kFieldCount | kFieldWarmup | kFieldThreads;
constexpr uint32_t kWrites = kFieldBatch | kFieldSync;
constexpr uint32_t kRecordCommon = kFieldCount | kFieldBatch | kFieldRecord;

using S = PhaseShape;
// op, name, shape, fields, needs_ordered, needs_record_table, writes, needs_durable,
// needs_stored_data
constexpr std::array<PhaseOpInfo, 24> kPhaseOps = {{
    {PhaseOp::kInsert, "insert", S::kStream, kStreamCommon | kWrites | kFieldOrder, false, false, true, false, false},
    {PhaseOp::kUpdate, "update", S::kStream, kStreamCommon | kWrites | kFieldDistribution, false, false, true, false, false},
    {PhaseOp::kDelete, "delete", S::kStream, kStreamCommon | kWrites | kFieldDistribution, false, false, true, false, false},
    {PhaseOp::kRmw, "rmw", S::kStream, kStreamCommon | kWrites | kFieldDistribution, false, false, true, false, false},
    {PhaseOp::kGet, "get", S::kStream, kStreamCommon | kFieldKeys | kFieldDistribution, false, false, false, false, false},
    {PhaseOp::kScan, "scan", S::kStream, kStreamCommon | kFieldDistribution | kFieldLimit | kFieldDirection, true, false, false, false, false},
    {PhaseOp::kRange, "range", S::kStream, kStreamCommon | kFieldFromTo | kFieldLimit | kFieldDirection, true, false, false, false, false},
    {PhaseOp::kSkip, "skip", S::kStream, kStreamCommon | kFieldFromTo | kFieldSkip | kFieldLimit | kFieldDirection, true, false, false, false, false},
    {PhaseOp::kMix, "mix", S::kStream, kStreamCommon | kWrites | kFieldDistribution | kFieldProportions | kFieldLimit | kFieldDirection, false, false, true, false, false},
    {PhaseOp::kReorganize, "reorganize", S::kSingleCall, 0, false, false, false, false, false},
    {PhaseOp::kReopen, "reopen", S::kSingleCall, 0, false, false, false, true, false},
    {PhaseOp::kSync, "sync", S::kSingleCall, 0, false, false, false, false, false},
    {PhaseOp::kRecreate, "recreate", S::kRecreate, kFieldCount, false, false, false, false, false},
    {PhaseOp::kMemoryBaseline, "memory-baseline", S::kRecord, kFieldCount, false, false, false, false, false},
    {PhaseOp::kRecordCreate, "record-create", S::kRecord, kRecordCommon | kFieldSync | kFieldDeleteAfter, false, false, true, false, false},
    {PhaseOp::kRecordInsert, "record-insert", S::kRecord, kRecordCommon | kFieldSync | kFieldSet, false, false, true, false, false},
    {PhaseOp::kRecordGet, "record-get", S::kRecord, kRecordCommon | kFieldDistribution, false, true, false, false, true},
    {PhaseOp::kRecordSet, "record-set", S::kRecord, kRecordCommon | kFieldSync | kFieldField | kFieldDistribution, false, true, true, false, true},
    {PhaseOp::kRecordDelete, "record-delete", S::kRecord, kRecordCommon | kFieldSync, false, true, true, false, true},
    {PhaseOp::kRecordScan, "record-scan", S::kRecord, kRecordCommon | kFieldField | kFieldValue, false, true, false, false, true},
    {PhaseOp::kRecordIndex, "record-index", S::kRecord, kFieldRecord | kFieldField, false, true, false, false, true,
     /*single_run=*/true},
    {PhaseOp::kRecordQuery, "record-query", S::kRecord, kRecordCommon | kFieldField | kFieldValue | kFieldLimit, false, true, false, false, true},
    {PhaseOp::kRecordFollow, "record-follow", S::kRecord, kRecordCommon | kFieldField, false, true, false, false, true},
    // Deletes of keys that are not there: the tombstones an LSM tree writes anyway.
    {PhaseOp::kDeleteAbsent, "delete-absent", S::kStream, kStreamCommon | kWrites | kFieldDistribution, false, false, true, false, false},
}};

constexpr bool InEnumOrder() {
  for (size_t i = 0; i < kPhaseOps.size(); ++i) {
    if (static_cast<size_t>(kPhaseOps[i].op) != i) return false;
  }
  return true;
}
static_assert(InEnumOrder(), "kPhaseOps rows must follow PhaseOp's declaration order");

// A table of (value, name) pairs for the small enums.
template <typename E, size_t N>
struct Names {
  std::array<std::pair<E, const char*>, N> rows;
  const char* Of(E v) const {
    for (const auto& [e, n] : rows) {
      if (e == v) return n;
    }
    return "?";
  }
  bool Parse(std::string_view name, E* out) const {
    for (const auto& [e, n] : rows) {
      if (name == n) {
        *out = e;
        return true;
      }
    }
    return false;
  }
};

constexpr Names<KeyChoice, 3> kKeyChoices{{{{KeyChoice::kPresent, "present"},
                                            {KeyChoice::kAbsent, "absent"},
                                            {KeyChoice::kRepeat, "repeat"}}}};
constexpr Names<InsertOrder, 2> kInsertOrders{
    {{{InsertOrder::kIndex, "index"}, {InsertOrder::kShuffled, "shuffled"}}}};
constexpr Names<CommitSync, 2> kCommitSyncs{
    {{{CommitSync::kNone, "none"}, {CommitSync::kCommit, "commit"}}}};
constexpr Names<CacheState, 3> kCacheStates{
    {{{CacheState::kAsIs, ""}, {CacheState::kCold, "cold"}, {CacheState::kHot, "hot"}}}};
constexpr Names<ScanWay, 2> kScanWays{
    {{{ScanWay::kForward, "forward"}, {ScanWay::kBackward, "backward"}}}};
constexpr Names<RecordSetMode, 2> kRecordSetModes{
    {{{RecordSetMode::kNew, "new"}, {RecordSetMode::kChecked, "checked"}}}};

constexpr Names<Pacing, 2> kPacings{{{{Pacing::kSleep, "sleep"}, {Pacing::kSpin, "spin"}}}};

}  // namespace

std::span<const PhaseOpInfo> AllPhaseOps() { return kPhaseOps; }

const PhaseOpInfo& InfoOf(PhaseOp op) { return kPhaseOps[static_cast<size_t>(op)]; }

bool ParsePhaseOp(std::string_view name, PhaseOp* out) {
  for (const PhaseOpInfo& info : kPhaseOps) {
    if (name == info.name) {
      *out = info.op;
      return true;
    }
  }
  return false;
}

std::string PhaseOpNames() {
  std::string out;
  for (const PhaseOpInfo& info : kPhaseOps) out += (out.empty() ? "" : ", ") + std::string(info.name);
  return out;
}

const char* NameOf(KeyChoice v) { return kKeyChoices.Of(v); }
const char* NameOf(InsertOrder v) { return kInsertOrders.Of(v); }
const char* NameOf(CommitSync v) { return kCommitSyncs.Of(v); }
const char* NameOf(CacheState v) { return kCacheStates.Of(v); }
const char* NameOf(ScanWay v) { return kScanWays.Of(v); }
const char* NameOf(RecordSetMode v) { return kRecordSetModes.Of(v); }
const char* NameOf(Pacing v) { return kPacings.Of(v); }
bool Parse(std::string_view name, KeyChoice* out) { return kKeyChoices.Parse(name, out); }
bool Parse(std::string_view name, InsertOrder* out) { return kInsertOrders.Parse(name, out); }
bool Parse(std::string_view name, CommitSync* out) { return kCommitSyncs.Parse(name, out); }
bool Parse(std::string_view name, CacheState* out) { return kCacheStates.Parse(name, out); }
bool Parse(std::string_view name, ScanWay* out) { return kScanWays.Parse(name, out); }
bool Parse(std::string_view name, RecordSetMode* out) { return kRecordSetModes.Parse(name, out); }
bool Parse(std::string_view name, Pacing* out) { return kPacings.Parse(name, out); }

}  // namespace kvbench::runner
