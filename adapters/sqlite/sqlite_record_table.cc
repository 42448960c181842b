#include "adapters/sqlite/sqlite_record_table.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>
#include <vector>

#include "adapters/sqlite/sqlite_connection.h"
#include "adapters/sqlite/sqlite_record_schema.h"

namespace kvbench {
namespace {

// SQLITE_STATIC: every call steps and resets its statement before returning,
// so the caller's bytes outlive their use.
int BindField(sqlite3_stmt* st, int index, const FieldValue& v) {
  switch (v.type) {
    case FieldType::kNull:
      return sqlite3_bind_null(st, index);
    case FieldType::kInt64:
      return sqlite3_bind_int64(st, index, v.int_value);
    case FieldType::kDouble:
      return sqlite3_bind_double(st, index, v.double_value);
    case FieldType::kString:
      return sqlite3_bind_text64(st, index, SqliteBindData(v.bytes), v.bytes.size(), SQLITE_STATIC,
                                 SQLITE_UTF8);
    case FieldType::kBytes:
      return sqlite3_bind_blob64(st, index, SqliteBindData(v.bytes), v.bytes.size(), SQLITE_STATIC);
    case FieldType::kReference:
      return sqlite3_bind_int64(st, index, static_cast<sqlite3_int64>(v.reference));
  }
  return SQLITE_MISUSE;
}

void ReadColumn(sqlite3_stmt* st, int column, FieldType declared, FieldValue* out) {
  switch (sqlite3_column_type(st, column)) {
    case SQLITE_INTEGER: {
      const sqlite3_int64 v = sqlite3_column_int64(st, column);
      if (declared == FieldType::kReference) {
        out->type = FieldType::kReference;
        out->reference = static_cast<RecordId>(v);
      } else {
        out->type = FieldType::kInt64;
        out->int_value = v;
      }
      return;
    }
    case SQLITE_FLOAT:
      out->type = FieldType::kDouble;
      out->double_value = sqlite3_column_double(st, column);
      return;
    case SQLITE_TEXT: {
      out->type = FieldType::kString;
      const unsigned char* text = sqlite3_column_text(st, column);
      out->bytes.assign(reinterpret_cast<const char*>(text),
                        static_cast<size_t>(sqlite3_column_bytes(st, column)));
      return;
    }
    case SQLITE_BLOB:
      out->type = FieldType::kBytes;
      out->bytes.assign(SqliteColumnBlob(st, column));
      return;
    default:
      out->type = FieldType::kNull;
      return;
  }
}

class SqliteRecordTable final : public RecordTable {
 public:
  SqliteRecordTable(sqlite3* db, std::string name, std::vector<std::string> columns,
                    std::vector<FieldType> types)
      : db_(db),
        name_(std::move(name)),
        table_(QuotedSqlName(name_)),
        columns_(std::move(columns)),
        types_(std::move(types)),
        indexed_(types_.size(), false),
        get_field_(types_.size()),
        update_(types_.size()),
        scan_(types_.size()),
        query_(types_.size()) {}

  // The whole-record statements and the indexed fields.
  Status Prepare() {
    std::string names, params;
    for (size_t i = 0; i < columns_.size(); ++i) {
      names += (i ? ", " : "") + QuotedSqlName(columns_[i]);
      params += (i ? ", ?" : "?") + std::to_string(i + 1);
    }
    KVBENCH_RETURN_IF_ERROR(
        PrepareSqlite(db_, "INSERT INTO " + table_ + "(" + names + ") VALUES(" + params + ")",
                      "prepare record insert", &insert_));
    KVBENCH_RETURN_IF_ERROR(PrepareSqlite(db_, "INSERT INTO " + table_ + " DEFAULT VALUES",
                                          "prepare record create", &create_));
    KVBENCH_RETURN_IF_ERROR(PrepareSqlite(db_,
                                          "SELECT " + names + " FROM " + table_ + " WHERE id = ?1",
                                          "prepare record select", &select_));
    KVBENCH_RETURN_IF_ERROR(PrepareSqlite(db_, "DELETE FROM " + table_ + " WHERE id = ?1",
                                          "prepare record delete", &delete_));
    return LoadIndexes();
  }

  Status CreateRecord(RecordId* id) override {
    KVBENCH_RETURN_IF_ERROR(StepSqliteDone(db_, create_.get(), "create record"));
    *id = static_cast<RecordId>(sqlite3_last_insert_rowid(db_));
    return Status::OK();
  }

