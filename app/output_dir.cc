#include "app/output_dir.h"

#include <filesystem>

namespace kvbench::app {

Status OutputDir::Open(const std::string& path, const std::string& owner, bool overwrite,
                       OutputDir* out, std::string* replaced) {
  replaced->clear();
  KVBENCH_RETURN_IF_ERROR(
      ClaimDirectory(path, owner, overwrite ? ClaimMode::kReuseOwned : ClaimMode::kEmptyOrNew));
  DirectoryLock lock;
  KVBENCH_RETURN_IF_ERROR(DirectoryLock::Acquire(path, &lock));
  // Checked again under the lock: a run that held it may have written since.
  if (!IsEmptyButForMarker(path)) {
    if (!overwrite) {
      return Status::InvalidArgument("'" + path +
                                     "' holds an earlier kvbench run's files: choose another "
                                     "directory, or --overwrite to replace them");
    }
    std::error_code ec;
    const bool had_results = std::filesystem::exists(path + "/results.json", ec);
    KVBENCH_RETURN_IF_ERROR(EmptyOwnedDirectory(path));
    *replaced = had_results ? "an earlier run's results and reports" : "an earlier run's files";
  }
  out->path_ = path;
  out->lock_ = std::move(lock);
  return Status::OK();
}

}  // namespace kvbench::app
