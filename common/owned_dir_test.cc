// The one door's rules: names never become paths, kvbench removes only what
// it marked, refuses what it did not make, never follows a planted link, and
// one run at a time holds a folder.
#include "common/owned_dir.h"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

namespace kvbench {
namespace {

namespace fs = std::filesystem;

class OwnedDirTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/kvbench-owned-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    root_ = tmpl;
  }
  void TearDown() override { fs::remove_all(root_); }
  std::string Path(const std::string& name) const { return root_ + "/" + name; }
  void WriteUserFile(const std::string& path) { std::ofstream(path) << "the user's data\n"; }
  std::string root_;
};

TEST(SlugOfTest, NamesNeverBecomePaths) {
  for (const char* name : {"../../etc", "..", ".", "/abs/path", "a/b", "x\ny", "$(touch p)", "",
                           ".hidden", "tab\there"}) {
    const std::string slug = SlugOf(name);
    EXPECT_EQ(slug.find('/'), std::string::npos) << name;
    EXPECT_NE(slug.front(), '.') << name;
    EXPECT_FALSE(HasControlCharacter(slug)) << name;
    EXPECT_EQ(slug.find('$'), std::string::npos) << name;
    EXPECT_FALSE(slug.empty());
  }
  EXPECT_EQ(SlugOf("quickstart"), "quickstart");  // a plain name stays as it is
  EXPECT_EQ(SlugOf("seed-001_urls.v2"), "seed-001_urls.v2");
  EXPECT_NE(SlugOf("a/b"), SlugOf("a_b"));  // a changed name carries its hash
  EXPECT_NE(SlugOf("a/b"), SlugOf("a:b"));
  EXPECT_LE(SlugOf(std::string(1000, 'x')).size(), 64u + 9u);
}

TEST(SlugOfTest, ControlCharacters) {
  EXPECT_TRUE(HasControlCharacter("a\nb"));
  EXPECT_TRUE(HasControlCharacter("a\x1b[2Jb"));
  EXPECT_TRUE(HasControlCharacter(std::string("a\0b", 3)));
  EXPECT_FALSE(HasControlCharacter("plain name-1.0 with spaces"));
}

TEST_F(OwnedDirTest, MakesMarksAndRemovesItsOwn) {
  const std::string dir = Path("out/run");
  ASSERT_TRUE(ClaimDirectory(dir, "r1", ClaimMode::kEmptyOrNew).ok());
  EXPECT_TRUE(IsOwnedDirectory(dir));
  WriteUserFile(dir + "/results.json");
  ASSERT_TRUE(RemoveOwnedDirectory(dir).ok());
  EXPECT_FALSE(fs::exists(dir));
  EXPECT_TRUE(fs::exists(Path("out")));  // a parent made on the way is not kvbench's to remove
}

TEST_F(OwnedDirTest, RefusesANonEmptyFolderItDidNotMake) {
  const std::string dir = Path("users");
  fs::create_directories(dir);
  WriteUserFile(dir + "/keep.txt");
  for (ClaimMode mode : {ClaimMode::kEmptyOrNew, ClaimMode::kReuseOwned}) {
    const Status s = ClaimDirectory(dir, "r1", mode);
    EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
    EXPECT_NE(s.message().find(dir), std::string::npos) << s.message();
  }
  EXPECT_TRUE(RemoveOwnedDirectory(dir).IsInvalidArgument());
  EXPECT_TRUE(EmptyOwnedDirectory(dir).IsInvalidArgument());
  EXPECT_TRUE(fs::exists(dir + "/keep.txt"));
}

TEST_F(OwnedDirTest, AnAdoptedEmptyFolderIsEmptiedNotRemoved) {
  const std::string dir = Path("empty");
  fs::create_directories(dir);
  ASSERT_TRUE(ClaimDirectory(dir, "r1", ClaimMode::kEmptyOrNew).ok());
  WriteUserFile(dir + "/engine.db");
  ASSERT_TRUE(RemoveOwnedDirectory(dir).ok());
  EXPECT_TRUE(fs::is_directory(dir));
  EXPECT_TRUE(fs::is_empty(dir));
}

TEST_F(OwnedDirTest, AnEarlierRunIsRefusedUnlessReused) {
  const std::string dir = Path("out");
  ASSERT_TRUE(ClaimDirectory(dir, "r1", ClaimMode::kEmptyOrNew).ok());
  WriteUserFile(dir + "/results.json");
  EXPECT_TRUE(ClaimDirectory(dir, "r2", ClaimMode::kEmptyOrNew).IsInvalidArgument());
  EXPECT_TRUE(ClaimDirectory(dir, "r2", ClaimMode::kReuseOwned).ok());
  ASSERT_TRUE(EmptyOwnedDirectory(dir).ok());
  EXPECT_TRUE(IsOwnedDirectory(dir));  // the marker survives emptying
  EXPECT_FALSE(fs::exists(dir + "/results.json"));
}

TEST_F(OwnedDirTest, NeverFollowsAPlantedLink) {
  const std::string victim = Path("victim");
  fs::create_directories(victim);
  WriteUserFile(victim + "/keep.txt");
  const std::string link = Path("link");
  fs::create_directory_symlink(victim, link);
  EXPECT_TRUE(ClaimDirectory(link, "r1", ClaimMode::kReuseOwned).IsInvalidArgument());
  EXPECT_TRUE(RemoveOwnedDirectory(link).IsInvalidArgument());
  // A marker planted as a link to a file that looks like one does not make
  // the folder kvbench's.
  std::ofstream(Path("fake-marker")) << "kvbench created x\n";
  fs::create_symlink(Path("fake-marker"), victim + "/" + kOwnerMarkerName);
  EXPECT_FALSE(IsOwnedDirectory(victim));
  EXPECT_TRUE(RemoveOwnedDirectory(victim).IsInvalidArgument());
  // A link inside an owned folder is removed as a link: its target stays.
  const std::string dir = Path("owned");
  ASSERT_TRUE(ClaimDirectory(dir, "r1", ClaimMode::kEmptyOrNew).ok());
  fs::create_directory_symlink(victim, dir + "/data");
  ASSERT_TRUE(RemoveOwnedDirectory(dir).ok());
  EXPECT_TRUE(fs::exists(victim + "/keep.txt"));
}

TEST_F(OwnedDirTest, OneHolderAtATime) {
  const std::string dir = Path("out");
  ASSERT_TRUE(ClaimDirectory(dir, "r1", ClaimMode::kEmptyOrNew).ok());
  DirectoryLock first;
  ASSERT_TRUE(DirectoryLock::Acquire(dir, &first).ok());
  DirectoryLock second;
  const Status s = DirectoryLock::Acquire(dir, &second);
  ASSERT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.message().find("pid " + std::to_string(::getpid())), std::string::npos)
      << s.message();
  first = DirectoryLock();  // released
  EXPECT_TRUE(DirectoryLock::Acquire(dir, &second).ok());
  EXPECT_TRUE(IsEmptyButForMarker(dir));  // the lock file does not count as content
}

}  // namespace
}  // namespace kvbench
