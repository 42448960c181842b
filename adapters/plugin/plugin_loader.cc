#include "adapters/plugin/plugin_loader.h"

#include <dlfcn.h>
#include <limits.h>
#include <openssl/evp.h>
#include <stdlib.h>

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <set>

#include "adapters/plugin/plugin_adapter.h"
#include "adapters/registry.h"
#include "common/strings.h"

namespace kvbench::plugin_host {
namespace {

namespace fs = std::filesystem;

// Engine tables of every loaded plugin; a deque so their addresses, which
// the registry's factories keep, never move.
std::deque<PluginEngine>& LoadedEngines() {
  static std::deque<PluginEngine> engines;
  return engines;
}

// Canonical paths of the plugins loaded so far.
std::set<std::string>& LoadedPaths() {
  static std::set<std::string> paths;
  return paths;
}

// The end of ABI 1.0's engine table: a plugin's struct_size is at least this.
constexpr size_t kMinimumEngineApiSize =
    offsetof(kvbench_engine_api, scan) + sizeof(kvbench_engine_api::scan);

// Where each plugin engine came from, by engine name.
std::map<std::string, PluginOrigin>& Origins() {
  static std::map<std::string, PluginOrigin> origins;
  return origins;
}

// SHA-256 of the file's bytes, 64 hex digits (OpenSSL's libcrypto, as
// results/history/sha256.h, which this room may not include).
Status FileSha256(const std::string& path, std::string* hex) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::IOError("cannot read it to hash it");
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
  if (!ctx || EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr) != 1) {
    return Status::Internal("SHA-256: out of memory");
  }
  char block[1 << 16];
  while (in) {
    in.read(block, sizeof block);
    if (in.gcount() > 0 && EVP_DigestUpdate(ctx.get(), block, in.gcount()) != 1) {
      return Status::Internal("SHA-256 failed");
    }
  }
  if (in.bad()) return Status::IOError("read error while hashing it");
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (EVP_DigestFinal_ex(ctx.get(), digest, &length) != 1) return Status::Internal("SHA-256 failed");
  hex->clear();
  AppendHex(std::string_view(reinterpret_cast<const char*>(digest), length), hex);
  return Status::OK();
}

bool ValidEngineName(const char* name) {
  if (name == nullptr || *name == '\0' || std::strlen(name) > 64) return false;
  for (const char* c = name; *c != '\0'; ++c) {
    const bool ok = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
                    (*c >= '0' && *c <= '9') || *c == '-' || *c == '_' || *c == '.';
    if (!ok) return false;
  }
  return true;
}

// The first required member the table lacks, or nullptr.
const char* MissingMember(const kvbench_engine_api& api) {
  struct Required {
    const char* name;
    bool present;
  };
  const Required required[] = {
      {"library_version", api.library_version != nullptr},
      {"create", api.create != nullptr},
      {"destroy", api.destroy != nullptr},
      {"capabilities", api.capabilities != nullptr},
      {"check_options", api.check_options != nullptr},
      {"open", api.open != nullptr},
      {"close", api.close != nullptr},
      {"sync", api.sync != nullptr},
      {"list_files", api.list_files != nullptr},
      {"new_session", api.new_session != nullptr},
      {"close_session", api.close_session != nullptr},
      {"put", api.put != nullptr},
      {"get", api.get != nullptr},
      {"remove", api.remove != nullptr},
      {"begin_batch", api.begin_batch != nullptr},
      {"commit_batch", api.commit_batch != nullptr},
      {"abort_batch", api.abort_batch != nullptr},
      {"option_specs", api.option_spec_count == 0 || api.option_specs != nullptr},
  };
  for (const Required& r : required) {
    if (!r.present) return r.name;
  }
  for (size_t i = 0; i < api.option_spec_count; ++i) {
    if (api.option_specs[i].name == nullptr) return "option_specs[].name";
  }
  return nullptr;
}

Status Refuse(const std::string& path, const std::string& why) {
  return Status::InvalidArgument("plugin '" + path + "': " + why);
}

