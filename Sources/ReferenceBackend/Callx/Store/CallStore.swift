/// The reference backend's durable state: calls, registrations, idempotency records, events and
/// the push outbox, in one SQLite database.
public final class CallStore: Sendable {
    public let database: Database

    /// Opens the database and creates the schema if needed.
    public init(_ location: Database.Location) throws {
        database = try Database(location)
        try database.transaction { db in try Schema.migrate(db) }
    }

    /// Runs `body` in one IMMEDIATE transaction: everything it writes commits together or not at all.
    public func transaction<T: Sendable>(_ body: (StoreTransaction) throws -> T) throws -> T {
        try database.transaction { db in try body(StoreTransaction(db: db)) }
    }
}

/// Typed access to the tables inside one transaction. Lives only as long as the transaction.
public struct StoreTransaction {
    let db: SQLiteConnection
}
