// The sqlite adapter's record table: a real table per RecordTableSpec
// (adapters/record.h), on the owning Session's connection.
//
//   CREATE TABLE IF NOT EXISTS "<name>" (id INTEGER PRIMARY KEY, "<f0>" <type>, ...)
//
// Columns are named by the spec's field names (quoted), else f0, f1, ...;
// when the spec gives no names and the table exists, its stored names are
// used. Declared types: INTEGER for int and ref, REAL for double, TEXT for
// string, BLOB for bytes, none for null. SQLite's column affinity applies, so
// a value reads back with the type its column converts it to (an int written
// to a REAL column reads back as a double, a double NaN as NULL); an INTEGER
// reads back as a reference in a column declared ref, else as an int.
//
//   RecordId     the rowid (`id`); references are stored as INTEGER rowids;
//   ScanEqual    SELECT id FROM t NOT INDEXED WHERE c IS ?1 AND typeof(c) =
//                typeof(?1): a full table scan even when an index exists (IS:
//                a NULL probe matches NULLs; typeof: values of different
//                storage classes never match, so the string "3" does not
//                match the int 3 as SQLite's affinity alone would make it);
//                records examined = the scan's row steps, read from
//                sqlite3_stmt_status(SQLITE_STMTSTATUS_FULLSCAN_STEP);
//   CreateIndex  CREATE INDEX "<name>_f<N>" ON t(c);
//   QueryEqual   SELECT id FROM t INDEXED BY "<name>_f<N>" WHERE c = ?1 AND
//                typeof(c) = typeof(?1) (ids in rowid order; NULL matches
//                nothing); InvalidArgument when the field has no such index.
//                Indexed fields are found in sqlite_master at open (so they
//                survive a reopen) and again when another session may have
//                created one.
//   FollowReference  the INTEGER of a column declared ref; InvalidArgument
//                for any other value or column.
// SetMode makes no difference here: an UPDATE always maintains the indexes.
//
// Every statement is prepared once per table object (per-field ones on first
// use) and reset before the call returns. Writes run on the session's
// connection, so inside its batch they are part of its transaction, exactly
// as Put is; outside one each call is its own transaction.
#pragma once

#include <sqlite3.h>

#include <memory>

#include "adapters/record.h"
#include "common/status.h"

namespace kvbench {

// Opens the table spec.name on `db` (the session's connection, which outlives
// the table), creating it when absent. InvalidArgument for a spec that breaks
// record.h's rules (name of letters, digits and '_', at most 64 characters; at
// least one field; one distinct name per field, none of them "id") or that
// contradicts the stored table (another field count, other column names).
Status OpenSqliteRecordTable(sqlite3* db, const RecordTableSpec& spec,
                             std::unique_ptr<RecordTable>* table);

}  // namespace kvbench
