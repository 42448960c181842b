// What every HTML page kvbench writes shares: the document head with its
// inline style sheet (no script, no font, nothing fetched) and tables. Used
// by report.html (html_report.cc) and the history trend page (trend_page.cc).
#pragma once

#include <string>

#include "reports/phase_tables.h"

namespace kvbench::reports {

// "<!DOCTYPE html>...<body>\n<h1>title</h1>\n": the head with the shared
// style sheet (plus `extra_css`, for rules only one page needs) and the
// page's heading. `title` is plain text.
std::string HtmlPageStart(const std::string& title, const std::string& extra_css = "");

// A table in a horizontally scrolling box; numeric columns right-aligned,
// best cells bold, every cell escaped.
std::string TableHtml(const Table& t, const char* css_class = nullptr);

}  // namespace kvbench::reports
