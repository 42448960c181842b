// The directory `kvbench ycsb load` leaves behind for `kvbench ycsb run`, as
// YCSB's load leaves a database for its run:
//
//   DIR/data/             the engine's own files
//   DIR/kvbench-ycsb.json the marker: which engine loaded it, with which
//                         options, how many records and in which layout
//
// A load writes the marker before it starts (complete: false) and again when
// it finished (complete: true). A run refuses a directory without a marker,
// with an incomplete one, or with another engine's; a load refuses another
// engine's directory and any non-empty directory without a marker (it is not
// kvbench's to empty), and replaces its own engine's earlier or unfinished
// load. Every check happens before anything in the directory is touched.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "common/status.h"
#include "runner/workload.h"

namespace kvbench::app {

struct YcsbDataMarker {
  std::string engine;
  std::map<std::string, std::string> options;  // the engine's resolved options at the load
  uint64_t records = 0;  // keys [0, records) are loaded (insertstart + insertcount)
  // The properties that decide keys and records: a run must use the same.
  std::map<std::string, std::string> layout;
  std::string loaded_at;  // ISO 8601 UTC
  bool complete = false;  // the load finished
};

inline constexpr const char* kYcsbMarkerName = "kvbench-ycsb.json";

// The properties of `w` that must agree between a load and its runs.
std::map<std::string, std::string> YcsbLayout(const runner::Workload& w);

// Reads DIR's marker: NotFound when there is none; InvalidArgument when it
// cannot be read as one.
Status ReadYcsbMarker(const std::string& dir, YcsbDataMarker* out);
Status WriteYcsbMarker(const std::string& dir, const YcsbDataMarker& marker);

// Checks before a load of `engine` into `dir` (InvalidArgument naming the
// directory and what it holds); *reload is set when it holds this engine's
// earlier load, which the load replaces.
Status CheckYcsbLoadDir(const std::string& dir, const std::string& engine, bool* reload);

// Checks before a run of `engine` with workload `w` on `dir`, and fills
// *marker; `warning` receives differences a run may have (options, record
// count).
Status CheckYcsbRunDir(const std::string& dir, const std::string& engine, const runner::Workload& w,
                       YcsbDataMarker* marker, std::string* warning);

// Empties DIR/data and marks `marker` (complete: false) as loading there.
Status StartYcsbLoad(const std::string& dir, const YcsbDataMarker& marker);

}  // namespace kvbench::app
