// The shards of one sharded run (`kvbench run --shard K/N`, one results.json
// each) joined back into one RunResults (`kvbench merge`), and where each row
// was measured. docs/scale-out.md describes the whole scheme.
#pragma once

#include <string>
#include <vector>

#include "common/status.h"
#include "results/results.h"

namespace kvbench::results {

// One shard's results as read, and the path they were read from (for messages).
struct ShardFile {
  std::string path;
  RunResults results;
};

// Joins every shard of one sharded run. Refuses, with InvalidArgument and one
// message naming the shards (K/N) and their files:
// - an input that is not one shard's results (an unsharded run, or a merge);
// - shards of different plans (plan hash; the message says what differs),
//   different shard counts, or different unit assignments (`--costs`);
// - a shard given twice;
// - a missing shard: every missing index is named, with `absent`, the inputs
//   that do not exist (a shard directory its task never filled), to say where
//   the missing shards were expected;
// - a shard that did not finish (killed midway: its results stop early);
// - one row measured by two shards.
// The result: runs in the plan's order (PhaseRun::row), each keeping its
// shard; one EngineRun per engine (failed or interrupted when it was on any
// shard, with the shard named in the reason; wall_seconds summed); `shards`
// in index order, each with its host's environment and its file; the top-level
// environment and workload of shard 0; the earliest start and latest finish.
Status MergeShards(const std::vector<ShardFile>& shards, const std::vector<std::string>& absent,
                   const std::string& command_line, RunResults* out);

// The environment of the host that measured `run`: its shard's in merged
// results, else the results' own.
const Environment& EnvironmentOf(const RunResults& results, const PhaseRun& run);

// The hostnames that measured `results`' runs, each once, in the order of
// their first row; a single entry when one host measured everything.
std::vector<std::string> HostsOf(const RunResults& results);

}  // namespace kvbench::results
