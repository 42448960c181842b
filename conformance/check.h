// The checks a conformance case makes, without a test framework (kvbench
// links no gtest into the product; `kvbench conformance` runs the cases
// itself, and the ctest suites wrap the same cases).
//
//   KVB_EXPECT_EQ(Get("k"), "v") << "after reopen";  // records a failure, goes on
//   KVB_ASSERT_TRUE(s.ok()) << s.ToString();          // records a failure, returns
//   KVB_SKIP() << engine() << " is not ordered";      // ends the case as skipped
//
// ASSERT and SKIP return from the enclosing function, which must return void
// (as gtest's). Failures are recorded in the running case's CaseLog; a check
// made on any thread of the case is recorded (the log is locked).
#pragma once

#include <concepts>
#include <mutex>
#include <ostream>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "adapters/record.h"

namespace kvbench::conformance {

enum class Verdict { kPassed, kFailed, kSkipped };

// What one case found. Thread-safe.
class CaseLog {
 public:
  void AddFailure(std::string text);
  void Skip(std::string reason);
  // A failure or a skip: the case's body is not run after SetUp stopped.
  bool stopped() const;
  Verdict verdict() const;
  std::vector<std::string> failures() const;
  std::string skip_reason() const;

 private:
  mutable std::mutex mutex_;
  std::vector<std::string> failures_;
  bool skipped_ = false;
  std::string skip_reason_;
};

// The log checks write to while a case runs (case_runner.cc sets it).
CaseLog* CurrentCaseLog();
void SetCurrentCaseLog(CaseLog* log);

// Text a check appends with <<.
class Note {
 public:
  template <typename T>
  Note& operator<<(const T& value) {
    out_ << value;
    return *this;
  }
  std::string str() const { return out_.str(); }

 private:
  std::ostringstream out_;
};

// Records a failure when assigned its Note (the assignment ends the
// statement, after every << of the check's message).
class Failure {
 public:
  Failure(const char* file, int line, std::string what)
      : file_(file), line_(line), what_(std::move(what)) {}
  void operator=(const Note& note) const;

 private:
  const char* file_;
  int line_;
  std::string what_;
};

class Skipping {
 public:
  void operator=(const Note& note) const;
};

// Adds `text` to every failure recorded on this thread while it lives.
class TraceScope {
 public:
  explicit TraceScope(std::string text);
  ~TraceScope();
  TraceScope(const TraceScope&) = delete;
  TraceScope& operator=(const TraceScope&) = delete;
};

// Values as failure messages show them: strings quoted and escaped (cut at
// 80 bytes), field values described, ranges and pairs element by element.
std::string ShowString(std::string_view s);

template <typename T>
std::string Show(const T& value);

template <typename T>
concept Streamable = requires(std::ostream& o, const T& v) {
  o << v;
};
template <typename T>
concept Iterable = requires(const T& v) {
  v.begin();
  v.end();
};

template <typename A, typename B>
std::string Show(const std::pair<A, B>& p) {
  return std::string("(").append(Show(p.first)).append(", ").append(Show(p.second)).append(")");
}

template <typename T>
std::string Show(const T& value) {
  if constexpr (std::is_same_v<T, std::nullptr_t>) {
    return "nullptr";
  } else if constexpr (std::is_convertible_v<const T&, std::string_view>) {
    return ShowString(value);
  } else if constexpr (std::is_same_v<T, FieldValue>) {
    return DescribeFieldValue(value);
  } else if constexpr (std::is_same_v<T, bool>) {
    return value ? "true" : "false";
  } else if constexpr (Streamable<T>) {
    std::ostringstream out;
    out << value;
    return out.str();
  } else if constexpr (Iterable<T>) {
    std::string out = "[";
    size_t n = 0;
    for (const auto& item : value) {
      if (n > 0) out += ", ";
      if (++n > 8) {
        out += "...";
        break;
      }
      out += Show(item);
    }
    return out + "]";
  } else {
    return "(a value)";
  }
}

// "" when `ok`, else "a OP b: <a> vs <b>".
template <typename A, typename B>
std::string Compared(bool ok, const A& a, const B& b, const char* ea, const char* op,
                     const char* eb) {
  if (ok) return {};
  return std::string(ea) + " " + op + " " + eb + ": " + Show(a) + " vs " + Show(b);
}

}  // namespace kvbench::conformance

