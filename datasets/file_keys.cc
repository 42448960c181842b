// The `file` kind: keys read from a text file, one a line; index i is the
// i-th non-blank line (a trailing '\r' is removed, so CRLF files work).
//
// Unlike the synthetic kinds this one holds a table: all lines in one buffer
// plus one offset per line. capacity() is the line count; count() is all of
// them unless the spec asks for fewer. Absent keys are line (j mod lines)
// + "\n": no line holds a newline, so none is present.
#include <fmt/core.h>

#include <cerrno>
#include <cstring>
#include <fstream>

#include "datasets/key_kinds.h"

namespace kvbench::datasets::internal {

namespace {

class FileKeyGenerator final : public KeyGenerator {
 public:
  FileKeyGenerator(const DatasetSpec& spec, uint64_t count, DatasetParams params, std::string bytes,
                   std::vector<uint64_t> starts, size_t longest)
      : KeyGenerator(spec, count, std::move(params)),
        bytes_(std::move(bytes)),
        starts_(std::move(starts)),
        longest_(longest) {}

  void Key(uint64_t index, std::string* out) const override {
    out->assign(bytes_.data() + starts_[index], starts_[index + 1] - starts_[index]);
  }
  void AbsentKey(uint64_t index, std::string* out) const override {
    Key(index % capacity(), out);
    out->push_back('\n');
  }
  uint64_t capacity() const override { return starts_.size() - 1; }
  bool distinct() const override { return false; }
  size_t max_length() const override { return longest_ + 1; }

 private:
  std::string bytes_;             // every key, back to back
  std::vector<uint64_t> starts_;  // key i is bytes_[starts_[i], starts_[i + 1])
  size_t longest_;
};

}  // namespace

std::vector<ParamSpec> FileKeyParams() {
  return {{"path", "", "the key file: one key a line (required)"}};
}

Status NewFileKeyGenerator(const DatasetSpec& spec, uint64_t count, DatasetParams params,
                           std::unique_ptr<KeyGenerator>* out) {
  const std::string path = params.GetString("path");
  if (path.empty()) {
    return Status::InvalidArgument("dataset 'file': option 'path' (the key file) is required");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return Status::IOError(
        fmt::format("cannot read key file '{}': {}", path, std::strerror(errno)));
  }
  std::string bytes;
  std::vector<uint64_t> starts = {0};
  size_t longest = 0;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    bytes += line;
    starts.push_back(bytes.size());
    longest = std::max(longest, line.size());
  }
  if (in.bad()) {
    return Status::IOError(fmt::format("error reading key file '{}'", path));
  }
  const uint64_t lines = starts.size() - 1;
  if (lines == 0) return Status::InvalidArgument(fmt::format("key file '{}' holds no keys", path));
  if (count > lines) {
    return Status::InvalidArgument(
        fmt::format("key file '{}' holds {} keys but count asks for {}", path, lines, count));
  }
  *out = std::make_unique<FileKeyGenerator>(spec, count == 0 ? lines : count, std::move(params),
                                            std::move(bytes), std::move(starts), longest);
  return Status::OK();
}

}  // namespace kvbench::datasets::internal
