// The durability section of a report (`kvbench crash`): one row per engine x
// option set x fault with what the adapter declared and what the trials
// measured, beside the throughput the same configuration reached in the
// run's normal phases; and the findings, where a declaration promised more
// than was measured. Markdown and HTML render the same cells.
#pragma once

#include <string>
#include <vector>

#include "reports/phase_tables.h"
#include "results/results.h"

namespace kvbench::reports {

// How to read the table, one paragraph.
std::string DurabilityNote();
// Empty rows when the run has no durability section.
Table DurabilityTable(const results::RunResults& results);
// One sentence per finding ("sqlite@x declares durable under power-loss but
// lost acknowledged commits in 3 of 50 trials (at most 2)").
std::vector<std::string> DurabilityFindings(const results::RunResults& results);
// The first problems the trials saw, "engine (fault): trial 3: ..." per line.
std::vector<std::string> DurabilityProblems(const results::RunResults& results);

}  // namespace kvbench::reports
