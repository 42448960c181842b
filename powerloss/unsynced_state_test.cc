// UnsyncedState without FUSE: the same calls the file system makes, on a
// plain directory, then a cut, and the directory checked byte for byte.
#include "powerloss/unsynced_state.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/scratch_dir.h"

namespace kvbench::powerloss {
namespace {

namespace fs = std::filesystem;

class UnsyncedStateTest : public ::testing::Test {
 protected:
  void SetUp() override {
    fs::create_directory(root());
    fs::create_directory(scratch_.path() + "/trash");
    root_fd_ = ::open(root().c_str(), O_RDONLY | O_DIRECTORY);
    ASSERT_GE(root_fd_, 0);
    state_ = std::make_unique<UnsyncedState>(root_fd_, scratch_.path() + "/trash");
  }
  void TearDown() override {
    state_.reset();
    ::close(root_fd_);
  }
  std::string root() const { return scratch_.path() + "/root"; }

  // Writes through the state, as the file system does.
  void Write(int fd, uint64_t offset, const std::string &bytes) {
    ASSERT_TRUE(state_->BeforeWrite(fd, offset, bytes.size()).ok());
    ASSERT_EQ(::pwrite(fd, bytes.data(), bytes.size(), static_cast<off_t>(offset)),
              static_cast<ssize_t>(bytes.size()));
  }
  int Create(const std::string &name) {
    const int fd = ::openat(root_fd_, name.c_str(), O_RDWR | O_CREAT, 0644);
    state_->Created(name);
    return fd;
  }
  std::string Contents(const std::string &name) {
    std::ifstream in(root() + "/" + name, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }

  test::ScratchDir scratch_{"powerloss-state"};
  int root_fd_ = -1;
  std::unique_ptr<UnsyncedState> state_;
};

TEST_F(UnsyncedStateTest, DiscardKeepsExactlyWhatWasSynced) {
  const int fd = Create("f");
  Write(fd, 0, std::string(10000, 'a'));
  state_->FileSynced(fd);
  state_->DirectorySynced("");
  Write(fd, 5000, std::string(20000, 'b'));  // over synced pages and past the end
  ASSERT_TRUE(state_->BeforeTruncate(fd, 100).ok());
  ASSERT_EQ(::ftruncate(fd, 100), 0);
  CutStats stats;
  ASSERT_TRUE(state_->Cut(CutMode::kDiscard, 1, &stats).ok());
  ::close(fd);
  EXPECT_EQ(Contents("f"), std::string(10000, 'a'));
  EXPECT_EQ(stats.files, 1u);
  EXPECT_GT(stats.pages_dropped, 0u);
  EXPECT_EQ(stats.pages_kept, 0u);
}

TEST_F(UnsyncedStateTest, UnsyncedNamesAreUndoneNewestFirst) {
  int fd = Create("old");
  Write(fd, 0, "old contents");
  state_->FileSynced(fd);
  ::close(fd);
  state_->Checkpoint();
  fd = Create("tmp");  // the write-then-rename pattern, without the directory fsync
  Write(fd, 0, "new contents");
  state_->FileSynced(fd);
  ::close(fd);
  ASSERT_EQ(state_->Rename("tmp", "old", 0), 0);
  ASSERT_EQ(Contents("old"), "new contents");
  ASSERT_EQ(state_->Unlink("old"), 0);
  CutStats stats;
  ASSERT_TRUE(state_->Cut(CutMode::kDiscard, 1, &stats).ok());
  EXPECT_EQ(Contents("old"), "old contents");
  EXPECT_FALSE(fs::exists(root() + "/tmp"));
  EXPECT_EQ(stats.name_ops_undone, 3u);
}

TEST_F(UnsyncedStateTest, DirectoryFsyncMakesNamesDurable) {
  fs::create_directory(root() + "/d");
  state_->Checkpoint();
  const int fd = Create("d/x");
  state_->FileSynced(fd);
  ::close(fd);
  state_->DirectorySynced("");  // the wrong directory: d/x still pending
  EXPECT_EQ(state_->names_pending(), 1u);
  state_->DirectorySynced("d");
  EXPECT_EQ(state_->names_pending(), 0u);
  CutStats stats;
  ASSERT_TRUE(state_->Cut(CutMode::kDiscard, 1, &stats).ok());
  EXPECT_TRUE(fs::exists(root() + "/d/x"));
}

// Torn cuts keep a subset of pages that depends only on the seed.
std::string TornResult(uint64_t seed) {
  test::ScratchDir dir("powerloss-torn");
  fs::create_directory(dir.path() + "/root");
  fs::create_directory(dir.path() + "/trash");
  const int root_fd = ::open((dir.path() + "/root").c_str(), O_RDONLY | O_DIRECTORY);
  std::string out;
  {
    UnsyncedState state(root_fd, dir.path() + "/trash");
    const int fd = ::openat(root_fd, "f", O_RDWR | O_CREAT, 0644);
    const std::string base(64 * 1024, 'a');
    EXPECT_EQ(::pwrite(fd, base.data(), base.size(), 0), static_cast<ssize_t>(base.size()));
    state.Checkpoint();
    const std::string next(64 * 1024, 'b');
    EXPECT_TRUE(state.BeforeWrite(fd, 0, next.size()).ok());
    EXPECT_EQ(::pwrite(fd, next.data(), next.size(), 0), static_cast<ssize_t>(next.size()));
    CutStats stats;
    EXPECT_TRUE(state.Cut(CutMode::kTorn, seed, &stats).ok());
    EXPECT_EQ(stats.pages_kept + stats.pages_dropped, 16u);
    out.resize(base.size());
    EXPECT_EQ(::pread(fd, out.data(), out.size(), 0), static_cast<ssize_t>(out.size()));
    ::close(fd);
  }
  ::close(root_fd);
  // One letter per page: which pages survived.
  std::string pages;
  for (size_t i = 0; i < out.size(); i += kPageSize) {
    pages += out[i];
    EXPECT_EQ(out.substr(i, kPageSize), std::string(kPageSize, out[i])) << "page torn inside";
  }
  return pages;
}

TEST(UnsyncedStateTorn, SubsetOfPagesDependsOnTheSeedOnly) {
  const std::string a = TornResult(7), b = TornResult(7), c = TornResult(8);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  EXPECT_NE(a.find('a'), std::string::npos);
  EXPECT_NE(a.find('b'), std::string::npos);
}

}  // namespace
}  // namespace kvbench::powerloss