  Status InsertRecord(const std::vector<FieldValue>& fields, RecordId* id) override {
    if (fields.size() != types_.size()) {
      return Status::InvalidArgument("sqlite: insert of " + std::to_string(fields.size()) +
                                     " fields into a table of " + std::to_string(types_.size()));
    }
    sqlite3_stmt* st = insert_.get();
    for (size_t i = 0; i < fields.size(); ++i) {
      const int rc = BindField(st, static_cast<int>(i + 1), fields[i]);
      if (rc != SQLITE_OK) return SqliteError(db_, rc, "insert record");
    }
    KVBENCH_RETURN_IF_ERROR(StepSqliteDone(db_, st, "insert record"));
    *id = static_cast<RecordId>(sqlite3_last_insert_rowid(db_));
    return Status::OK();
  }

  Status SetField(RecordId id, uint32_t field, const FieldValue& value, SetMode) override {
    sqlite3_stmt* st = nullptr;
    KVBENCH_RETURN_IF_ERROR(FieldStatement(kUpdate, field, &st));
    int rc = BindField(st, 1, value);
    if (rc == SQLITE_OK) rc = BindId(st, 2, id);
    if (rc != SQLITE_OK) return SqliteError(db_, rc, "set field");
    KVBENCH_RETURN_IF_ERROR(StepSqliteDone(db_, st, "set field"));
    return sqlite3_changes(db_) == 0 ? NoRecord(id) : Status::OK();
  }

  Status GetField(RecordId id, uint32_t field, FieldValue* value) override {
    sqlite3_stmt* st = nullptr;
    KVBENCH_RETURN_IF_ERROR(FieldStatement(kGetField, field, &st));
    SqliteResetOnExit reset(st);
    int rc = BindId(st, 1, id);
    if (rc == SQLITE_OK) rc = sqlite3_step(st);
    if (rc == SQLITE_DONE) return NoRecord(id);
    if (rc != SQLITE_ROW) return SqliteError(db_, rc, "get field");
    ReadColumn(st, 0, types_[field], value);
    return Status::OK();
  }

  Status GetRecord(RecordId id, std::vector<FieldValue>* fields) override {
    sqlite3_stmt* st = select_.get();
    SqliteResetOnExit reset(st);
    int rc = BindId(st, 1, id);
    if (rc == SQLITE_OK) rc = sqlite3_step(st);
    if (rc == SQLITE_DONE) return NoRecord(id);
    if (rc != SQLITE_ROW) return SqliteError(db_, rc, "get record");
    fields->resize(types_.size());
    for (size_t i = 0; i < types_.size(); ++i) {
      ReadColumn(st, static_cast<int>(i), types_[i], &(*fields)[i]);
    }
    return Status::OK();
  }

  Status DeleteRecord(RecordId id) override {
    sqlite3_stmt* st = delete_.get();
    const int rc = BindId(st, 1, id);
    if (rc != SQLITE_OK) return SqliteError(db_, rc, "delete record");
    KVBENCH_RETURN_IF_ERROR(StepSqliteDone(db_, st, "delete record"));
    return sqlite3_changes(db_) == 0 ? NoRecord(id) : Status::OK();
  }

  Status ScanEqual(uint32_t field, const FieldValue& value, size_t limit,
                   std::vector<RecordId>* matches, uint64_t* examined) override {
    sqlite3_stmt* st = nullptr;
    KVBENCH_RETURN_IF_ERROR(FieldStatement(kScan, field, &st));
    sqlite3_stmt_status(st, SQLITE_STMTSTATUS_FULLSCAN_STEP, /*resetFlg=*/1);
    KVBENCH_RETURN_IF_ERROR(CollectIds(st, value, limit, matches, "scan equal"));
    if (examined != nullptr) {
      // The counter counts the scan's moves to a next row: the rows looked at
      // are one more, or none in an empty table (steps 0: zero or one row).
      const int steps = sqlite3_stmt_status(st, SQLITE_STMTSTATUS_FULLSCAN_STEP, 1);
      bool any_row = steps > 0 || !matches->empty();
      if (!any_row) KVBENCH_RETURN_IF_ERROR(HasRows(&any_row));
      *examined = any_row ? static_cast<uint64_t>(steps) + 1 : 0;
    }
    return Status::OK();
  }

