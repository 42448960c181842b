// Helpers shared by pbtree's tests: a scratch directory and raw file access.
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "engines/pbtree/pbtree.h"

namespace pbtree::testing {

// A fresh directory under the system temp dir, removed at destruction.
class ScratchDir {
 public:
  ScratchDir() {
    std::string templ = (std::filesystem::temp_directory_path() / "pbtree-test-XXXXXX").string();
    path_ = ::mkdtemp(templ.data()) != nullptr ? templ : std::string();
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  std::string File(const std::string& name) const { return path_ + "/" + name; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

inline std::vector<uint8_t> ReadAll(const std::string& path) {
  std::vector<uint8_t> bytes;
  int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0) return bytes;
  uint8_t buf[65536];
  ssize_t n;
  while ((n = ::read(fd, buf, sizeof(buf))) > 0) bytes.insert(bytes.end(), buf, buf + n);
  ::close(fd);
  return bytes;
}

inline void WriteAll(const std::string& path, const uint8_t* data, size_t size) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  ASSERT_GE(fd, 0);
  size_t done = 0;
  while (done < size) {
    ssize_t n = ::write(fd, data + done, size - done);
    ASSERT_GT(n, 0);
    done += static_cast<size_t>(n);
  }
  ::close(fd);
}

inline void WriteAll(const std::string& path, const std::vector<uint8_t>& bytes) {
  WriteAll(path, bytes.data(), bytes.size());
}

// The committed tree holds exactly `model` (keys in order, values, count);
// with `check`, DB::Check passes too.
inline void ExpectTreeEquals(DB* db, const std::map<std::string, std::string>& model,
                             bool check = true) {
  ASSERT_EQ(db->Count(), model.size());
  std::unique_ptr<Cursor> c = db->NewCursor();
  auto it = model.begin();
  for (c->SeekToFirst(); c->Valid(); c->Next(), ++it) {
    ASSERT_NE(it, model.end()) << "extra key " << c->key();
    ASSERT_EQ(c->key(), it->first);
    ASSERT_EQ(c->value(), it->second) << "value of " << it->first;
  }
  ASSERT_TRUE(c->status().ok()) << c->status().ToString();
  ASSERT_EQ(it, model.end()) << "missing key " << it->first;
  c.reset();
  if (check) {
    Status s = db->Check();
    ASSERT_TRUE(s.ok()) << s.ToString();
  }
}

}  // namespace pbtree::testing
