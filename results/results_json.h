// results.json: reading and writing RunResults.
//
// The file is an object {"schema": "kvbench-results", "schema_version": 1,
// ...} whose fields mirror results/results.h one to one (names in
// snake_case, durations in seconds unless the name says _ns/_us). Figures that
// were not measured are left out, never written as 0.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "common/atomic_file.h"
#include "common/status.h"
#include "results/results.h"

namespace kvbench::results {

nlohmann::json ResultsToJson(const RunResults& results);
// InvalidArgument naming the field when the document is not a results file
// of a schema version this build reads.
Status ResultsFromJson(const nlohmann::json& doc, RunResults* out);

// One PhaseRun / EngineRun, as they appear inside results.json; the engine
// child process streams these to the runner one line at a time.
nlohmann::json PhaseRunToJson(const PhaseRun& run);
Status PhaseRunFromJson(const nlohmann::json& doc, PhaseRun* out);
nlohmann::json EngineRunToJson(const EngineRun& engine);
Status EngineRunFromJson(const nlohmann::json& doc, EngineRun* out);

// The text of a results.json file (WriteResultsFile writes it): compact JSON
// on one line, or with `pretty` one field a line, indented, for people
// (`kvbench run --pretty`). Either reads back the same.
std::string ResultsFileText(const RunResults& results, bool pretty = false);

// Writes to `path` atomically (a temporary file in the same directory, fsync,
// rename), so a reader never sees half a file and an old file survives a
// failed write.
Status WriteResultsFile(const RunResults& results, const std::string& path, bool pretty = false);
// "<path>: not valid JSON (truncated?) at byte N" / "<path>: schema_version 9
// is not supported (this kvbench reads 1)". When `bytes` is given it gets
// the file's bytes as read (the history store hashes them).
Status ReadResultsFile(const std::string& path, RunResults* out, std::string* bytes = nullptr);

}  // namespace kvbench::results