  Status CreateIndex(uint32_t field) override {
    KVBENCH_RETURN_IF_ERROR(CheckField(field));
    if (!indexed_[field]) KVBENCH_RETURN_IF_ERROR(LoadIndexes());
    if (indexed_[field]) {
      return Status::InvalidArgument("sqlite: field " + std::to_string(field) + " of '" + name_ +
                                     "' has an index already");
    }
    KVBENCH_RETURN_IF_ERROR(ExecSqlite(db_,
                                       "CREATE INDEX " + IndexName(field) + " ON " + table_ + "(" +
                                           QuotedSqlName(columns_[field]) + ")",
                                       "create index"));
    indexed_[field] = true;
    return Status::OK();
  }

  Status QueryEqual(uint32_t field, const FieldValue& value, size_t limit,
                    std::vector<RecordId>* matches) override {
    KVBENCH_RETURN_IF_ERROR(CheckField(field));
    if (!indexed_[field]) {
      KVBENCH_RETURN_IF_ERROR(LoadIndexes());  // another session may have made it
      if (!indexed_[field]) return NoIndex(field);
    }
    sqlite3_stmt* st = nullptr;
    Status s = FieldStatement(kQuery, field, &st);
    if (s.ok()) s = CollectIds(st, value, limit, matches, "query equal");
    if (!s.ok()) {
      // The index may be gone (a rolled-back batch made it): say so plainly.
      if (LoadIndexes().ok() && !indexed_[field]) return NoIndex(field);
    }
    return s;
  }

  Status FollowReference(RecordId id, uint32_t field, RecordId* target) override {
    sqlite3_stmt* st = nullptr;
    KVBENCH_RETURN_IF_ERROR(FieldStatement(kGetField, field, &st));
    SqliteResetOnExit reset(st);
    int rc = BindId(st, 1, id);
    if (rc == SQLITE_OK) rc = sqlite3_step(st);
    if (rc == SQLITE_DONE) return NoRecord(id);
    if (rc != SQLITE_ROW) return SqliteError(db_, rc, "follow reference");
    const int type = sqlite3_column_type(st, 0);
    // As ReadColumn: an INTEGER is a reference only in a column declared ref.
    if (type == SQLITE_INTEGER && types_[field] == FieldType::kReference) {
      *target = static_cast<RecordId>(sqlite3_column_int64(st, 0));
      return Status::OK();
    }
    if (type == SQLITE_NULL) return Status::NotFound("sqlite: reference field is NULL");
    return Status::InvalidArgument("sqlite: field " + std::to_string(field) + " of '" + name_ +
                                   "' holds no reference");
  }

 private:
  enum FieldStatementKind { kGetField, kUpdate, kScan, kQuery };

  static int BindId(sqlite3_stmt* st, int index, RecordId id) {
    return sqlite3_bind_int64(st, index, static_cast<sqlite3_int64>(id));
  }

  Status HasRows(bool* any) {
    if (has_rows_ == nullptr) {
      KVBENCH_RETURN_IF_ERROR(PrepareSqlite(db_, "SELECT 1 FROM " + table_ + " LIMIT 1",
                                            "prepare has rows", &has_rows_));
    }
    SqliteResetOnExit reset(has_rows_.get());
    const int rc = sqlite3_step(has_rows_.get());
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) return SqliteError(db_, rc, "scan equal");
    *any = rc == SQLITE_ROW;
    return Status::OK();
  }

  Status CheckField(uint32_t field) const {
    if (field < types_.size()) return Status::OK();
    return Status::InvalidArgument("sqlite: field " + std::to_string(field) +
                                   " out of range for a table of " + std::to_string(types_.size()) +
                                   " fields");
  }
  Status NoRecord(RecordId id) const {
    return Status::NotFound("sqlite: no record " + std::to_string(id) + " in '" + name_ + "'");
  }
  Status NoIndex(uint32_t field) const {
    return Status::InvalidArgument("sqlite: field " + std::to_string(field) + " of '" + name_ +
                                   "' has no index");
  }
  std::string IndexName(uint32_t field) const {
    return QuotedSqlName(name_ + "_f" + std::to_string(field));
  }