// `spec` as a file: a path when it holds '/', else looked up in `search_path`.
Status Resolve(const std::string& spec, const std::string& base_directory,
               const std::vector<std::string>& search_path, std::string* path) {
  if (spec.find('/') != std::string::npos) {
    fs::path p(spec);
    if (p.is_relative() && !base_directory.empty()) p = fs::path(base_directory) / p;
    *path = p.string();
    std::error_code ec;
    if (!fs::is_regular_file(*path, ec)) return Refuse(*path, "no such file");
    return Status::OK();
  }
  for (const std::string& dir : search_path) {
    for (const std::string& name : {spec, "libkvbench-" + spec + ".so", spec + ".so"}) {
      std::error_code ec;
      const fs::path candidate = fs::path(dir) / name;
      if (fs::is_regular_file(candidate, ec)) {
        *path = candidate.string();
        return Status::OK();
      }
    }
  }
  std::string dirs;
  for (const std::string& d : search_path) dirs += (dirs.empty() ? "" : ":") + d;
  return Status::InvalidArgument(
      "plugin '" + spec + "': not found in KVBENCH_PLUGIN_PATH" +
      (dirs.empty() ? " (not set; give a path with a '/')" : " (" + dirs + ")"));
}

}  // namespace

std::vector<std::string> PluginSearchPath() {
  std::vector<std::string> dirs;
  const char* env = std::getenv("KVBENCH_PLUGIN_PATH");
  if (env == nullptr) return dirs;
  std::string text(env);
  size_t start = 0;
  while (start <= text.size()) {
    const size_t colon = std::min(text.find(':', start), text.size());
    if (colon > start) dirs.push_back(text.substr(start, colon - start));
    start = colon + 1;
  }
  return dirs;
}

