// The SQL shape of a sqlite record table (sqlite_record_table.h): the spec's
// rules, identifier quoting, and creating the table or checking the stored one.
#pragma once

#include <sqlite3.h>

#include <string>
#include <string_view>
#include <vector>

#include "adapters/record.h"
#include "common/status.h"

namespace kvbench {

// "name" with any '"' doubled: safe to splice into SQL as an identifier.
std::string QuotedSqlName(std::string_view identifier);
// ASCII case-insensitive equality (how SQLite compares identifiers).
bool EqualNoCase(std::string_view a, std::string_view b);

// Checks `spec` against record.h's rules, then creates its table when absent
// or checks the stored one (id first, the same field count and, when the spec
// names its fields, the same names). *column_names receives the field columns'
// names (the spec's, the stored ones, or f0, f1, ...). InvalidArgument for a
// bad spec or a contradiction; SQLite's errors otherwise.
Status EnsureSqliteRecordTable(sqlite3* db, const RecordTableSpec& spec,
                               std::vector<std::string>* column_names);

}  // namespace kvbench
