// Numbers as Java prints them, for the files that Java tools (YCSB's output
// parsers, HdrHistogram's HistogramLogProcessor and plotter) read and that
// people compare against ones Java wrote.
#pragma once

#include <string>

namespace kvbench::reports {

// Double.toString: the shortest digits that read back as `v`, always with a
// fraction ("2000.0"), in computerized scientific notation outside
// [1e-3, 1e7) ("1.0E7", "2.5E-4"); "NaN", "Infinity".
std::string JavaDouble(double v);

// String.format("%.Nf", v): the shortest digits of `v` rounded half up to
// `decimals` places (C's printf rounds the binary value instead, so 1.005
// gives "1.00" there and "1.01" in Java).
std::string JavaFixed(double v, int decimals);

// JavaFixed right-aligned in `width` columns, as "%W.Nf".
std::string JavaFixed(double v, int decimals, int width);

}  // namespace kvbench::reports
