// Running conformance cases against one engine: in this process, or each in
// a child process of its own, so that an engine library that crashes or
// hangs is reported as a finding naming the case and the signal, and the
// other cases still run.
#pragma once

#include <string>
#include <vector>

#include "conformance/case_registry.h"
#include "conformance/check.h"

namespace kvbench::conformance {

struct CaseResult {
  Verdict verdict = Verdict::kPassed;
  std::vector<std::string> failures;  // "file:line: what -- note", or how the child ended
  std::string skip_reason;
};

// Runs `c` against `engine` here. Checks fail the case; a crash is ours.
CaseResult RunCaseHere(const Case& c, const std::string& engine);

// Runs `c` against `engine` in a forked child with `timeout_s`. A child
// killed by a signal, ended otherwise or out of time fails the case with
// "<suite>/<name> on <engine>: killed by signal 11 (Segmentation fault)...".
// The caller must have no other threads running.
CaseResult RunCaseInChild(const Case& c, const std::string& engine, double timeout_s);

// Suites that exist, in order ("adapter", "record", "options", "damaged-files").
std::vector<std::string> SuiteNames();

}  // namespace kvbench::conformance
