#include "results/history_model.h"

namespace kvbench::results {

const std::vector<FigureKind>& FigureKinds() {
  static const std::vector<FigureKind> kinds = {
      {"ops_per_sec", "throughput", "ops/s", true, true},
      {"p50_ns", "p50 latency", "ns", false, true},
      {"p90_ns", "p90 latency", "ns", false, true},
      {"p99_ns", "p99 latency", "ns", false, true},
      {"p999_ns", "p99.9 latency", "ns", false, true},
      {"max_ns", "max latency", "ns", false, true},
      {"mean_ns", "mean latency", "ns", false, true},
      {"seconds", "phase time", "s", false, false},
      {"cpu_user_s", "CPU user time", "s", false, false},
      {"cpu_sys_s", "CPU system time", "s", false, false},
      {"peak_rss_bytes", "peak RSS", "bytes", false, false},
      {"file_bytes", "file size", "bytes", false, false},
      {"allocated_bytes", "allocated size", "bytes", false, false},
      {"bytes_read", "bytes read", "bytes", false, false},
      {"bytes_written", "bytes written", "bytes", false, false},
      {"open_seconds", "cold reopen time", "s", false, false},
  };
  return kinds;
}

bool FigureHasTimeBase(std::string_view figure) {
  return figure == "ops_per_sec" || figure == "seconds";
}

const FigureKind* FindFigureKind(std::string_view name) {
  std::string wanted(name);
  if (wanted == "throughput") wanted = "ops_per_sec";
  for (const char* alias : {"p50", "p90", "p99", "p999", "max", "mean"}) {
    if (wanted == alias) wanted += "_ns";
  }
  for (const FigureKind& k : FigureKinds()) {
    if (wanted == k.name) return &k;
  }
  return nullptr;
}

}  // namespace kvbench::results
