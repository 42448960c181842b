#include "adapters/sqlite/sqlite_record_schema.h"

#include <algorithm>
#include <cctype>

#include "adapters/sqlite/sqlite_connection.h"

namespace kvbench {
namespace {

// SQLite's default SQLITE_MAX_COLUMN is 2000, the id column included.
constexpr size_t kMaxFields = 1999;

const char* DeclaredType(FieldType type) {
  switch (type) {
    case FieldType::kInt64:
    case FieldType::kReference:
      return " INTEGER";
    case FieldType::kDouble:
      return " REAL";
    case FieldType::kString:
      return " TEXT";
    case FieldType::kBytes:
      return " BLOB";
    case FieldType::kNull:
      return "";
  }
  return "";
}

Status CheckSpec(const RecordTableSpec& spec) {
  const std::string& name = spec.name;
  const bool name_ok =
      !name.empty() && name.size() <= 64 && std::all_of(name.begin(), name.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
      });
  if (!name_ok) {
    return Status::InvalidArgument("sqlite: table name '" + name +
                                   "' is not 1 to 64 letters, digits or '_'");
  }
  if (name.size() >= 7 && EqualNoCase(name.substr(0, 7), "sqlite_")) {
    return Status::InvalidArgument("sqlite: table names starting 'sqlite_' are SQLite's own");
  }
  if (spec.types.empty()) {
    return Status::InvalidArgument("sqlite: table '" + name + "' needs at least 1 field");
  }
  // SQLite's column limit (SQLITE_MAX_COLUMN, 2000 with the id) is a limit of
  // the engine, not a mistake in the spec.
  if (spec.types.size() > kMaxFields) {
    return Status::NotSupported("sqlite: a table holds at most " + std::to_string(kMaxFields) +
                                " fields (SQLITE_MAX_COLUMN); '" + name + "' has " +
                                std::to_string(spec.types.size()));
  }
  const std::vector<std::string>& names = spec.field_names;
  if (names.empty()) return Status::OK();
  if (names.size() != spec.types.size()) {
    return Status::InvalidArgument("sqlite: table '" + name + "' has " +
                                   std::to_string(spec.types.size()) + " fields but " +
                                   std::to_string(names.size()) + " field names");
  }
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i].empty() || EqualNoCase(names[i], "id")) {
      return Status::InvalidArgument("sqlite: field name '" + names[i] +
                                     "' is empty or the id column's");
    }
    for (size_t j = 0; j < i; ++j) {
      if (EqualNoCase(names[i], names[j])) {
        return Status::InvalidArgument("sqlite: field name '" + names[i] + "' repeats");
      }
    }
  }
  return Status::OK();
}

// The stored table's column names, id first; empty when there is no table.
Status StoredColumns(sqlite3* db, const std::string& name, std::vector<std::string>* columns) {
  columns->clear();
  SqliteStatement st;
  KVBENCH_RETURN_IF_ERROR(
      PrepareSqlite(db, "SELECT name FROM pragma_table_info(?1)", "read table columns", &st));
  int rc = sqlite3_bind_text(st.get(), 1, name.c_str(), -1, SQLITE_STATIC);
  if (rc != SQLITE_OK) return SqliteError(db, rc, "read table columns");
  while ((rc = sqlite3_step(st.get())) == SQLITE_ROW) {
    const char* text = reinterpret_cast<const char*>(sqlite3_column_text(st.get(), 0));
    columns->emplace_back(text != nullptr ? text : "");
  }
  if (rc != SQLITE_DONE) return SqliteError(db, rc, "read table columns");
  return Status::OK();
}

}  // namespace

std::string QuotedSqlName(std::string_view identifier) {
  std::string out = "\"";
  for (char c : identifier) {
    out += c;
    if (c == '"') out += '"';
  }
  out += '"';
  return out;
}

bool EqualNoCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

Status EnsureSqliteRecordTable(sqlite3* db, const RecordTableSpec& spec,
                               std::vector<std::string>* column_names) {
  KVBENCH_RETURN_IF_ERROR(CheckSpec(spec));
  const size_t count = spec.types.size();
  std::vector<std::string> stored;
  KVBENCH_RETURN_IF_ERROR(StoredColumns(db, spec.name, &stored));
  std::vector<std::string> columns = spec.field_names;
  if (stored.empty()) {
    for (size_t i = 0; columns.size() < count; ++i) {
      std::string column = "f";
      columns.push_back(column.append(std::to_string(i)));
    }
    std::string sql =
        "CREATE TABLE IF NOT EXISTS " + QuotedSqlName(spec.name) + " (id INTEGER PRIMARY KEY";
    for (size_t i = 0; i < count; ++i)
      sql += ", " + QuotedSqlName(columns[i]) + DeclaredType(spec.types[i]);
    KVBENCH_RETURN_IF_ERROR(ExecSqlite(db, sql + ")", "create record table"));
  } else {
    const std::string existing = "sqlite: table '" + spec.name + "' exists with ";
    if (!EqualNoCase(stored[0], "id")) {
      return Status::InvalidArgument(existing + "no id column first: not a record table");
    }
    if (stored.size() != count + 1) {
      return Status::InvalidArgument(existing + std::to_string(stored.size() - 1) +
                                     " fields; the spec has " + std::to_string(count));
    }
    if (columns.empty()) columns.assign(stored.begin() + 1, stored.end());
    for (size_t i = 0; i < count; ++i) {
      if (!EqualNoCase(columns[i], stored[i + 1])) {
        return Status::InvalidArgument(existing + "field " + std::to_string(i) + " named '" +
                                       stored[i + 1] + "'; the spec names it '" + columns[i] + "'");
      }
    }
  }
  *column_names = std::move(columns);
  return Status::OK();
}

}  // namespace kvbench
