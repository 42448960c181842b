#include "reports/text_format.h"

#include <gtest/gtest.h>

namespace kvbench::reports {
namespace {

TEST(TextFormatTest, Counts) {
  EXPECT_EQ(FormatCount(0), "0");
  EXPECT_EQ(FormatCount(999), "999");
  EXPECT_EQ(FormatCount(1234567.4), "1,234,567");
  EXPECT_EQ(FormatCount(-1000), "-1,000");
}

TEST(TextFormatTest, RatesAndMicros) {
  EXPECT_EQ(FormatRate(182345.6), "182,346");
  EXPECT_EQ(FormatRate(12.345), "12.3");
  EXPECT_EQ(FormatMicros(0.5123), "0.512");
  EXPECT_EQ(FormatMicros(12.36), "12.4");
  EXPECT_EQ(FormatMicros(512.4), "512");
  EXPECT_EQ(FormatMicros(5120.4), "5,120");
  EXPECT_EQ(FormatSignificant(9.996, 3), "10.0");
}

TEST(TextFormatTest, BytesAndSeconds) {
  EXPECT_EQ(FormatBytes(0), "0 B");
  EXPECT_EQ(FormatBytes(512), "512 B");
  EXPECT_EQ(FormatBytes(1536), "1.50 KiB");
  EXPECT_EQ(FormatBytes(12.3 * 1048576), "12.3 MiB");
  EXPECT_EQ(FormatBytes(1048575), "1.00 MiB");
  EXPECT_EQ(FormatSeconds(1.234), "1.23 s");
  EXPECT_EQ(FormatSeconds(0.0456), "45.6 ms");
  EXPECT_EQ(FormatTarget(0), "unthrottled");
  EXPECT_EQ(FormatTarget(2000), "2,000/s");
  EXPECT_EQ(FormatRatio(0.4321), "0.432×");
  EXPECT_EQ(FormatChange(0.5), "-50.0%");
}

TEST(TextFormatTest, ExactNumbersForMachines) {
  EXPECT_EQ(FormatExact(182000), "182000");
  EXPECT_EQ(FormatExact(12.345), "12.345");
  EXPECT_EQ(FormatExact(0.1 + 0.2), "0.30000000000000004");
}

TEST(TextFormatTest, CsvTextFieldDisarmsFormulasOnly) {
  for (const char* formula : {"=1+1", "+1", "-1", "@SUM(A1)", "\tx", "\rx"}) {
    EXPECT_EQ(CsvTextField(formula).substr(0, 1) == "\"" ? CsvTextField(formula).substr(1, 1)
                                                         : CsvTextField(formula).substr(0, 1),
              "'")
        << formula;
  }
  EXPECT_EQ(CsvTextField("=a,b"), "\"'=a,b\"");
  EXPECT_EQ(CsvTextField("lmdb"), "lmdb");
  EXPECT_EQ(CsvTextField("a=b"), "a=b");
  EXPECT_EQ(CsvTextField(""), "");
}

TEST(TextFormatTest, CsvFieldQuotesOnlyWhenNeeded) {
  EXPECT_EQ(CsvField("plain"), "plain");
  EXPECT_EQ(CsvField(""), "");
  EXPECT_EQ(CsvField("a,b"), "\"a,b\"");
  EXPECT_EQ(CsvField("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(CsvField("two\nlines"), "\"two\nlines\"");
}

TEST(TextFormatTest, HtmlEscapesEverythingSpecial) {
  EXPECT_EQ(HtmlEscape("<a href=\"x\">'&'</a>"),
            "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
}

TEST(TextFormatTest, MarkdownEscapesTableAndEmphasis) {
  EXPECT_EQ(MarkdownEscape("get_cold"), "get_cold");  // intraword: left alone
  EXPECT_EQ(MarkdownEscape("_x_ | *y* <b>"), "\\_x\\_ \\| \\*y\\* &lt;b&gt;");
  EXPECT_EQ(MarkdownEscape("a\nb"), "a b");
  EXPECT_EQ(MarkdownEscape("#1 in sqlite#2"), "\\#1 in sqlite#2");  // only a leading # is a heading
  EXPECT_EQ(MarkdownCode("plain"), "`plain`");
  EXPECT_EQ(MarkdownCode("a`b"), "``a`b``");
  EXPECT_EQ(MarkdownCode("`x"), "`` `x ``");
}

}  // namespace
}  // namespace kvbench::reports
