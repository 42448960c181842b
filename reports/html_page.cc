#include "reports/html_page.h"

#include <fmt/format.h>

#include "reports/text_format.h"

namespace kvbench::reports {

namespace {

constexpr const char* kStyle = R"css(
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;
color:#1f2328;max-width:1800px;margin:0 auto;padding:12px 2vw 48px}
h1{font-size:26px;margin:12px 0 4px}h2{font-size:21px;margin:28px 0 8px;border-bottom:1px solid
#d0d7de;padding-bottom:4px}h3{font-size:17px;margin:24px 0 6px}
code{font:13px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:#f3f4f6;
padding:1px 4px;border-radius:3px}
nav{font-size:14px;margin:8px 0 4px;display:flex;flex-wrap:wrap;gap:2px 12px}
.wrap{overflow-x:auto}
table{border-collapse:collapse;margin:6px 0 10px;font-size:13px}
th,td{padding:4px 9px;border-bottom:1px solid #d8dee4;vertical-align:top}
th{background:#f3f5f7;font-weight:600;white-space:nowrap;text-align:left}
td{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
th.num{text-align:right}td.l{text-align:left}td.w,table.facts td{text-align:left;white-space:normal}
td.best{background:#e9f5ec}td.tied{background:#f6f8fa}
table.facts th{background:none;padding-right:18px}
p.note,p.params{font-size:13px;color:#57606a;margin:4px 0}
p.warning{background:#fff4ce;border-left:4px solid #bf8700;padding:6px 10px;margin:8px 0}
ul.work,p.work{font-size:14px;margin:6px 0}
figure.chart{margin:18px 0 22px;overflow-x:auto}
figure.chart svg{display:block;width:100%;max-width:1400px;height:auto}
figcaption{font-size:13px;color:#3d444d;margin-top:4px}
pre{background:#f6f8fa;padding:10px;overflow:auto;font-size:12px;line-height:1.35}
footer{margin-top:32px;font-size:12px;color:#6e7781}
)css";

}  // namespace

std::string HtmlPageStart(const std::string& title, const std::string& extra_css) {
  std::string h =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  h += "<title>" + HtmlEscape(title) + "</title>\n<style>" + kStyle + extra_css +
       "</style>\n</head>\n";
  h += "<body>\n<h1>" + HtmlEscape(title) + "</h1>\n";
  return h;
}

std::string TableHtml(const Table& t, const char* css_class) {
  std::string s = css_class ? fmt::format("<div class=\"wrap\"><table class=\"{}\">", css_class)
                            : std::string("<div class=\"wrap\"><table>");
  s += "<thead><tr>";
  for (size_t i = 0; i < t.header.size(); ++i) {
    s +=
        fmt::format("<th{}>{}</th>", t.numeric[i] ? " class=\"num\"" : "", HtmlEscape(t.header[i]));
  }
  s += "</tr></thead><tbody>\n";
  for (const auto& row : t.rows) {
    s += "<tr>";
    for (size_t i = 0; i < row.size(); ++i) {
      // Cells are right-aligned numbers unless marked "l": most cells are
      // numbers, and this keeps a large report small.
      // Short text ("bdb-hash") never wraps; long text (options, reasons) may.
      std::string cls = i < t.numeric.size() && t.numeric[i] ? ""
                        : row[i].text.size() > 32            ? "w"
                                                             : "l";
      if (row[i].best) cls += cls.empty() ? "best" : " best";
      if (row[i].tied) cls += cls.empty() ? "tied" : " tied";
      const std::string text = HtmlEscape(row[i].text) + (row[i].tied ? " (tied)" : "");
      s += fmt::format("<td{}>{}</td>", cls.empty() ? "" : " class=\"" + cls + "\"",
                       row[i].best ? "<strong>" + text + "</strong>" : text);
    }
    s += "</tr>\n";
  }
  return s + "</tbody></table></div>\n";
}

}  // namespace kvbench::reports
