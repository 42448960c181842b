// YCSB database property files (YCSB-cpp's lmdb.properties, rocksdb.properties...)
// read as engine options, against the registered adapters' real option specs.
#include "runner/ycsb/ycsb_db_properties.h"

#include <gtest/gtest.h>

#include "adapters/registry.h"
#include "runner/run_plan.h"

namespace kvbench::runner {
namespace {

const char* kBase = "recordcount=10\noperationcount=10\n";

Status Load(const std::string& text, Workload* w) {
  return YcsbWorkloadFromText(std::string(kBase) + text, "db.properties", {}, w);
}

bool Built(const char* engine) { return AdapterRegistry::Global().Find(engine) != nullptr; }

TEST(YcsbDbPropertiesTest, KvbenchOptionNamesPassThroughToEveryEngineThatHasThem) {
  if (!Built("wiredtiger-btree") || !Built("lmdb")) GTEST_SKIP() << "engines not built here";
  Workload w;
  ASSERT_TRUE(Load("lmdb.mapsize=1GiB\nwiredtiger.cache_size=64MB\n", &w).ok());
  EXPECT_EQ(w.engine_options["lmdb"]["lmdb.mapsize"], "1GiB");
  EXPECT_EQ(w.engine_options["wiredtiger-btree"]["wiredtiger.cache_size"], "64MB");
  EXPECT_EQ(w.engine_options["wiredtiger-lsm"]["wiredtiger.cache_size"], "64MB");
  EXPECT_EQ(w.field_origins["options.lmdb.lmdb.mapsize"], "db.properties:3");
}

TEST(YcsbDbPropertiesTest, YcsbCppSettingsMapToKvbenchOptions) {
  if (!Built("lmdb") || !Built("leveldb") || !Built("rocksdb")) GTEST_SKIP();
  Workload w;
  ASSERT_TRUE(Load("lmdb.dbpath=/tmp/ycsb-lmdb\nlmdb.nosync=false\nlmdb.noreadahead=true\n"
                   "lmdb.mapsize=-1\nleveldb.cache_size=134217728\nleveldb.compression=no\n"
                   "leveldb.filter_bits=10\nleveldb.block_size=4096\nrocksdb.sync=true\n"
                   "rocksdb.target_file_size_base=67108864\nrocksdb.write_buffer_size=0\n",
                   &w)
                  .ok());
  EXPECT_EQ(w.ycsb_dirs["lmdb"], "/tmp/ycsb-lmdb");
  EXPECT_EQ(w.engine_options["lmdb"], (std::map<std::string, std::string>{
                                          {"lmdb.sync", "commit"}, {"lmdb.nordahead", "true"}}));
  EXPECT_EQ(w.engine_options["leveldb"],
            (std::map<std::string, std::string>{{"leveldb.block_cache", "134217728"},
                                                {"leveldb.compression", "none"},
                                                {"leveldb.bloom_bits", "10"}}));
  // rocksdb.sync is kvbench's name too: YCSB-cpp's true means commit.
  EXPECT_EQ(w.engine_options["rocksdb"],
            (std::map<std::string, std::string>{{"rocksdb.sync", "commit"}}));
}

TEST(YcsbDbPropertiesTest, SettingsKvbenchCannotHonourAreRefusedByName) {
  if (!Built("lmdb") || !Built("leveldb")) GTEST_SKIP();
  Workload w;
  Status s = Load("leveldb.max_file_size=67108864\n", &w);
  EXPECT_EQ(s.message(),
            "db.properties:3: property 'leveldb.max_file_size': kvbench's leveldb "
            "adapter has no such setting; accepted only at what it does: 0, 2097152");
  s = Load("lmdb.nosync=perhaps\n", &w);
  EXPECT_EQ(s.message(),
            "db.properties:3: property 'lmdb.nosync': 'perhaps' is not one of false, true");
  s = Load("lmdb.dbpth=/x\n", &w);
  EXPECT_NE(s.message().find("property 'lmdb.dbpth': no such option for lmdb (its options: "),
            std::string::npos)
      << s.message();
  // A bad value of a kvbench option fails the plan, naming the property's file and line.
  ASSERT_TRUE(Load("lmdb.mapsize=big\n", &w).ok());
  RunPlan plan;
  RunOverrides o;
  o.engines = {"lmdb"};
  s = PlanWorkload(w, o, &plan);
  EXPECT_EQ(s.message().substr(0, 17), "db.properties:3: ") << s.message();
  EXPECT_NE(s.message().find("lmdb.mapsize"), std::string::npos);
}

}  // namespace
}  // namespace kvbench::runner
