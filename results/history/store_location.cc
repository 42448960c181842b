#include "results/history/store_location.h"

namespace kvbench::results {

namespace {

// "postgresql://u:secret@h/db?password=x" -> "postgresql://u:***@h/db?password=***".
std::string WithoutPassword(std::string url) {
  const size_t scheme = url.find("://");
  if (scheme == std::string::npos) return url;
  const size_t scheme_end = scheme + 3;
  const size_t authority_end = url.find_first_of("/?", scheme_end);
  const size_t at = url.rfind('@', authority_end == std::string::npos ? url.size() : authority_end);
  if (at != std::string::npos && at > scheme_end) {
    const size_t colon = url.find(':', scheme_end);
    if (colon != std::string::npos && colon < at) url.replace(colon + 1, at - colon - 1, "***");
  }
  for (size_t p = url.find("password="); p != std::string::npos; p = url.find("password=", p + 1)) {
    if (p > 0 && url[p - 1] != '?' && url[p - 1] != '&') continue;
    const size_t value = p + 9;
    const size_t end = url.find('&', value);
    url.replace(value, (end == std::string::npos ? url.size() : end) - value, "***");
  }
  return url;
}

}  // namespace

Status ParseStoreLocation(std::string_view spec, const std::string& home, StoreLocation* out) {
  StoreLocation loc;
  const std::string text(spec);
  if (text.starts_with("sqlite:")) {
    loc.kind = StoreLocation::Kind::kSqlite;
    loc.path = text.substr(7);
    if (loc.path.starts_with("//")) loc.path = loc.path.substr(2);  // sqlite:///abs/path
    if (loc.path.empty()) {
      return Status::InvalidArgument("store '" + text + "': sqlite: needs a file (sqlite:PATH)");
    }
    if (loc.path.starts_with("~/") && !home.empty()) loc.path = home + loc.path.substr(1);
    loc.display = "sqlite:" + loc.path;
  } else if (text.starts_with("postgresql://") || text.starts_with("postgres://")) {
    loc.kind = StoreLocation::Kind::kPostgres;
    loc.url = text;
    loc.display = WithoutPassword(text);
  } else {
    return Status::InvalidArgument("store '" + WithoutPassword(text) +
                                   "' is not a store: use sqlite:PATH or postgresql://...");
  }
  *out = std::move(loc);
  return Status::OK();
}

std::string DefaultStorePath(const std::string& xdg_data_home, const std::string& home) {
  if (xdg_data_home.starts_with("/")) return xdg_data_home + "/kvbench/history.db";
  return home + "/.local/share/kvbench/history.db";
}

}  // namespace kvbench::results
