// The output folder of a command that writes results (run, merge, crash,
// slurm): claimed through common/owned_dir.h (made and marked, or an empty or
// earlier kvbench folder taken), locked for the command's whole life, and,
// only when asked with --overwrite, emptied of an earlier kvbench run's files
// first, so that a new results.json never sits beside an old report.
#pragma once

#include <string>

#include "common/owned_dir.h"
#include "common/status.h"

namespace kvbench::app {

class OutputDir {
 public:
  // Claims and locks `path` for `owner` (a run id). Without `overwrite` a
  // folder holding an earlier run's files is refused (InvalidArgument naming
  // it); with it, an earlier kvbench folder is emptied and *replaced says
  // what was there. A folder kvbench did not make is refused either way, and
  // so is one another kvbench run holds (its pid named).
  static Status Open(const std::string& path, const std::string& owner, bool overwrite,
                     OutputDir* out, std::string* replaced);

  const std::string& path() const { return path_; }

 private:
  std::string path_;
  DirectoryLock lock_;
};

}  // namespace kvbench::app
