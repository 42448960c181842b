#include "conformance/check.h"

#include <atomic>
#include <cstdio>

namespace kvbench::conformance {
namespace {

std::atomic<CaseLog*> current_log{nullptr};
thread_local std::vector<std::string> traces;

}  // namespace

void CaseLog::AddFailure(std::string text) {
  std::lock_guard lock(mutex_);
  failures_.push_back(std::move(text));
}

void CaseLog::Skip(std::string reason) {
  std::lock_guard lock(mutex_);
  if (skipped_) return;
  skipped_ = true;
  skip_reason_ = std::move(reason);
}

bool CaseLog::stopped() const {
  std::lock_guard lock(mutex_);
  return skipped_ || !failures_.empty();
}

// A failure outranks a skip: a case that failed before skipping failed.
Verdict CaseLog::verdict() const {
  std::lock_guard lock(mutex_);
  if (!failures_.empty()) return Verdict::kFailed;
  return skipped_ ? Verdict::kSkipped : Verdict::kPassed;
}

std::vector<std::string> CaseLog::failures() const {
  std::lock_guard lock(mutex_);
  return failures_;
}

std::string CaseLog::skip_reason() const {
  std::lock_guard lock(mutex_);
  return skip_reason_;
}

CaseLog* CurrentCaseLog() { return current_log.load(); }
void SetCurrentCaseLog(CaseLog* log) { current_log.store(log); }

void Failure::operator=(const Note& note) const {
  std::string text = std::string(file_);
  const size_t slash = text.rfind('/');
  if (slash != std::string::npos) text.erase(0, slash + 1);
  // append() rather than operator+ on literals: g++ 12 warns falsely (-Wrestrict) on those.
  text.append(":").append(std::to_string(line_)).append(": ").append(what_);
  const std::string extra = note.str();
  if (!extra.empty()) text.append(" -- ").append(extra);
  for (const std::string& trace : traces) text.append(" [").append(trace).append("]");
  if (CaseLog* log = CurrentCaseLog()) {
    log->AddFailure(std::move(text));
  } else {
    std::fprintf(stderr, "conformance check outside a case: %s\n", text.c_str());
  }
}

void Skipping::operator=(const Note& note) const {
  if (CaseLog* log = CurrentCaseLog()) log->Skip(note.str());
}

TraceScope::TraceScope(std::string text) { traces.push_back(std::move(text)); }
TraceScope::~TraceScope() { traces.pop_back(); }

std::string ShowString(std::string_view s) {
  std::string out = "\"";
  const size_t shown = s.size() > 80 ? 80 : s.size();
  for (size_t i = 0; i < shown; ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      char hex[5];
      std::snprintf(hex, sizeof hex, "\\x%02x", c);
      out += hex;
    }
  }
  out += "\"";
  if (shown < s.size()) out += "... (" + std::to_string(s.size()) + " bytes)";
  return out;
}

}  // namespace kvbench::conformance
