// How numbers are written for people, wherever kvbench prints them: the
// reports (reports/text_format.h re-exports these) and the live lines of a
// run (runner/progress_display.h), so a figure reads the same in both.
// Pure functions; deterministic (no locale), so golden files compare byte for
// byte on every machine.
#pragma once

#include <string>

namespace kvbench {

// Thousands separators, rounded to an integer: 1234567.4 -> "1,234,567".
std::string FormatCount(double v);
// `v` with `digits` significant digits and no exponent ("0.00123", "123").
std::string FormatSignificant(double v, int digits);
// Operations per second: integers with separators from 100 up, three
// significant digits below ("12.3", "0.512").
std::string FormatRate(double ops_per_sec);
// Microseconds with three significant digits ("0.512", "12.3", "512",
// "5,120"); the caller adds the unit.
std::string FormatMicros(double us);

}  // namespace kvbench
