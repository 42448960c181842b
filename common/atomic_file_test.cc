// Atomic writes: a reader sees the old file or the new, a link planted at the
// target or beside it is never followed, and a set is published whole.
#include "common/atomic_file.h"

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

namespace kvbench {
namespace {

namespace fs = std::filesystem;

std::string Read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

class AtomicFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/kvbench-atomic-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    root_ = tmpl;
  }
  void TearDown() override { fs::remove_all(root_); }
  std::string root_;
};

TEST_F(AtomicFileTest, ReplacesAndLeavesNoTemporary) {
  const std::string path = root_ + "/results.json";
  ASSERT_TRUE(WriteFileAtomically(path, "old").ok());
  ASSERT_TRUE(WriteFileAtomically(path, "new").ok());
  EXPECT_EQ(Read(path), "new");
  int files = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(root_)) ++files;
  EXPECT_EQ(files, 1);
}

// Regression (issue 28): the temporary name was fixed (<path>.kvbench-tmp)
// and opened with O_TRUNC, so a link planted there made a root run overwrite
// the link's target.
TEST_F(AtomicFileTest, APlantedLinkIsNotFollowed) {
  const std::string victim = root_ + "/victim";
  std::ofstream(victim) << "precious";
  const std::string path = root_ + "/report.md";
  fs::create_symlink(victim, path + ".kvbench-tmp");
  fs::create_symlink(victim, path);  // even at the target itself
  ASSERT_TRUE(WriteFileAtomically(path, "report").ok());
  EXPECT_EQ(Read(victim), "precious");
  EXPECT_FALSE(fs::is_symlink(path));
  EXPECT_EQ(Read(path), "report");
}

TEST_F(AtomicFileTest, ASetIsPublishedWholeOrNotAtAll) {
  const std::string a = root_ + "/results.json";
  const std::string b = root_ + "/report.html";
  ASSERT_TRUE(WriteFileSetAtomically({{a, "old results"}, {b, "old report"}}).ok());
  // The third file cannot be written (its folder does not exist): neither of
  // the others may be replaced.
  const Status s = WriteFileSetAtomically(
      {{a, "new results"}, {b, "new report"}, {root_ + "/missing/report.md", "x"}});
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("missing/report.md"), std::string::npos) << s.message();
  EXPECT_EQ(Read(a), "old results");
  EXPECT_EQ(Read(b), "old report");
  int files = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(root_)) ++files;
  EXPECT_EQ(files, 2);  // no temporary left behind
}

}  // namespace
}  // namespace kvbench
