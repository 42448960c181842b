#include "runner/resource_usage.h"

#include <sys/resource.h>
#include <sys/stat.h>

#include <fstream>
#include <string>

namespace kvbench::runner {

namespace {

double Seconds(const timeval& tv) { return tv.tv_sec + tv.tv_usec / 1e6; }

}  // namespace

ResourceSnapshot TakeResourceSnapshot() {
  ResourceSnapshot s;
  rusage ru{};
  if (getrusage(RUSAGE_SELF, &ru) == 0) {
    s.cpu_user_s = Seconds(ru.ru_utime);
    s.cpu_sys_s = Seconds(ru.ru_stime);
  }
  std::ifstream io("/proc/self/io");
  std::string name;
  uint64_t value = 0;
  while (io >> name >> value) {
    if (name == "read_bytes:") s.read_bytes = value;
    if (name == "write_bytes:") s.write_bytes = value;
  }
  return s;
}

bool ResetPeakRss() {
  std::ofstream clear("/proc/self/clear_refs");
  if (!clear) return false;
  clear << "5";
  return static_cast<bool>(clear.flush());
}

uint64_t PeakRssBytes() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::stoull(line.substr(6)) * 1024;
  }
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<uint64_t>(ru.ru_maxrss) * 1024;
}

FileSizes SizeOfFiles(const std::vector<std::string>& paths) {
  FileSizes sizes;
  for (const std::string& p : paths) {
    struct stat st {};
    if (::stat(p.c_str(), &st) != 0) continue;
    sizes.apparent_bytes += static_cast<uint64_t>(st.st_size);
    sizes.allocated_bytes += static_cast<uint64_t>(st.st_blocks) * 512;
  }
  return sizes;
}

}  // namespace kvbench::runner