  // The per-field statement of `kind`, prepared on first use.
  Status FieldStatement(FieldStatementKind kind, uint32_t field, sqlite3_stmt** st) {
    KVBENCH_RETURN_IF_ERROR(CheckField(field));
    std::vector<SqliteStatement>& cache = kind == kGetField ? get_field_
                                          : kind == kUpdate ? update_
                                          : kind == kScan   ? scan_
                                                            : query_;
    if (cache[field] == nullptr) {
      const std::string column = QuotedSqlName(columns_[field]);
      std::string sql;
      switch (kind) {
        case kGetField:
          sql = "SELECT " + column + " FROM " + table_ + " WHERE id = ?1";
          break;
        case kUpdate:
          sql = "UPDATE " + table_ + " SET " + column + " = ?1 WHERE id = ?2";
          break;
        case kScan:
          sql = "SELECT id FROM " + table_ + " NOT INDEXED WHERE " + column + " IS ?1 AND typeof(" +
                column + ") = typeof(?1) LIMIT ?2";
          break;
        case kQuery:
          sql = "SELECT id FROM " + table_ + " INDEXED BY " + IndexName(field) + " WHERE " +
                column + " = ?1 AND typeof(" + column + ") = typeof(?1) LIMIT ?2";
          break;
      }
      KVBENCH_RETURN_IF_ERROR(PrepareSqlite(db_, sql, "prepare record statement", &cache[field]));
    }
    *st = cache[field].get();
    return Status::OK();
  }

  // Steps a scan or query statement (?1 the value, ?2 the limit) into *ids.
  Status CollectIds(sqlite3_stmt* st, const FieldValue& value, size_t limit,
                    std::vector<RecordId>* ids, std::string_view operation) {
    ids->clear();
    SqliteResetOnExit reset(st);
    int rc = BindField(st, 1, value);
    if (rc == SQLITE_OK) {
      rc = sqlite3_bind_int64(st, 2, limit == 0 ? -1 : static_cast<sqlite3_int64>(limit));
    }
    if (rc != SQLITE_OK) return SqliteError(db_, rc, operation);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
      ids->push_back(static_cast<RecordId>(sqlite3_column_int64(st, 0)));
    }
    if (rc != SQLITE_DONE) return SqliteError(db_, rc, operation);
    return Status::OK();
  }

  // Marks the fields that have an index named "<name>_f<N>" in sqlite_master.
  Status LoadIndexes() {
    SqliteStatement st;
    KVBENCH_RETURN_IF_ERROR(PrepareSqlite(
        db_, "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ?1 COLLATE NOCASE",
        "list indexes", &st));
    int rc = sqlite3_bind_text(st.get(), 1, name_.c_str(), -1, SQLITE_STATIC);
    if (rc != SQLITE_OK) return SqliteError(db_, rc, "list indexes");
    std::fill(indexed_.begin(), indexed_.end(), false);
    const std::string prefix = name_ + "_f";
    while ((rc = sqlite3_step(st.get())) == SQLITE_ROW) {
      const char* text = reinterpret_cast<const char*>(sqlite3_column_text(st.get(), 0));
      const std::string_view index = text != nullptr ? text : "";
      if (index.size() <= prefix.size() || !EqualNoCase(index.substr(0, prefix.size()), prefix)) {
        continue;
      }
      const std::string_view digits = index.substr(prefix.size());
      if (digits.size() > 9 ||
          !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        continue;
      }
      const size_t field = std::stoul(std::string(digits));
      if (field < indexed_.size()) indexed_[field] = true;
    }
    if (rc != SQLITE_DONE) return SqliteError(db_, rc, "list indexes");
    return Status::OK();
  }

  sqlite3* db_;
  const std::string name_;
  const std::string table_;  // quoted
  const std::vector<std::string> columns_;
  const std::vector<FieldType> types_;
  std::vector<bool> indexed_;
  SqliteStatement insert_, create_, select_, delete_;
  SqliteStatement has_rows_;                                        // prepared on first use
  std::vector<SqliteStatement> get_field_, update_, scan_, query_;  // by field
};

}  // namespace

Status OpenSqliteRecordTable(sqlite3* db, const RecordTableSpec& spec,
                             std::unique_ptr<RecordTable>* table) {
  std::vector<std::string> columns;
  KVBENCH_RETURN_IF_ERROR(EnsureSqliteRecordTable(db, spec, &columns));
  auto opened = std::make_unique<SqliteRecordTable>(db, spec.name, std::move(columns), spec.types);
  KVBENCH_RETURN_IF_ERROR(opened->Prepare());
  *table = std::move(opened);
  return Status::OK();
}

}  // namespace kvbench
