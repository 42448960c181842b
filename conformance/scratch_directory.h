// A fresh, empty directory for one conformance case, removed with everything
// in it when the case ends. Lives under $TMPDIR (or /tmp). When it cannot be
// made, path() is empty and the case's first open fails naming why.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <string>

namespace kvbench::conformance {

class ScratchDirectory {
 public:
  explicit ScratchDirectory(const std::string& tag) {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern =
        std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/kvbench-" + tag + "-XXXXXX";
    if (mkdtemp(pattern.data()) != nullptr) path_ = pattern;
  }
  ~ScratchDirectory() {
    std::error_code ec;
    if (!path_.empty()) std::filesystem::remove_all(path_, ec);
  }
  ScratchDirectory(const ScratchDirectory&) = delete;
  ScratchDirectory& operator=(const ScratchDirectory&) = delete;

  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace kvbench::conformance
