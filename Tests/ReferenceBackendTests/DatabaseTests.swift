import JSON
import TestSupport
import Testing

@testable import ReferenceBackend

@Suite struct DatabaseTests {
    @Test func typedValuesRoundTrip() throws {
        let db = try Database(.inMemory)
        let rows = try db.transaction { c in
            try c.executeScript("CREATE TABLE t (a INTEGER, b TEXT, c BLOB, d REAL, e TEXT)")
            try c.execute(
                "INSERT INTO t VALUES (?, ?, ?, ?, ?)",
                [.integer(-42), .text(""), .blob([0, 1, 255]), .real(1.5), .null])
            try c.execute(
                "INSERT INTO t VALUES (?, ?, ?, ?, ?)", [.integer(Int64.max), "héllo ☎", .blob([]), .real(0), "x"])
            return try c.query("SELECT * FROM t ORDER BY rowid")
        }
        #expect(rows.count == 2)
        #expect(rows[0]["a"] == .integer(-42))
        #expect(rows[0]["b"] == .text(""))  // an empty string stays a string, not NULL
        #expect(rows[0]["c"] == .blob([0, 1, 255]))
        #expect(rows[0]["d"] == .real(1.5))
        #expect(rows[0]["e"] == .null)
        #expect(rows[1].int64("a") == Int64.max)
        #expect(rows[1].string("b") == "héllo ☎")
    }

    @Test func errorsCarrySQLiteMessageAndOperation() throws {
        let db = try Database(.inMemory)
        #expect {
            try db.withConnection { c in try c.query("SELEC nonsense") }
        } throws: { error in
            guard let error = error as? DatabaseError else { return false }
            return error.operation == "prepare" && error.message.contains("syntax error")
                && error.sql == "SELEC nonsense"
        }
        try db.withConnection { c in try c.executeScript("CREATE TABLE u (k TEXT PRIMARY KEY)") }
        try db.transaction { c in try c.execute("INSERT INTO u VALUES ('a')") }
        #expect {
            try db.transaction { c in try c.execute("INSERT INTO u VALUES ('a')") }
        } throws: { error in
            guard let error = error as? DatabaseError else { return false }
            return error.isConstraintViolation && error.operation == "step" && error.message.contains("UNIQUE")
        }
    }

    @Test func failedTransactionRollsBack() throws {
        struct Boom: Error {}
        let db = try Database(.inMemory)
        try db.withConnection { c in try c.executeScript("CREATE TABLE t (v INTEGER)") }
        #expect(throws: Boom.self) {
            try db.transaction { c in
                try c.execute("INSERT INTO t VALUES (1)")
                throw Boom()
            }
        }
        let count = try db.withConnection { c in try c.queryFirst("SELECT count(*) FROM t")?[0].int64 }
        #expect(count == 0)
    }

    @Test func fileDatabaseUsesWAL() throws {
        let dir = TemporaryDirectory()
        let db = try Database(.file(dir.path + "/wal.sqlite"))
        let mode = try db.withConnection { c in try c.queryFirst("PRAGMA journal_mode")?[0].string }
        #expect(mode == "wal")
    }

    @Test func reopenedFileDatabaseLosesNothing() async throws {
        let dir = TemporaryDirectory()
        let path = dir.path + "/backend.sqlite"
        let clock = TestClock()
        let callId = "85a4fd88-b5c3-4f79-a2cf-a7db9df06750"
        do {
            let backend = try BackendHarness(location: .file(path), clock: clock)
            await backend.register("user-b", installation: "b-phone")
            await backend.register("user-b", installation: "b-tablet", kind: .fcm)
            #expect(await backend.create(callId).status == 200)
            #expect(await backend.answer(callId, installation: "b-phone").status == 200)
        }
        // Everything above went out of scope: the connection is closed. Open the file again.
        let reopened = try BackendHarness(location: .file(path), clock: clock)
        let snapshot = await reopened.get(callId, as: "user-a")
        #expect(snapshot.status == 200)
        #expect(snapshot["state"] == "accepted")
        #expect(snapshot["revision"] == "2")
        #expect(try reopened.registrations("user-b").count == 2)
        let events = await reopened.allEvents("user-a", installation: "a-phone")
        #expect(events.map { $0["type"] } == ["call.accepted"])
        let jobs = try reopened.jobs(callId)
        #expect(jobs.filter { $0.purpose == .invitation }.count == 2)
        #expect(jobs.contains { $0.purpose == .stopSignal && $0.installationId == "b-tablet" && $0.status == .pending })
        // Idempotency records survive too: the retried answer replays.
        #expect(await reopened.answer(callId, installation: "b-phone").status == 200)
        #expect(await reopened.create(callId).status == 200)
    }
}

@Suite struct CrashRecoveryTests {
    /// Copies the database and its WAL while the backend still has them open, as a `kill -9`
    /// would leave them (no checkpoint, no clean close), and starts a second backend on the copy.
    @Test func committedWorkSurvivesAnUncleanStop() async throws {
        let dir = TemporaryDirectory()
        let path = dir.file("live.sqlite")
        let clock = TestClock()
        let backend = try BackendHarness(location: .file(path), clock: clock)
        await backend.register("user-b", installation: "b-phone")
        let ringing = RandomIdentifier.uuid()
        await backend.create(ringing)
        let cancelled = RandomIdentifier.uuid()
        await backend.create(cancelled)
        await backend.end(cancelled, as: "user-a", reason: "callerCancelled")

        let copy = dir.file("crashed.sqlite")
        for suffix in ["", "-wal"] {
            let result = try await runProcess("cp", [path + suffix, copy + suffix])
            #expect(result.status == 0)
        }
        let restarted = try BackendHarness(location: .file(copy), clock: clock)
        #expect(await restarted.get(cancelled, as: "user-b")["endReason"] == "callerCancelled")
        #expect(try restarted.jobs(ringing).map(\.status) == [.pending])  // the pending push is still there
        // Expiry still happens after the restart.
        clock.advance(ms: 30_000)
        #expect(try restarted.service.expireDueCalls() == 1)
        #expect(await restarted.get(ringing, as: "user-a")["endReason"] == "unanswered")
    }
}
