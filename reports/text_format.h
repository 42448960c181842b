// Text shared by every renderer: how numbers are written for people, and how
// text is escaped for each output format. Pure functions; deterministic (no
// locale), so golden files compare byte for byte on every machine.
#pragma once

#include <string>
#include <string_view>

#include "common/number_format.h"

namespace kvbench::reports {

// FormatCount, FormatRate, FormatMicros and FormatSignificant live in
// common/number_format.h, so the live lines of a run (runner/) write numbers
// as the reports do.
using kvbench::FormatCount;
using kvbench::FormatMicros;
using kvbench::FormatRate;
using kvbench::FormatSignificant;

// Binary units with three significant digits: "0 B", "512 B", "1.50 KiB",
// "12.3 MiB".
std::string FormatBytes(double bytes);
// Seconds with three significant digits in s, ms or µs ("1.23 s", "45.6 ms").
std::string FormatSeconds(double seconds);
// "0.43×", "1.00×", "12.3×".
std::string FormatRatio(double ratio);
// Signed percent change from a ratio: 0.5 -> "-50.0%", 1.1 -> "+10.0%".
std::string FormatChange(double ratio);
// Shortest text that reads back as the same double ("12.345", "182000");
// for machine-read files (CSV).
std::string FormatExact(double v);
// Target rate of a phase: 0 -> "unthrottled", else "2,000/s".
std::string FormatTarget(double target_ops);

// HTML text and attribute values: & < > " ' escaped.
std::string HtmlEscape(std::string_view text);
// Markdown inline text (GitHub flavour): characters that would start
// emphasis, code, links, HTML or table cells are backslash-escaped or turned
// into entities; newlines become spaces.
std::string MarkdownEscape(std::string_view text);
// A Markdown code span that survives backticks inside `text`.
std::string MarkdownCode(std::string_view text);
// One CSV field per RFC 4180: quoted when it holds a comma, quote, CR or LF,
// with quotes doubled.
std::string CsvField(std::string_view text);
// A CSV field of free text (names, reasons): as CsvField, but a value that
// begins with '=', '+', '-' or '@' (also after a tab or CR, which some
// spreadsheets skip) is prefixed with a single quote, so a spreadsheet shows
// it as text instead of running it as a formula (OWASP's "CSV injection").
// Never for numbers: "-5" would stop being one.
std::string CsvTextField(std::string_view text);

}  // namespace kvbench::reports
