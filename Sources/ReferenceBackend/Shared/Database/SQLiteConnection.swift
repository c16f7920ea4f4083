import CSQLite

/// The one owner of a `sqlite3*`: opens it, caches prepared statements, and closes it in `deinit`.
///
/// A connection is not thread-safe; `Database` hands it out only under its lock.
public final class SQLiteConnection {
    private let handle: OpaquePointer
    private var statements: [String: SQLiteStatement] = [:]
    /// True while a `Database.transaction` is open on this connection.
    var inTransaction = false

    /// Opens (creating if needed) the database at `path`; `:memory:` opens a private in-memory database.
    init(path: String, busyTimeoutMs: Int32) throws(DatabaseError) {
        var db: OpaquePointer?
        // NOMUTEX: every call is already serialized by the Database lock.
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
            if let db { sqlite3_close_v2(db) }
            throw DatabaseError(code: rc, message: message, operation: "open \(path)")
        }
        handle = db
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, busyTimeoutMs)
    }

    deinit {
        statements.removeAll()  // finalize before closing
        sqlite3_close_v2(handle)
    }

    // MARK: Running SQL

    /// Runs one statement with positional parameters and returns its rows (none for writes).
    @discardableResult
    public func query(_ sql: String, _ values: [SQLiteValue] = []) throws(DatabaseError) -> [SQLiteRow] {
        try statement(sql).run(values)
    }

    /// Runs one statement and returns its first row, if any.
    public func queryFirst(_ sql: String, _ values: [SQLiteValue] = []) throws(DatabaseError) -> SQLiteRow? {
        try query(sql, values).first
    }

    /// Runs one write and returns the number of rows it changed.
    @discardableResult
    public func execute(_ sql: String, _ values: [SQLiteValue] = []) throws(DatabaseError) -> Int {
        _ = try statement(sql).run(values)
        return Int(sqlite3_changes(handle))
    }

    /// Runs a script of several statements without parameters (schema, pragmas).
    public func executeScript(_ sql: String) throws(DatabaseError) {
        var message: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &message)
        guard rc == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(message)
            throw DatabaseError(code: rc, message: text, operation: "exec", sql: sql)
        }
    }

    /// The rowid of the last successful INSERT on this connection.
    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    private func statement(_ sql: String) throws(DatabaseError) -> SQLiteStatement {
        if let cached = statements[sql] { return cached }
        let prepared = try SQLiteStatement(connection: handle, sql: sql)
        statements[sql] = prepared
        return prepared
    }
}
