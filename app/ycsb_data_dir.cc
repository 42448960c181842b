#include "app/ycsb_data_dir.h"

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "common/atomic_file.h"
#include "common/owned_dir.h"

namespace kvbench::app {

namespace fs = std::filesystem;

namespace {

std::string MarkerPath(const std::string& dir) { return dir + "/" + kYcsbMarkerName; }

std::string Describe(const YcsbDataMarker& m) {
  return m.engine + " (" + std::to_string(m.records) + " records, loaded " + m.loaded_at + ")";
}

}  // namespace

std::map<std::string, std::string> YcsbLayout(const runner::Workload& w) {
  std::map<std::string, std::string> layout;
  for (const char* name :
       {"fieldcount", "fieldlength", "fieldlengthdistribution", "insertorder", "zeropadding"}) {
    const auto it = w.ycsb_properties.find(name);
    if (it != w.ycsb_properties.end()) layout[name] = it->second;
  }
  return layout;
}

Status ReadYcsbMarker(const std::string& dir, YcsbDataMarker* out) {
  const std::string path = MarkerPath(dir);
  std::ifstream in(path);
  if (!in) return Status::NotFound(path);
  std::stringstream text;
  text << in.rdbuf();
  const nlohmann::json doc = nlohmann::json::parse(text.str(), nullptr, false);
  const std::string fix = "; delete the directory or use another kvbench.dir";
  if (doc.is_discarded()) return Status::InvalidArgument(path + ": not JSON" + fix);
  try {
    YcsbDataMarker m;
    m.engine = doc.at("engine").get<std::string>();
    m.options = doc.at("options").get<std::map<std::string, std::string>>();
    m.records = doc.at("records").get<uint64_t>();
    m.layout = doc.at("layout").get<std::map<std::string, std::string>>();
    m.loaded_at = doc.at("loaded_at").get<std::string>();
    m.complete = doc.at("complete").get<bool>();
    *out = std::move(m);
  } catch (const nlohmann::json::exception& e) {
    return Status::InvalidArgument(path + ": not a kvbench ycsb marker (" + e.what() + ")" + fix);
  }
  return Status::OK();
}

Status WriteYcsbMarker(const std::string& dir, const YcsbDataMarker& m) {
  const nlohmann::json doc = {{"engine", m.engine},       {"options", m.options},
                              {"records", m.records},     {"layout", m.layout},
                              {"loaded_at", m.loaded_at}, {"complete", m.complete}};
  return WriteFileAtomically(MarkerPath(dir), doc.dump(1) + "\n");
}

Status CheckYcsbLoadDir(const std::string& dir, const std::string& engine, bool* reload) {
  *reload = false;
  YcsbDataMarker marker;
  const Status read = ReadYcsbMarker(dir, &marker);
  if (read.ok()) {
    if (marker.engine != engine) {
      return Status::InvalidArgument(dir + ": holds data of engine " + Describe(marker) +
                                     "; load " + engine +
                                     " into another directory "
                                     "(-p kvbench.dir=DIR) or delete this one");
    }
    *reload = true;
    return Status::OK();
  }
  if (!read.IsNotFound()) return read;
  std::error_code ec;
  if (fs::exists(dir, ec) && !fs::is_empty(dir, ec)) {
    return Status::InvalidArgument(
        dir + ": is not empty and holds no data kvbench ycsb loaded (no " + kYcsbMarkerName +
        "); kvbench will not empty it: give an empty "
        "or new directory (-p kvbench.dir=DIR)");
  }
  return Status::OK();
}

Status CheckYcsbRunDir(const std::string& dir, const std::string& engine, const runner::Workload& w,
                       YcsbDataMarker* marker, std::string* warning) {
  const Status read = ReadYcsbMarker(dir, marker);
  if (read.IsNotFound()) {
    return Status::InvalidArgument(dir + ": no loaded data (no " + std::string(kYcsbMarkerName) +
                                   "); run `kvbench ycsb load " + engine +
                                   " ...` with the same kvbench.dir first");
  }
  KVBENCH_RETURN_IF_ERROR(read);
  if (marker->engine != engine) {
    return Status::InvalidArgument(dir + ": holds data of engine " + Describe(*marker) + ", not " +
                                   engine);
  }
  if (!marker->complete) {
    return Status::InvalidArgument(dir + ": the load of " + engine + " started " +
                                   marker->loaded_at + " did not finish; load it again");
  }
  for (const auto& [name, value] : YcsbLayout(w)) {
    const auto loaded = marker->layout.find(name);
    if (loaded != marker->layout.end() && loaded->second != value) {
      return Status::InvalidArgument(dir + ": was loaded with " + name + "=" + loaded->second +
                                     "; this run says " + name + "=" + value +
                                     " (its keys or records would not be the loaded ones)");
    }
  }
  const auto count = w.ycsb_properties.find("recordcount");
  if (count != w.ycsb_properties.end() && count->second != std::to_string(marker->records)) {
    *warning = dir + ": holds " + std::to_string(marker->records) +
               " records; recordcount=" + count->second +
               " (reads of keys beyond the loaded ones are NOT_FOUND)";
  }
  return Status::OK();
}

Status StartYcsbLoad(const std::string& dir, const YcsbDataMarker& marker) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return Status::IOError(dir + ": cannot create: " + ec.message());
  YcsbDataMarker loading = marker;
  loading.complete = false;
  KVBENCH_RETURN_IF_ERROR(WriteYcsbMarker(dir, loading));
  fs::remove_all(dir + "/data", ec);
  if (ec) return Status::IOError(dir + "/data: cannot delete: " + ec.message());
  // Marked as kvbench's, so a `recreate` phase may empty it (common/owned_dir.h).
  return ClaimDirectory(dir + "/data", marker.loaded_at, ClaimMode::kEmptyOrNew);
}

}  // namespace kvbench::app
