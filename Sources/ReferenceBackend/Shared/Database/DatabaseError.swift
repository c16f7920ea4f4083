import CSQLite

/// A failed SQLite operation: the result code, the message SQLite gave (`sqlite3_errmsg`), the
/// operation that failed and, where there was one, the SQL it was running.
public struct DatabaseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The extended SQLite result code (`SQLITE_BUSY`, `SQLITE_CONSTRAINT_UNIQUE`, …).
    public var code: Int32
    /// The message SQLite reported.
    public var message: String
    /// What was being done: `open`, `prepare`, `bind`, `step`, `exec`, `begin`, `commit`, ….
    public var operation: String
    /// The statement being run, if any.
    public var sql: String?

    public init(code: Int32, message: String, operation: String, sql: String? = nil) {
        self.code = code
        self.message = message
        self.operation = operation
        self.sql = sql
    }

    /// True for any `SQLITE_CONSTRAINT` failure (unique key, primary key, check, …).
    public var isConstraintViolation: Bool { code & 0xff == SQLITE_CONSTRAINT }

    public var description: String {
        var text = "SQLite \(operation) failed (code \(code)): \(message)"
        if let sql { text += " [SQL: \(sql)]" }
        return text
    }
}
