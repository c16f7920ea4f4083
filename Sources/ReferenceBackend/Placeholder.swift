import CSQLite
enum ReferenceBackendPlaceholder { static func sqliteVersion() -> Int32 { sqlite3_libversion_number() } }
