// A workload file of either kind into a plan: our TOML format
// (runner/workload_parser.cc) or a YCSB CoreWorkload property file
// (runner/ycsb/ycsb_properties.h), told apart by IsYcsbPropertyFile. Here,
// above the core, because the core plans a `Workload` and knows no file
// format but its own: the arrows run from runner/ycsb/ to runner/, never back.
#pragma once

#include <string>

#include "common/status.h"
#include "runner/run_plan.h"

namespace kvbench::runner {

// Reads `path` (TOML, or YCSB properties with overrides.properties applied
// over them) and plans it (PlanWorkload). InvalidArgument (bad file
// contents, unknown engine, option, dataset or distribution; "FILE: ..."
// prefixed; -p given for a TOML file) or IOError (unreadable file, a
// directory or device).
Status PlanRun(const std::string& path, const RunOverrides& overrides, RunPlan* plan);

}  // namespace kvbench::runner
