// Where a history store is: `sqlite:PATH` (a file; the default) or a
// PostgreSQL URL, `postgresql://[user[:password]@][host][:port][/dbname][?param=value...]`
// (`postgres://` too), passed to libpq as it is.
#pragma once

#include <string>
#include <string_view>

#include "common/status.h"

namespace kvbench::results {

struct StoreLocation {
  enum class Kind { kSqlite, kPostgres };
  Kind kind = Kind::kSqlite;
  std::string path;     // kSqlite: the file
  std::string url;      // kPostgres: the URL as given (it may hold a password)
  std::string display;  // for messages: the spec with any password replaced by ***
};

// InvalidArgument "store 'x': ..." when `spec` is neither form. A leading
// "~/" of a SQLite path is `home` + "/" when `home` is not empty.
Status ParseStoreLocation(std::string_view spec, const std::string& home, StoreLocation* out);

// The default store's file: $XDG_DATA_HOME/kvbench/history.db when
// `xdg_data_home` is set and absolute, else $HOME/.local/share/kvbench/history.db
// (the XDG Base Directory default). The caller passes the variables in, so
// nothing here reads the environment.
std::string DefaultStorePath(const std::string& xdg_data_home, const std::string& home);

}  // namespace kvbench::results
