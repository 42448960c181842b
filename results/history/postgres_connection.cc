#include <fmt/format.h>
#include <libpq-fe.h>

#include <cstdlib>

#include "results/history/sql_connection.h"

namespace kvbench::results {

namespace {

// Type OIDs of the results kvbench reads (pg_type.dat).
constexpr Oid kBoolOid = 16, kInt8Oid = 20, kInt2Oid = 21, kInt4Oid = 23, kFloat4Oid = 700,
              kFloat8Oid = 701, kNumericOid = 1700;

// Any PostgreSQL key for kvbench's schema lock (pg_advisory_xact_lock).
constexpr const char* kSchemaLockKey = "7428019";

// The first line of a libpq message, without its trailing newline.
std::string FirstLine(const char* message) {
  std::string s = message != nullptr ? message : "";
  const size_t nl = s.find('\n');
  return nl == std::string::npos ? s : s.substr(0, nl);
}

class PostgresConnection final : public SqlConnection {
 public:
  PostgresConnection(PGconn* conn, std::string display)
      : conn_(conn), display_(std::move(display)) {}
  ~PostgresConnection() override { PQfinish(conn_); }

  Status Execute(const std::string& sql) override { return Query(sql, {}, nullptr); }

  Status Query(const std::string& sql, const std::vector<SqlValue>& params,
               std::vector<SqlRow>* rows) override {
    std::vector<std::string> text(params.size());
    std::vector<const char*> values(params.size(), nullptr);
    for (size_t i = 0; i < params.size(); ++i) {
      const SqlValue& v = params[i];
      if (std::holds_alternative<std::monostate>(v)) continue;
      if (std::holds_alternative<int64_t>(v)) {
        text[i] = std::to_string(std::get<int64_t>(v));
      } else if (std::holds_alternative<double>(v)) {
        text[i] = fmt::format("{}", std::get<double>(v));  // shortest text that reads back exactly
      } else {
        text[i] = std::get<std::string>(v);
      }
      values[i] = text[i].c_str();
    }
    PGresult* result = params.empty()
                           ? PQexec(conn_, sql.c_str())
                           : PQexecParams(conn_, sql.c_str(), static_cast<int>(params.size()),
                                          nullptr, values.data(), nullptr, nullptr, 0);
    const ExecStatusType status = PQresultStatus(result);
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
      const std::string message =
          FirstLine(result != nullptr ? PQresultErrorMessage(result) : PQerrorMessage(conn_));
      PQclear(result);
      if (PQstatus(conn_) != CONNECTION_OK) {
        return Status::IOError("store " + display_ + ": connection lost: " + message);
      }
      return Status::IOError("store " + display_ + ": " + message);
    }
    if (rows != nullptr) {
      rows->clear();
      const int n = PQntuples(result), columns = PQnfields(result);
      for (int r = 0; r < n; ++r) {
        SqlRow row(static_cast<size_t>(columns));
        for (int c = 0; c < columns; ++c) {
          if (PQgetisnull(result, r, c)) continue;
          const char* cell = PQgetvalue(result, r, c);
          switch (PQftype(result, c)) {
            case kBoolOid:
              row[c] = static_cast<int64_t>(cell[0] == 't');
              break;
            case kInt2Oid:
            case kInt4Oid:
            case kInt8Oid:
              row[c] = static_cast<int64_t>(std::strtoll(cell, nullptr, 10));
              break;
            case kFloat4Oid:
            case kFloat8Oid:
            case kNumericOid:
              row[c] = std::strtod(cell, nullptr);
              break;
            default:
              row[c] = std::string(cell, static_cast<size_t>(PQgetlength(result, r, c)));
          }
        }
        rows->push_back(std::move(row));
      }
    }
    PQclear(result);
    return Status::OK();
  }

  Status BeginWrite() override { return Execute("BEGIN"); }
  Status LockSchema() override {
    return Execute(std::string("SELECT pg_advisory_xact_lock(") + kSchemaLockKey + ")");
  }
  Status Commit() override { return Execute("COMMIT"); }
  void Rollback() override {
    if (PQtransactionStatus(conn_) != PQTRANS_IDLE) PQclear(PQexec(conn_, "ROLLBACK"));
  }

  Status HasTable(const std::string& name, bool* exists) override {
    // A scan of pg_class under the statement's snapshot, not to_regclass():
    // name lookups go through the backend's catalog cache, which can still
    // hold "no such table" from before another process's schema commit when
    // only an advisory lock was taken since.
    std::vector<SqlRow> rows;
    KVBENCH_RETURN_IF_ERROR(
        Query("SELECT 1 FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = "
              "c.relnamespace WHERE c.relname = $1 AND n.nspname = current_schema()",
              {name}, &rows));
    *exists = !rows.empty();
    return Status::OK();
  }

  size_t max_parameters() const override { return 65535; }

 private:
  PGconn* conn_;
  std::string display_;
};

}  // namespace

Status OpenPostgresConnection(const std::string& url, const std::string& display,
                              std::unique_ptr<SqlConnection>* out) {
  char* parse_error = nullptr;
  PQconninfoOption* options = PQconninfoParse(url.c_str(), &parse_error);
  if (options == nullptr) {
    const std::string message =
        parse_error != nullptr ? FirstLine(parse_error) : std::string("out of memory");
    PQfreemem(parse_error);
    return Status::InvalidArgument("store " + display + ": malformed PostgreSQL URL: " + message);
  }
  PQconninfoFree(options);
  // connect_timeout first: a value in the URL (expanded from dbname) wins.
  const char* keywords[] = {"connect_timeout", "dbname", nullptr};
  const char* values[] = {"10", url.c_str(), nullptr};
  PGconn* conn = PQconnectdbParams(keywords, values, /*expand_dbname=*/1);
  if (conn == nullptr || PQstatus(conn) != CONNECTION_OK) {
    const std::string message = FirstLine(conn != nullptr ? PQerrorMessage(conn) : "out of memory");
    PQfinish(conn);
    return Status::IOError("store " + display + ": cannot connect to PostgreSQL: " + message);
  }
  // Notices ("relation already exists, skipping") are not for the user.
  PQsetNoticeProcessor(
      conn, [](void*, const char*) {}, nullptr);
  auto connection = std::make_unique<PostgresConnection>(conn, display);
  KVBENCH_RETURN_IF_ERROR(connection->Execute("SET client_min_messages = warning"));
  *out = std::move(connection);
  return Status::OK();
}

}  // namespace kvbench::results