Status LoadPlugin(const std::string& spec, const std::string& base_directory,
                  const std::vector<std::string>& search_path, std::vector<std::string>* engines) {
  std::string path;
  KVBENCH_RETURN_IF_ERROR(Resolve(spec, base_directory, search_path, &path));
  std::error_code ec;
  const std::string canonical = fs::canonical(path, ec).string();
  if (ec) return Refuse(path, ec.message());
  if (LoadedPaths().count(canonical) > 0) return Status::OK();

  // The bytes that are loaded, hashed first: results name the exact build.
  std::string sha256;
  if (Status hashed = FileSha256(canonical, &sha256); !hashed.ok()) {
    return Refuse(path, hashed.message());
  }

  // RTLD_LOCAL: two plugins may link different versions of one library.
  void* handle = dlopen(canonical.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* error = dlerror();
    return Refuse(path, std::string("not a loadable shared object (") +
                            (error != nullptr ? error : "dlopen failed") + ")");
  }
  auto entry =
      reinterpret_cast<kvbench_plugin_entry_fn>(dlsym(handle, KVBENCH_PLUGIN_ENTRY_SYMBOL));
  if (entry == nullptr) {
    dlclose(handle);
    return Refuse(path, std::string("no '") + KVBENCH_PLUGIN_ENTRY_SYMBOL +
                            "' symbol: not a kvbench plugin (see include/kvbench/plugin.h)");
  }
  const kvbench_plugin* plugin = entry();
  if (plugin == nullptr) {
    dlclose(handle);
    return Refuse(path, std::string(KVBENCH_PLUGIN_ENTRY_SYMBOL) + "() returned NULL");
  }
  if (plugin->abi_major != KVBENCH_PLUGIN_ABI_MAJOR) {
    const std::string theirs =
        std::to_string(plugin->abi_major) + "." + std::to_string(plugin->abi_minor);
    dlclose(handle);
    // "loads ABI 1.0 to 1.1": every minor version of its major loads.
    return Refuse(path, "built for plugin ABI " + theirs + "; this kvbench loads ABI " +
                            std::to_string(KVBENCH_PLUGIN_ABI_MAJOR) + ".0 to " +
                            std::to_string(KVBENCH_PLUGIN_ABI_MAJOR) + "." +
                            std::to_string(KVBENCH_PLUGIN_ABI_MINOR) + " (and later " +
                            std::to_string(KVBENCH_PLUGIN_ABI_MAJOR) +
                            ".x): rebuild it against this kvbench's SDK");
  }
  if (plugin->engine_count == 0 || plugin->engines == nullptr) {
    dlclose(handle);
    return Refuse(path, "declares no engines");
  }
  const std::string plugin_name = plugin->name != nullptr ? plugin->name : "";

  // Every engine is checked before any is registered: a plugin loads whole or not at all.
  AdapterRegistry& registry = AdapterRegistry::Global();
  std::vector<PluginEngine> checked;
  // The array's elements are the plugin's kvbench_engine_api, of its
  // struct_size: a 1.0 plugin's are shorter than ours. Element 0's size is
  // the stride (struct_size is the first member in every version); the
  // stride is checked before any later element is read.
  const size_t stride = plugin->engines[0].struct_size;
  if (stride < kMinimumEngineApiSize || stride % alignof(kvbench_engine_api) != 0) {
    dlclose(handle);
    return Refuse(path, "engine 0: struct_size " + std::to_string(stride) +
                            " is not an engine table of ABI 1.x (at least " +
                            std::to_string(kMinimumEngineApiSize) + " bytes, pointer-aligned)");
  }
  const auto* base = reinterpret_cast<const unsigned char*>(plugin->engines);
  for (size_t i = 0; i < plugin->engine_count; ++i) {
    const auto& theirs = *reinterpret_cast<const kvbench_engine_api*>(base + i * stride);
    const std::string label =
        "engine " + std::to_string(i) +
        (ValidEngineName(theirs.name) ? " '" + std::string(theirs.name) + "'" : std::string());
    if (theirs.struct_size != stride) {
      dlclose(handle);
      return Refuse(path, label + ": struct_size " + std::to_string(theirs.struct_size) +
                              " differs from engine 0's (" + std::to_string(stride) +
                              "): one array holds one table layout");
    }
    PluginEngine engine;
    std::memcpy(&engine.api, &theirs, std::min(theirs.struct_size, sizeof(kvbench_engine_api)));
    engine.api.struct_size = sizeof(kvbench_engine_api);
    engine.plugin_path = canonical;
    engine.plugin_name = plugin_name;
    engine.abi_version =
        std::to_string(plugin->abi_major) + "." + std::to_string(plugin->abi_minor);
    if (!ValidEngineName(engine.api.name)) {
      dlclose(handle);
      return Refuse(path, label + ": engine names are 1-64 letters, digits, '-', '_' or '.'");
    }
    if (const char* missing = MissingMember(engine.api)) {
      dlclose(handle);
      return Refuse(path, label + ": missing required member '" + missing + "'");
    }
    const std::string name = engine.api.name;
    if (const AdapterInfo* taken = registry.Find(name)) {
      dlclose(handle);
      return Refuse(path,
                    "engine '" + name + "' clashes with " +
                        (taken->plugin_path.empty()
                             ? std::string("the built-in engine of that name")
                             : "the engine of that name in plugin '" + taken->plugin_path + "'"));
    }
    for (const PluginEngine& earlier : checked) {
      if (name == earlier.api.name) {
        dlclose(handle);
        return Refuse(path, "engine '" + name + "' is declared twice");
      }
    }
    checked.push_back(std::move(engine));
  }

  LoadedPaths().insert(canonical);
  for (PluginEngine& engine : checked) {
    LoadedEngines().push_back(std::move(engine));
    const PluginEngine* stored = &LoadedEngines().back();
    AdapterInfo info;
    info.name = stored->api.name;
    info.description = stored->api.description != nullptr ? stored->api.description : "";
    info.create = [stored] { return NewPluginAdapter(stored); };
    info.plugin_path = canonical;
    registry.Register(std::move(info));
    Origins()[stored->api.name] = PluginOrigin{canonical, sha256, stored->abi_version};
    if (engines != nullptr) engines->push_back(stored->api.name);
  }
  return Status::OK();
}

const PluginOrigin* PluginOriginOf(const std::string& engine) {
  const auto it = Origins().find(engine);
  return it == Origins().end() ? nullptr : &it->second;
}

Status LoadPlugins(const std::vector<std::string>& specs, const std::string& base_directory) {
  const std::vector<std::string> search_path = PluginSearchPath();
  for (const std::string& spec : specs) {
    KVBENCH_RETURN_IF_ERROR(LoadPlugin(spec, base_directory, search_path));
  }
  return Status::OK();
}

Status LoadPluginsOnSearchPath() {
  const std::vector<std::string> search_path = PluginSearchPath();
  for (const std::string& dir : search_path) {
    std::error_code ec;
    std::vector<std::string> found;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
      const std::string name = entry.path().filename().string();
      if (name.rfind("libkvbench-", 0) == 0 && name.size() > 3 &&
          name.compare(name.size() - 3, 3, ".so") == 0) {
        found.push_back(entry.path().string());
      }
    }
    std::sort(found.begin(), found.end());  // a clash is reported the same way every time
    for (const std::string& path : found) KVBENCH_RETURN_IF_ERROR(LoadPlugin(path, "", {}));
  }
  return Status::OK();
}

}  // namespace kvbench::plugin_host
