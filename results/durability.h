// The durability section of results.json (`kvbench crash`), and the rules
// that turn trial counts into a measured promise and a finding.
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

#include "common/status.h"
#include "results/results.h"

namespace kvbench::results {

// Promise levels, weakest first, as DurabilityRun::declared / measured name them.
inline constexpr const char* kPromiseNothing = "nothing";
inline constexpr const char* kPromiseConsistent = "consistent";
inline constexpr const char* kPromiseDurable = "durable";

// Sets run->measured from the counts ("nothing" when any trial was corrupt or
// unopenable, else "consistent" when any lost an acknowledged commit, else
// "durable"; empty with no trials) and run->finding (the declaration promised
// more than that, or atomic batches under a promise of at least "consistent"
// and a batch was seen partial).
void ClassifyDurability(DurabilityRun* run);

// The fault as reports name it: "power-loss", or "power-loss, 4 writers"
// for trials with several writers.
std::string FaultLabel(const DurabilityRun& run);

// 0 nothing, 1 consistent, 2 durable; -1 for anything else.
int PromiseRank(const std::string& level);

nlohmann::json DurabilityToJson(const std::vector<DurabilityRun>& runs);
// InvalidArgument naming the entry and field that could not be read.
Status DurabilityFromJson(const nlohmann::json& doc, std::vector<DurabilityRun>* out);

}  // namespace kvbench::results
