#include "engines/pbtree/status.h"

#include <gtest/gtest.h>

#include <utility>

namespace pbtree {
namespace {

TEST(StatusTest, OkAndCodesWithoutAMessage) {
  const Status ok;
  EXPECT_TRUE(ok.ok());
  EXPECT_EQ(ok.code(), Status::Code::kOk);
  EXPECT_EQ(ok.message(), "");
  EXPECT_EQ(ok.ToString(), "OK");
  EXPECT_TRUE(Status::OK().ok());
  const Status missing = Status::NotFound();
  EXPECT_FALSE(missing.ok());
  EXPECT_TRUE(missing.IsNotFound());
  EXPECT_FALSE(missing.IsCorruption());
  EXPECT_EQ(missing.message(), "");
  EXPECT_EQ(missing.ToString(), "NotFound");
  EXPECT_EQ(Status::Busy("").code(), Status::Code::kBusy);
}

TEST(StatusTest, EveryCodeKeepsItsMessageThroughCopiesAndMoves) {
  const Status made[] = {Status::NotFound("k"),
                         Status::Corruption("page 12"),
                         Status::InvalidArgument("a"),
                         Status::IOError("b"),
                         Status::Busy("c"),
                         Status::NotSupported("d")};
  const Status::Code codes[] = {
      Status::Code::kNotFound, Status::Code::kCorruption, Status::Code::kInvalidArgument,
      Status::Code::kIOError,  Status::Code::kBusy,       Status::Code::kNotSupported};
  for (size_t i = 0; i < std::size(made); ++i) {
    SCOPED_TRACE(made[i].ToString());
    EXPECT_EQ(made[i].code(), codes[i]);
    Status copy = made[i];
    EXPECT_EQ(copy.code(), codes[i]);
    EXPECT_EQ(copy.message(), made[i].message());
    EXPECT_NE(&copy.message(), &made[i].message());  // its own message
    Status moved = std::move(copy);
    EXPECT_EQ(moved.code(), codes[i]);
    EXPECT_EQ(moved.message(), made[i].message());
    EXPECT_TRUE(copy.ok());  // NOLINT(bugprone-use-after-move): a moved-from status is OK
    Status assigned;
    assigned = moved;
    EXPECT_EQ(assigned.ToString(), made[i].ToString());
    assigned = assigned;  // NOLINT(misc-redundant-expression): self-assignment keeps it
    EXPECT_EQ(assigned.ToString(), made[i].ToString());
    assigned = Status::OK();
    EXPECT_TRUE(assigned.ok());
  }
  EXPECT_EQ(Status::Corruption("page 12").ToString(), "Corruption: page 12");
}

TEST(StatusTest, WithContextPrefixesTheMessageAndLeavesOkAlone) {
  EXPECT_TRUE(Status::OK().WithContext("open").ok());
  EXPECT_EQ(Status::IOError("disk full").WithContext("write f").ToString(),
            "IOError: write f: disk full");
  const Status bare = Status::NotFound().WithContext("get k");
  EXPECT_TRUE(bare.IsNotFound());
  EXPECT_EQ(bare.message(), "get k");
  EXPECT_TRUE(Status::FromErrno("open f", 2).IsIOError());
  EXPECT_EQ(Status::FromErrno("open f", 2).message().rfind("open f: ", 0), 0u);
}

}  // namespace
}  // namespace pbtree
