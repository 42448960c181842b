// Process resource accounting around a phase: CPU time (getrusage), bytes
// read and written to storage (/proc/self/io), peak resident memory
// (/proc/self/status VmHWM, reset per phase through /proc/self/clear_refs),
// and the on-disk size of an engine's files.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kvbench::runner {

struct ResourceSnapshot {
  double cpu_user_s = 0;
  double cpu_sys_s = 0;
  std::optional<uint64_t> read_bytes;     // storage reads (not page-cache hits)
  std::optional<uint64_t> write_bytes;    // storage writes caused by this process
};

ResourceSnapshot TakeResourceSnapshot();

// Resets the peak-RSS watermark so the next PeakRssBytes() covers only what
// follows. Returns false where the kernel does not allow it (the peak then
// covers the process lifetime).
bool ResetPeakRss();
uint64_t PeakRssBytes();

struct FileSizes {
  uint64_t apparent_bytes = 0;   // st_size
  uint64_t allocated_bytes = 0;  // st_blocks * 512
};
// Missing files count as empty (an engine may list a file it removes).
FileSizes SizeOfFiles(const std::vector<std::string>& paths);

}  // namespace kvbench::runner
