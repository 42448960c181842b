// Record phases (op "record-*", PhaseSpec): seed 000's WhiteDB operations and
// seed 004's records, through the adapter contract's RecordTable
// (adapters/record.h), on one client thread.
//
// Timing: record operations are tens of nanoseconds on an in-memory engine,
// about what two clock reads and a histogram update cost. So the runner
// prepares a block of operations (generates the records, chooses the ids)
// outside the clock, then times the whole block of adapter calls with one
// pair of clock reads. The timed part is the blocks: Repetition::seconds is
// the sum of their times (generation excluded) and ops/s = operations /
// seconds, as for every phase; the latency histogram holds each block's mean per
// operation (blocks of up to 256 operations), so its percentiles describe
// block means, not single calls.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "adapters/adapter.h"
#include "results/results.h"
#include "runner/workload.h"

namespace kvbench::runner {

class RecordSource;

// What record phases leave behind for the next ones on the same engine: the
// table they wrote and the ids of its records, index-aligned with the
// generator's record indexes (0 where a record was deleted).
struct RecordState {
  RecordState();
  ~RecordState();
  void Clear();
  std::unique_ptr<RecordSource> source;
  std::vector<RecordId> ids;
  uint64_t deleted_upto = 0;  // record-delete removes the oldest live records first
};

// Runs one repetition of a record phase (or "memory-baseline") on `adapter`.
// Fills out->seconds, out->engine_seconds and out->ops. NotSupported (with *unsupported set) when
// the engine cannot do it.
Status RunRecordPhase(const PhaseSpec& spec, uint64_t seed, Adapter* adapter, RecordState* state,
                      results::Repetition* out, bool* unsupported);

}  // namespace kvbench::runner
