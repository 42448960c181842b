#include "runner/ycsb/workload_file.h"

#include <utility>

#include "common/input_file.h"
#include "runner/workload.h"
#include "runner/ycsb/ycsb_properties.h"

namespace kvbench::runner {

Status PlanRun(const std::string& path, const RunOverrides& overrides, RunPlan* plan) {
  Workload workload;
  // A directory or device is refused here, before either reader sees it
  // (a directory used to read as a workload without phases).
  KVBENCH_RETURN_IF_ERROR(CheckInputFile(path, kMaxWorkloadFileBytes, "workload file"));
  if (IsYcsbPropertyFile(path)) {
    KVBENCH_RETURN_IF_ERROR(LoadYcsbWorkload(path, overrides.properties, &workload));
  } else if (!overrides.properties.empty()) {
    return Status::InvalidArgument("-p " + overrides.properties[0] +
                                   ": -p sets YCSB properties; '" + path +
                                   "' is a TOML workload (edit the file instead)");
  } else {
    KVBENCH_RETURN_IF_ERROR(LoadWorkloadFile(path, &workload));
  }
  return PlanWorkload(std::move(workload), overrides, plan);
}

}  // namespace kvbench::runner
