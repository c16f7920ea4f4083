import Synchronization

/// A SQLite database with every access serialized through one lock.
///
/// Calls are short synchronous transactions made under a `Mutex`; callers on the cooperative
/// pool block only for the length of one transaction. File databases use WAL with
/// `synchronous=FULL`, so a committed transaction survives `kill -9` and power loss.
public final class Database: Sendable {
    /// Where the database lives.
    public enum Location: Sendable, Equatable {
        /// A private database that disappears when this object does.
        case inMemory
        /// A file, created if missing.
        case file(String)

        /// The file's path; nil in memory.
        public var path: String? {
            guard case .file(let path) = self else { return nil }
            return path
        }
    }

    public let location: Location
    private let connection: Mutex<SQLiteConnectionBox>

    /// Opens the database and applies the connection settings (WAL for files, busy timeout, foreign keys).
    public init(_ location: Location, busyTimeoutMs: Int32 = 5_000) throws(DatabaseError) {
        self.location = location
        let path: String
        switch location {
        case .inMemory: path = ":memory:"
        case .file(let file): path = file
        }
        let opened = try SQLiteConnection(path: path, busyTimeoutMs: busyTimeoutMs)
        if case .file = location {
            try opened.executeScript("PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;")
        }
        try opened.executeScript("PRAGMA foreign_keys=ON;")
        connection = Mutex(SQLiteConnectionBox(opened))
    }

    /// Runs `body` with exclusive use of the connection, outside any transaction (reads, pragmas).
    public func withConnection<T: Sendable>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try connection.withLock { (box) throws -> T in try body(box.connection) }
    }

    /// Runs `body` inside `BEGIN IMMEDIATE … COMMIT`, rolling back if it throws (the body's error is rethrown).
    ///
    /// IMMEDIATE takes the write lock up front, so two processes sharing a file cannot both read
    /// a state and then both write on it. Its result may be dropped: a body that only writes returns the
    /// rows it changed (`SQLiteConnection.execute`), which a caller need not read.
    @discardableResult
    public func transaction<T: Sendable>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try connection.withLock { (box) throws -> T in
            let db = box.connection
            precondition(!db.inTransaction, "nested Database.transaction")
            try db.executeScript("BEGIN IMMEDIATE")
            db.inTransaction = true
            defer { db.inTransaction = false }
            let result: T
            do {
                result = try body(db)
            } catch {
                try? db.executeScript("ROLLBACK")
                throw error
            }
            do { try db.executeScript("COMMIT") } catch {
                try? db.executeScript("ROLLBACK")
                throw error
            }
            return result
        }
    }
}

/// Carries the connection into the `Mutex`.
///
/// `@unchecked Sendable` is sound because the connection is reachable only through
/// `Database.connection`'s lock: one thread at a time ever touches it.
final class SQLiteConnectionBox: @unchecked Sendable {
    let connection: SQLiteConnection
    init(_ connection: SQLiteConnection) { self.connection = connection }
}
