#include "runner/environment.h"

#include <sys/statfs.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "runner/cycle_clock.h"

#ifndef KVBENCH_CXX_FLAGS
#define KVBENCH_CXX_FLAGS ""
#endif
#ifndef KVBENCH_BUILD_TYPE
#define KVBENCH_BUILD_TYPE ""
#endif
#ifndef KVBENCH_VERSION
#define KVBENCH_VERSION ""
#endif
#ifndef KVBENCH_SOURCE_DIR
#define KVBENCH_SOURCE_DIR "."
#endif

namespace kvbench::runner {

namespace {

std::string CpuModel() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) return line.substr(line.find_first_not_of(' ', colon + 1));
    }
  }
  return "unknown";
}

uint64_t MemoryBytes() {
  std::ifstream meminfo("/proc/meminfo");
  std::string name;
  uint64_t kb = 0;
  while (meminfo >> name >> kb) {
    if (name == "MemTotal:") return kb * 1024;
    meminfo.ignore(256, '\n');
  }
  return 0;
}

std::string FilesystemOf(const std::string& path) {
  struct statfs fs {};
  if (::statfs(path.c_str(), &fs) != 0) return "unknown";
  switch (static_cast<unsigned long>(fs.f_type)) {
    case 0xEF53: return "ext2/3/4";
    case 0x58465342: return "xfs";
    case 0x9123683E: return "btrfs";
    case 0x01021994: return "tmpfs";
    case 0x2FC12FC1: return "zfs";
    case 0x794C7630: return "overlayfs";
    case 0x6969: return "nfs";
    case 0xF2F52010: return "f2fs";
    default: {
      char buf[32];
      std::snprintf(buf, sizeof buf, "0x%lx", static_cast<unsigned long>(fs.f_type));
      return buf;
    }
  }
}

// The first line of a small file, trimmed; "" when it cannot be read.
std::string FirstLine(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  while (!line.empty() && (line.back() == ' ' || line.back() == '\n')) line.pop_back();
  return line;
}

// Turbo/boost: "on" or "off" from whichever interface the kernel has.
std::string Turbo() {
  const std::string no_turbo = FirstLine("/sys/devices/system/cpu/intel_pstate/no_turbo");
  if (!no_turbo.empty()) return no_turbo == "1" ? "off" : "on";
  const std::string boost = FirstLine("/sys/devices/system/cpu/cpufreq/boost");
  if (!boost.empty()) return boost == "1" ? "on" : "off";
  return "";
}

// "always madvise [never]" -> "never".
std::string SelectedMode(const std::string& line) {
  const auto open = line.find('['), close = line.find(']');
  if (open == std::string::npos || close == std::string::npos || close < open) return line;
  return line.substr(open + 1, close - open - 1);
}

// The mount source of the file system holding `path` (longest mount point
// that prefixes its canonical form), from /proc/self/mountinfo.
std::string DeviceOf(const std::string& path) {
  std::error_code ec;
  const std::string canonical = std::filesystem::weakly_canonical(path, ec).string();
  std::ifstream in("/proc/self/mountinfo");
  std::string line, best_mount, best_source;
  while (std::getline(in, line)) {
    // id parent major:minor root mountpoint options... - fstype source superopts
    std::istringstream fields(line);
    std::string id, parent, dev, root, mount;
    fields >> id >> parent >> dev >> root >> mount;
    const auto dash = line.find(" - ");
    if (dash == std::string::npos) continue;
    std::istringstream tail(line.substr(dash + 3));
    std::string fstype, source;
    tail >> fstype >> source;
    const bool prefix = canonical == mount || mount == "/" ||
                        canonical.rfind(mount + "/", 0) == 0;
    if (prefix && mount.size() >= best_mount.size()) {
      best_mount = mount;
      best_source = source;
    }
  }
  return best_source;
}

std::string GitRevision() {
  const std::string cmd =
      std::string("git -C '") + KVBENCH_SOURCE_DIR + "' describe --always --dirty 2>/dev/null";
  FILE* pipe = ::popen(cmd.c_str(), "r");
  if (pipe == nullptr) return "unknown";
  std::array<char, 128> buf{};
  std::string out;
  while (std::fgets(buf.data(), buf.size(), pipe) != nullptr) out += buf.data();
  ::pclose(pipe);
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out.empty() ? "unknown" : out;
}

}  // namespace

results::Environment CaptureEnvironment(const std::string& data_directory) {
  results::Environment e;
  char host[256] = {0};
  if (::gethostname(host, sizeof host - 1) == 0) e.hostname = host;
  e.cpu_model = CpuModel();
  e.cores = static_cast<int>(std::thread::hardware_concurrency());
  e.memory_bytes = MemoryBytes();
  struct utsname u {};
  if (::uname(&u) == 0) e.kernel = std::string(u.sysname) + " " + u.release + " " + u.machine;
  e.data_directory = data_directory;
  e.filesystem = FilesystemOf(data_directory);
#if defined(__clang__)
  e.compiler = std::string("clang ") + __clang_version__;
#elif defined(__GNUC__)
  e.compiler = std::string("gcc ") + __VERSION__;
#endif
  e.cxx_flags = KVBENCH_CXX_FLAGS;
  e.build_type = KVBENCH_BUILD_TYPE;
  e.kvbench_version = KVBENCH_VERSION;
  e.kvbench_revision = GitRevision();
  e.cpu_governor = FirstLine("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");
  e.turbo = Turbo();
  e.transparent_hugepages =
      SelectedMode(FirstLine("/sys/kernel/mm/transparent_hugepage/enabled"));
  e.data_device = DeviceOf(data_directory);
  double load[1] = {0};
  if (::getloadavg(load, 1) == 1) e.load_average_1m = load[0];
  return e;
}

void CalibrateClock(results::Environment* e) {
  const CycleClock& clock = CycleClock::Get();
  e->clock = clock.uses_tsc() ? "tsc" : "steady";
  if (clock.uses_tsc()) {
    e->clock_ns_per_tick = clock.ns_per_tick();
    e->clock_calibration_error_ppm = clock.calibration_error_ppm();
  }
}

std::string UtcTimestamp() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  ::gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace kvbench::runner
