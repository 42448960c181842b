#include "runner/ycsb/ycsb_properties.h"

#include <gtest/gtest.h>

namespace kvbench::runner {
namespace {

TEST(YcsbPropertiesTest, ParsesJavaPropertiesLines) {
  const Properties p = ParseProperties(
      "# comment\n! also a comment\n  recordcount=1000\nfieldcount : 5\nworkload site.ycsb\n"
      "long=a\\\n    b\nescaped\\=key=x\\ty\r\nempty=\n");
  EXPECT_EQ(p.at("recordcount").value, "1000");
  EXPECT_EQ(p.at("recordcount").line, 3);
  EXPECT_EQ(p.at("fieldcount").value, "5");
  EXPECT_EQ(p.at("workload").value, "site.ycsb");
  EXPECT_EQ(p.at("long").value, "ab");
  EXPECT_EQ(p.at("escaped=key").value, "x\ty");
  EXPECT_EQ(p.at("empty").value, "");
  EXPECT_EQ(p.size(), 6u);
}

TEST(YcsbPropertiesTest, CoreWorkloadDefaultsAndPhases) {
  Workload w;
  ASSERT_TRUE(YcsbWorkloadFromText("recordcount=100\noperationcount=50\n"
                                   "requestdistribution=zipfian\ninsertproportion=0.1\n"
                                   "measurementtype=hdrhistogram\ntable=t\n",
                                   "dir/wl", {}, &w)
                  .ok());
  EXPECT_EQ(w.name, "wl");
  EXPECT_EQ(w.dataset_kind, "ycsb");
  EXPECT_EQ(w.dataset_count, 100u);
  EXPECT_EQ(w.value_params.at("size"), "100");
  ASSERT_EQ(w.phases.size(), 2u);
  EXPECT_EQ(w.phases[0].op, PhaseOp::kInsert);
  EXPECT_EQ(w.phases[0].count, 100u);
  EXPECT_EQ(w.phases[0].ycsb->first_insert, 0u);
  EXPECT_EQ(w.phases[0].ycsb->field_count, 10u);
  const PhaseSpec& run = w.phases[1];
  EXPECT_EQ(run.op, PhaseOp::kMix);
  EXPECT_EQ(run.count, 50u);
  EXPECT_EQ(run.distribution, "zipfian");
  EXPECT_DOUBLE_EQ(run.proportions.at("read"), 0.95);
  EXPECT_DOUBLE_EQ(run.proportions.at("update"), 0.05);
  EXPECT_DOUBLE_EQ(run.proportions.at("insert"), 0.1);
  EXPECT_FALSE(run.proportions.contains("scan"));
  // insertcount + 2 x operationcount x insertproportion + 1
  EXPECT_EQ(run.ycsb->key_space, 100u + 10u + 1u);
  EXPECT_EQ(run.ycsb->first_insert, 100u);
  EXPECT_TRUE(run.ycsb->read_all_fields);
  EXPECT_FALSE(run.ycsb->write_all_fields);
  EXPECT_EQ(w.ycsb_ignored, (std::vector<std::string>{"table"}));
  EXPECT_TRUE(w.measurement.hdrhistogram);  // asked for by name: files too
  EXPECT_EQ(w.ycsb_properties.at("fieldlength"), "100");
}

TEST(YcsbPropertiesTest, OverridesReplaceTheFile) {
  Workload w;
  ASSERT_TRUE(YcsbWorkloadFromText("recordcount=100\noperationcount=50\nthreadcount=1\n", "f",
                                   {"recordcount=7", "threadcount=3", "target=500",
                                    "insertorder=ordered", "fieldlengthdistribution=uniform",
                                    "requestdistribution=hotspot", "hotspotdatafraction=0.3"},
                                   &w)
                  .ok());
  EXPECT_EQ(w.dataset_count, 7u);
  EXPECT_EQ(w.phases[0].count, 7u);
  EXPECT_EQ(w.phases[1].threads, std::vector<int>{3});
  EXPECT_EQ(w.phases[1].targets, std::vector<double>{500});
  EXPECT_EQ(w.phases[0].threads, std::vector<int>{3});
  EXPECT_EQ(w.dataset_params.at("insertorder"), "ordered");
  EXPECT_EQ(w.value_params.at("size_distribution"), "uniform");
  EXPECT_EQ(w.value_params.at("max_size"), "100");
  EXPECT_EQ(w.phases[1].distribution_params.at("hotsetfraction"), "0.3");
  EXPECT_EQ(w.phases[1].distribution_params.at("hotopnfraction"), "0.8");
  EXPECT_EQ(w.phases[1].ycsb->key_space, 7u);
}

TEST(YcsbPropertiesTest, InsertStartAndCountShapeTheLoad) {
  Workload w;
  ASSERT_TRUE(YcsbWorkloadFromText("recordcount=100\noperationcount=5\ninsertstart=40\n", "f", {},
                                   &w)
                  .ok());
  EXPECT_EQ(w.phases[0].count, 60u);
  EXPECT_EQ(w.phases[0].ycsb->first_insert, 40u);
  ASSERT_TRUE(YcsbWorkloadFromText("recordcount=100\noperationcount=5\ninsertcount=10\n", "f", {},
                                   &w)
                  .ok());
  EXPECT_EQ(w.phases[0].count, 10u);
}

TEST(YcsbPropertiesTest, ErrorsNameTheFileLineAndProperty) {
  Workload w;
  auto error = [&](const std::string& text, std::vector<std::string> overrides = {}) {
    const Status s = YcsbWorkloadFromText(text, "wl", overrides, &w);
    EXPECT_TRUE(s.IsInvalidArgument()) << text;
    return std::string(s.message());
  };
  const std::string base = "recordcount=10\noperationcount=10\n";
  EXPECT_EQ(error(base + "requestdistribution=pareto\n"),
            "wl:3: property 'requestdistribution': unknown value 'pareto' (known: uniform, "
            "zipfian, latest, hotspot, sequential, exponential)");
  EXPECT_EQ(error(base + "readproportion=half\n"),
            "wl:3: property 'readproportion': 'half' is not a number");
  EXPECT_EQ(error(base, {"recordcount=-5"}),
            "wl: -p recordcount=-5: property 'recordcount': must be >= 1 (is -5)");
  EXPECT_EQ(error(base + "operationcount=-1\n"),
            "wl:3: property 'operationcount': must be >= 0 (is -1)");
  EXPECT_NE(error(base + "workload=site.ycsb.workloads.TimeSeriesWorkload\n")
                .find("wl:3: property 'workload': 'site.ycsb.workloads.TimeSeriesWorkload' is not "
                      "supported"),
            std::string::npos);
  EXPECT_NE(error("recordcount=10\n").find("property 'operationcount'"), std::string::npos);
  EXPECT_NE(error(base + "readproportion=0\nupdateproportion=0\n").find("sum to 0"),
            std::string::npos);
  EXPECT_EQ(error(base, {"novalue"}), "-p novalue: expected name=value");
  EXPECT_TRUE(
      YcsbWorkloadFromText(base + "workload=com.yahoo.ycsb.workloads.CoreWorkload\n", "wl", {}, &w)
          .ok());
}

TEST(YcsbPropertiesTest, ClientPropertiesAreReadAndUnknownOnesRefused) {
  Workload w;
  const std::string base = "recordcount=10\noperationcount=10\n";
  ASSERT_TRUE(YcsbWorkloadFromText(base + "measurementtype=timeseries\ntimeseries.granularity=250\n"
                                          "hdrhistogram.percentiles=50,99.9\nstatus.interval=2\n"
                                          "exportfile=/tmp/x\nlabel=L\nmeasurement.interval=op\n"
                                          "field_len_dist=uniform\nlimit.ops=300\n",
                                   "wl", {"status=true"}, &w)
                  .ok());
  EXPECT_TRUE(w.ycsb_output.timeseries);
  EXPECT_FALSE(w.measurement.hdrhistogram);
  EXPECT_DOUBLE_EQ(w.measurement.interval_s, 0.25);
  EXPECT_TRUE(w.measurement.interval_exact);
  EXPECT_EQ(w.ycsb_output.percentiles, (std::vector<double>{50, 99.9}));
  EXPECT_TRUE(w.ycsb_output.status);
  EXPECT_DOUBLE_EQ(w.ycsb_output.status_interval_s, 2);
  EXPECT_EQ(w.ycsb_output.export_file, "/tmp/x");
  EXPECT_EQ(w.ycsb_output.label, "L");
  EXPECT_EQ(w.value_params.at("size_distribution"), "uniform");  // YCSB-cpp's spelling
  EXPECT_EQ(w.phases[1].targets, std::vector<double>{300});
  EXPECT_FALSE(w.measurement.hdrhistogram);

  ASSERT_TRUE(YcsbWorkloadFromText(base + "hdrhistogram.fileoutput=true\n", "wl", {}, &w).ok());
  EXPECT_TRUE(w.measurement.hdrhistogram);
  ASSERT_TRUE(YcsbWorkloadFromText(base, "wl", {}, &w).ok());
  EXPECT_FALSE(w.measurement.hdrhistogram);  // YCSB's default type writes no files

  auto error = [&](const std::string& text) {
    const Status s = YcsbWorkloadFromText(base + text, "wl", {}, &w);
    EXPECT_TRUE(s.IsInvalidArgument()) << text;
    return std::string(s.message());
  };
  EXPECT_EQ(error("db.url=jdbc:x\n").substr(0, 30), "wl:3: property 'db.url': unkno");
  EXPECT_NE(error("measurementtype=raw\n").find("wl:3: property 'measurementtype': 'raw' is not"),
            std::string::npos);
  EXPECT_NE(error("dataintegrity=true\n").find("property 'dataintegrity'"), std::string::npos);
  EXPECT_NE(error("hdrhistogram.percentiles=50,x\n").find("'x' is not a percentile"),
            std::string::npos);
  EXPECT_NE(error("timeseries.granularity=soon\n").find("property 'timeseries.granularity'"),
            std::string::npos);
}

TEST(YcsbPropertiesTest, TomlFilesAreNotPropertyFiles) {
  EXPECT_FALSE(IsYcsbPropertyFile("a/b.toml"));
  EXPECT_TRUE(IsYcsbPropertyFile("workloads/ycsb/workloada"));
  EXPECT_TRUE(IsYcsbPropertyFile("x.properties"));
}

}  // namespace
}  // namespace kvbench::runner
