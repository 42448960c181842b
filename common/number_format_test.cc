#include "common/number_format.h"

#include <gtest/gtest.h>

namespace kvbench {
namespace {

TEST(NumberFormatTest, CountsCarryThousandsSeparators) {
  EXPECT_EQ(FormatCount(0), "0");
  EXPECT_EQ(FormatCount(999), "999");
  EXPECT_EQ(FormatCount(1000), "1,000");
  EXPECT_EQ(FormatCount(885101.2), "885,101");
  EXPECT_EQ(FormatCount(-1234567), "-1,234,567");
  EXPECT_EQ(FormatCount(-0.4), "0");
}

// The live lines of a run and the final table write a rate the same way
// (issue 33): separators from 100 up, three significant digits below.
TEST(NumberFormatTest, RatesAndMicrosAsTheReportsWriteThem) {
  EXPECT_EQ(FormatRate(885101.4), "885,101");
  EXPECT_EQ(FormatRate(263316), "263,316");
  EXPECT_EQ(FormatRate(99.95), "100");
  EXPECT_EQ(FormatRate(12.345), "12.3");
  EXPECT_EQ(FormatRate(0.5123), "0.512");
  EXPECT_EQ(FormatMicros(9.996), "10.0");
  EXPECT_EQ(FormatMicros(512.4), "512");
  EXPECT_EQ(FormatMicros(12345.6), "12,346");
  EXPECT_EQ(FormatSignificant(0.001234, 3), "0.00123");
}

}  // namespace
}  // namespace kvbench
