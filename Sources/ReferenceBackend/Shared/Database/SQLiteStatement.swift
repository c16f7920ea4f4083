import CSQLite

/// One prepared statement; owns its `sqlite3_stmt*` and finalizes it in `deinit`.
///
/// Not thread-safe: it is used only by the `SQLiteConnection` that prepared it, under the
/// `Database` lock.
final class SQLiteStatement {
    private let handle: OpaquePointer
    private let connection: OpaquePointer
    let sql: String

    init(connection: OpaquePointer, sql: String) throws(DatabaseError) {
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v3(connection, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard rc == SQLITE_OK, let statement else {
            throw DatabaseError(
                code: sqlite3_extended_errcode(connection), message: String(cString: sqlite3_errmsg(connection)),
                operation: "prepare", sql: sql)
        }
        self.handle = statement
        self.connection = connection
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    // MARK: Running

    /// Binds the values to parameters 1…n, steps to completion, and returns every row.
    func run(_ values: [SQLiteValue]) throws(DatabaseError) -> [SQLiteRow] {
        defer {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
        }
        try bind(values)
        var rows: [SQLiteRow] = []
        var columns: [String]?
        while true {
            let rc = sqlite3_step(handle)
            if rc == SQLITE_DONE { return rows }
            guard rc == SQLITE_ROW else { throw error("step") }
            let names = columns ?? columnNames()
            columns = names
            rows.append(SQLiteRow(columns: names, values: (0..<Int32(names.count)).map(column)))
        }
    }

    // MARK: Binding and reading

    private func bind(_ values: [SQLiteValue]) throws(DatabaseError) {
        let expected = Int(sqlite3_bind_parameter_count(handle))
        guard expected == values.count else {
            throw DatabaseError(
                code: SQLITE_RANGE, message: "expected \(expected) parameters, got \(values.count)", operation: "bind",
                sql: sql)
        }
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let rc: Int32
            switch value {
            case .null: rc = sqlite3_bind_null(handle, index)
            case .integer(let v): rc = sqlite3_bind_int64(handle, index, v)
            case .real(let v): rc = sqlite3_bind_double(handle, index, v)
            case .text(let v):
                // withCString never passes NULL, which SQLite would bind as NULL rather than "".
                rc = v.withCString { rc_sqlite3_bind_text_transient(handle, index, $0, Int32(v.utf8.count)) }
            case .blob(let v):
                rc = v.withUnsafeBytes {
                    rc_sqlite3_bind_blob_transient(handle, index, $0.baseAddress, Int32($0.count))
                }
            }
            guard rc == SQLITE_OK else { throw error("bind") }
        }
    }

    private func columnNames() -> [String] {
        (0..<sqlite3_column_count(handle)).map { String(cString: sqlite3_column_name(handle, $0)) }
    }

    private func column(_ index: Int32) -> SQLiteValue {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, index))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, index))
        case SQLITE_TEXT:
            guard let text = sqlite3_column_text(handle, index) else { return .text("") }
            let count = Int(sqlite3_column_bytes(handle, index))
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(handle, index))
            guard count > 0, let blob = sqlite3_column_blob(handle, index) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: blob, count: count)))
        default: return .null
        }
    }

    private func error(_ operation: String) -> DatabaseError {
        DatabaseError(
            code: sqlite3_extended_errcode(connection), message: String(cString: sqlite3_errmsg(connection)),
            operation: operation, sql: sql)
    }
}