#define KVB_CONFORMANCE_FAIL_(what) \
  ::kvbench::conformance::Failure(__FILE__, __LINE__, what) = ::kvbench::conformance::Note()

// gtest's guard against a dangling else: `if (x) KVB_EXPECT_TRUE(y);` stays one statement.
#define KVB_CONFORMANCE_BLOCK_ \
  switch (0)                   \
  case 0:                      \
  default:

#define KVB_EXPECT_TRUE(cond) \
  KVB_CONFORMANCE_BLOCK_      \
  if (cond) {                 \
  } else                      \
    KVB_CONFORMANCE_FAIL_("expected " #cond)
#define KVB_EXPECT_FALSE(cond) \
  KVB_CONFORMANCE_BLOCK_       \
  if (!(cond)) {               \
  } else                       \
    KVB_CONFORMANCE_FAIL_("expected not " #cond)
#define KVB_ASSERT_TRUE(cond) \
  KVB_CONFORMANCE_BLOCK_      \
  if (cond) {                 \
  } else                      \
    return KVB_CONFORMANCE_FAIL_("expected " #cond)
#define KVB_ASSERT_FALSE(cond) \
  KVB_CONFORMANCE_BLOCK_       \
  if (!(cond)) {               \
  } else                       \
    return KVB_CONFORMANCE_FAIL_("expected not " #cond)

#define KVB_CONFORMANCE_CMP_(prefix, a, op, b)                                                 \
  KVB_CONFORMANCE_BLOCK_                                                                       \
  if (std::string kvb_cmp_ =                                                                   \
          [&](const auto& kvb_a_, const auto& kvb_b_) {                                        \
            return ::kvbench::conformance::Compared(kvb_a_ op kvb_b_, kvb_a_, kvb_b_, #a, #op, \
                                                    #b);                                       \
          }((a), (b));                                                                         \
      kvb_cmp_.empty()) {                                                                      \
  } else                                                                                       \
    prefix KVB_CONFORMANCE_FAIL_(kvb_cmp_)

#define KVB_EXPECT_EQ(a, b) KVB_CONFORMANCE_CMP_(, a, ==, b)
#define KVB_EXPECT_NE(a, b) KVB_CONFORMANCE_CMP_(, a, !=, b)
#define KVB_EXPECT_LT(a, b) KVB_CONFORMANCE_CMP_(, a, <, b)
#define KVB_EXPECT_LE(a, b) KVB_CONFORMANCE_CMP_(, a, <=, b)
#define KVB_EXPECT_GT(a, b) KVB_CONFORMANCE_CMP_(, a, >, b)
#define KVB_EXPECT_GE(a, b) KVB_CONFORMANCE_CMP_(, a, >=, b)
#define KVB_ASSERT_EQ(a, b) KVB_CONFORMANCE_CMP_(return, a, ==, b)
#define KVB_ASSERT_NE(a, b) KVB_CONFORMANCE_CMP_(return, a, !=, b)
#define KVB_ASSERT_LT(a, b) KVB_CONFORMANCE_CMP_(return, a, <, b)
#define KVB_ASSERT_LE(a, b) KVB_CONFORMANCE_CMP_(return, a, <=, b)
#define KVB_ASSERT_GT(a, b) KVB_CONFORMANCE_CMP_(return, a, >, b)
#define KVB_ASSERT_GE(a, b) KVB_CONFORMANCE_CMP_(return, a, >=, b)

#define KVB_SKIP() return ::kvbench::conformance::Skipping() = ::kvbench::conformance::Note()

#define KVB_CONFORMANCE_CONCAT_(a, b) a##b
#define KVB_CONFORMANCE_CONCAT(a, b) KVB_CONFORMANCE_CONCAT_(a, b)
#define KVB_SCOPED_TRACE(text) \
  ::kvbench::conformance::TraceScope KVB_CONFORMANCE_CONCAT(kvb_trace_, __LINE__)(text)
