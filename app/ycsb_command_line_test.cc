#include "app/ycsb_command_line.h"

#include <gtest/gtest.h>

namespace kvbench::app {
namespace {

YcsbCommandLine Parse(const std::vector<std::string>& args) {
  YcsbCommandLine c;
  const Status s = ParseYcsbCommandLine(args, &c);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return c;
}

std::string Error(const std::vector<std::string>& args) {
  YcsbCommandLine c;
  const Status s = ParseYcsbCommandLine(args, &c);
  EXPECT_TRUE(s.IsInvalidArgument());
  return std::string(s.message());
}

TEST(YcsbCommandLineTest, Ycsb017Form) {
  const YcsbCommandLine c = Parse({"load", "lmdb", "-P", "w", "-P", "lmdb.properties", "-p",
                                   "recordcount=5", "-threads", "4", "-target", "100", "-s"});
  EXPECT_TRUE(c.load);
  EXPECT_FALSE(c.run);
  EXPECT_FALSE(c.cpp_form);
  EXPECT_EQ(c.engine, "lmdb");
  EXPECT_EQ(c.files, (std::vector<std::string>{"w", "lmdb.properties"}));
  // In the order given: a later one wins, as YCSB's do.
  EXPECT_EQ(c.overrides, (std::vector<std::string>{"recordcount=5", "threadcount=4", "target=100",
                                                   "status=true"}));
  EXPECT_TRUE(Parse({"run", "sqlite", "-P", "w"}).run);
}

TEST(YcsbCommandLineTest, YcsbCppForm) {
  const YcsbCommandLine c = Parse({"-load", "-run", "-db", "rocksdb", "-P", "w", "-s", "-l", "x",
                                   "--out", "o", "--timeout", "30", "-q"});
  EXPECT_TRUE(c.load);
  EXPECT_TRUE(c.run);
  EXPECT_TRUE(c.cpp_form);
  EXPECT_EQ(c.engine, "rocksdb");
  EXPECT_EQ(c.overrides, (std::vector<std::string>{"status=true", "label=x"}));
  EXPECT_EQ(c.out, "o");
  EXPECT_DOUBLE_EQ(c.timeout_s, 30);
  EXPECT_TRUE(c.quiet);
  EXPECT_TRUE(Parse({"-t", "-db", "lmdb"}).run);
  EXPECT_TRUE(Parse({"-db", "lmdb", "-h"}).help);
}

TEST(YcsbCommandLineTest, BadArgumentsAreNamed) {
  EXPECT_EQ(Error({"load"}), "ycsb load: name the engine (kvbench ycsb load ENGINE -P FILE...)");
  EXPECT_EQ(Error({"load", "lmdb", "-P"}), "ycsb: missing value for -P");
  EXPECT_EQ(Error({"load", "lmdb", "-threads", "many"}),
            "ycsb: -threads 'many': not a whole number");
  EXPECT_EQ(Error({"load", "lmdb", "-p", "novalue"}),
            "ycsb: -p novalue: expected name=value (e.g. -p operationcount=99999)");
  EXPECT_EQ(Error({"load", "lmdb", "-cp", "x"}),
            "ycsb: unknown option '-cp' (kvbench ycsb --help)");
  EXPECT_NE(Error({"run", "lmdb", "-load"}).find("use one form"), std::string::npos);
  EXPECT_NE(Error({"-db", "lmdb", "stray"}).find("unexpected argument 'stray'"), std::string::npos);
}

TEST(YcsbCommandLineTest, YcsbDbNames) {
  EXPECT_EQ(YcsbEngineName("basic"), "null");
  EXPECT_EQ(YcsbEngineName("site.ycsb.BasicDB"), "null");
  EXPECT_EQ(YcsbEngineName("wiredtiger"), "wiredtiger-btree");
  EXPECT_EQ(YcsbEngineName("lmdb"), "lmdb");
}

}  // namespace
}  // namespace kvbench::app
