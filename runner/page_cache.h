// ColdCacheEvictor: makes an engine's files cold and measures how cold they are.
//
// Eviction: fdatasync each file (dirty pages cannot be dropped) then
// posix_fadvise(POSIX_FADV_DONTNEED); when running as root, also writes "1"
// to /proc/sys/vm/drop_caches if the caller allows it. Residency: mmap each
// file and count resident pages with mincore.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/status.h"

namespace kvbench::runner {

class ColdCacheEvictor {
 public:
  // Evicts every file's pages from the page cache. The engine must be closed.
  static Status Evict(const std::vector<std::string>& paths);
  // Percentage of the files' pages resident in the page cache, by pages
  // (empty files are ignored); nullopt when nothing could be measured.
  static std::optional<double> ResidentPercent(const std::vector<std::string>& paths);
};

}  // namespace kvbench::runner
