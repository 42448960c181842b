#include "conformance/case_runner.h"

#include <algorithm>
#include <cstdio>

#include "runner/engine_process.h"

namespace kvbench::conformance {
namespace {

// One line a field: newlines and backslashes escaped, so a message with
// newlines still comes through the pipe's line protocol.
std::string Escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

std::string Unescape(const std::string& text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 1 < text.size()) {
      out += text[i + 1] == 'n' ? '\n' : text[i + 1];
      ++i;
    } else {
      out += text[i];
    }
  }
  return out;
}

}  // namespace

CaseResult RunCaseHere(const Case& c, const std::string& engine) {
  CaseLog log;
  SetCurrentCaseLog(&log);
  {
    std::unique_ptr<CaseFixture> fixture = c.make();
    fixture->set_engine(engine);
    fixture->SetUp();
    if (!log.stopped()) fixture->Body();
    fixture->TearDown();
  }
  SetCurrentCaseLog(nullptr);
  CaseResult result;
  result.verdict = log.verdict();
  result.failures = log.failures();
  result.skip_reason = log.skip_reason();
  return result;
}

CaseResult RunCaseInChild(const Case& c, const std::string& engine, double timeout_s) {
  CaseResult result;
  bool reported = false;
  const runner::ChildOutcome outcome = runner::RunInChildProcess(
      [&](int fd) {
        const CaseResult here = RunCaseHere(c, engine);
        const char* verdict = here.verdict == Verdict::kPassed    ? "passed"
                              : here.verdict == Verdict::kSkipped ? "skipped"
                                                                  : "failed";
        bool ok = runner::WriteLine(fd, std::string("verdict ") + verdict);
        if (here.verdict == Verdict::kSkipped) {
          ok = ok && runner::WriteLine(fd, "skip " + Escape(here.skip_reason));
        }
        for (const std::string& f : here.failures)
          ok = ok && runner::WriteLine(fd, "failure " + Escape(f));
        ok = ok && runner::WriteLine(fd, "end");
        return ok ? 0 : 3;
      },
      timeout_s,
      [&](const std::string& line) {
        const size_t space = line.find(' ');
        const std::string kind = line.substr(0, space);
        const std::string rest = space == std::string::npos ? "" : Unescape(line.substr(space + 1));
        if (kind == "verdict") {
          result.verdict = rest == "passed"    ? Verdict::kPassed
                           : rest == "skipped" ? Verdict::kSkipped
                                               : Verdict::kFailed;
        } else if (kind == "skip") {
          result.skip_reason = rest;
        } else if (kind == "failure") {
          result.failures.push_back(rest);
        } else if (kind == "end") {
          reported = true;
        }
      });
  // A child that reported and then failed to exit cleanly (an engine's
  // destructor at exit) still failed: the finding names how it ended.
  if (!outcome.ok || !reported) {
    result.verdict = Verdict::kFailed;
    result.failures.push_back(
        c.full_name() + " on " + engine + ": the case's process " +
        (outcome.failure.empty() ? "ended without a report" : outcome.failure));
  }
  return result;
}

std::vector<std::string> SuiteNames() {
  std::vector<std::string> names;
  for (const Case& c : CaseRegistry::Global().cases()) {
    if (std::find(names.begin(), names.end(), c.suite) == names.end()) names.push_back(c.suite);
  }
  return names;
}

}  // namespace kvbench::conformance
