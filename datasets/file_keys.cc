// The `file` kind: keys read from a text file, one a line; index i is the
// i-th non-blank line (a trailing '\r' is removed, so CRLF files work).
//
// Unlike the synthetic kinds this one holds a table: all lines in one buffer
// plus one offset per line. capacity() is the line count; count() is all of
// them unless the spec asks for fewer. Absent keys are line (j mod lines)
// + "\n": no line holds a newline, so none is present.
#include <fmt/core.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "common/input_file.h"
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
  // A directory, FIFO or /dev/zero would be read until memory runs out:
  // only a regular file up to the stated size is read (common/input_file.h).
  KVBENCH_RETURN_IF_ERROR(CheckInputFile(path, kMaxKeyFileBytes, "key file"));
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) {
    return Status::IOError(
        fmt::format("cannot read key file '{}': {}", path, std::strerror(errno)));
  }
  std::string bytes;
  std::vector<uint64_t> starts = {0};
  size_t longest = 0;
  std::string line;
  uint64_t total = 0;
  auto end_line = [&] {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) return;
    bytes += line;
    starts.push_back(bytes.size());
    longest = std::max(longest, line.size());
    line.clear();
  };
  Status read_status;
  char buffer[1 << 16];
  for (;;) {
    const ssize_t n = read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      read_status = Status::IOError(
          fmt::format("error reading key file '{}': {}", path, std::strerror(errno)));
      break;
    }
    if (n == 0) break;
    total += static_cast<uint64_t>(n);
    if (total > kMaxKeyFileBytes) {  // it grew (or was replaced) after the check
      read_status = Status::InvalidArgument(
          fmt::format("key file '{}': over the limit of {} bytes", path, kMaxKeyFileBytes));
      break;
    }
    const char* at = buffer;
    const char* const end = buffer + n;
    while (at < end) {
      const char* newline = static_cast<const char*>(std::memchr(at, '\n', end - at));
      line.append(at, (newline != nullptr ? newline : end) - at);
      if (newline == nullptr) break;
      end_line();
      at = newline + 1;
    }
  }
  close(fd);
  KVBENCH_RETURN_IF_ERROR(read_status);
  end_line();  // a last line without a newline
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
