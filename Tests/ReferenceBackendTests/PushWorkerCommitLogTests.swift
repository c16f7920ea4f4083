import Foundation
import TestSupport
import Testing

@testable import ReferenceBackend

/// The push log states what the outbox committed, never what it hopes to commit: a push the
/// provider accepted is logged as delivered only once its row is marked sent; when that commit
/// fails the line says so and the push goes out again (the outbox delivers at least once).
@Suite struct PushWorkerCommitLogTests {
    let settings = PushMessageSettings(fcmProjectID: "demo-project")

    func log(_ path: String) -> String {
        String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
    }

    @Test func aDeliveredPushIsLoggedOnceItsRowIsCommitted() async throws {
        let dir = TemporaryDirectory()
        let backend = try BackendHarness()
        await backend.register("user-b", installation: "b-device", kind: .apnsVoip, token: "token-1")
        let call = RandomIdentifier.uuid()
        await backend.create(call)
        let worker = PushWorker(
            service: backend.service, transport: FakeTransport(), settings: settings,
            log: try BackendLog(path: dir.file("backend.log")))
        await worker.runOnce()
        #expect(try backend.jobs(call).map(\.status) == [.sent])
        #expect(log(dir.file("backend.log")).contains("→ 200 delivered, committed as sent"))
    }

    @Test func aCommitThatFailsIsNotLoggedAsDeliveredAndThePushGoesOutAgain() async throws {
        let dir = TemporaryDirectory()
        let backend = try BackendHarness()
        await backend.register("user-b", installation: "b-device", kind: .apnsVoip, token: "token-1")
        let call = RandomIdentifier.uuid()
        await backend.create(call)
        // The crash between the provider's acceptance and the outbox commit, as the database sees it.
        try backend.store.database.withConnection { db in
            _ = try db.execute(
                """
                CREATE TRIGGER crash_before_commit BEFORE UPDATE OF status ON push_jobs WHEN NEW.status = 'sent'
                BEGIN SELECT RAISE(ABORT, 'simulated crash before the outbox commit'); END
                """)
        }
        let transport = FakeTransport()
        let worker = PushWorker(
            service: backend.service, transport: transport, settings: settings,
            policy: PushRetryPolicy(leaseMs: 1_000), log: try BackendLog(path: dir.file("backend.log")))
        await worker.runOnce()
        var text = log(dir.file("backend.log"))
        #expect(try backend.jobs(call).map(\.status) == [.sending])
        #expect(!text.contains("committed as sent"), "\(text)")
        #expect(!text.contains("accepted"), "\(text)")
        #expect(text.contains("NOT committed") && text.contains("may be sent again"), "\(text)")

        try backend.store.database.withConnection { db in _ = try db.execute("DROP TRIGGER crash_before_commit") }
        backend.clock.advance(ms: 1_001)  // the lease of the lost attempt runs out
        await worker.runOnce()
        text = log(dir.file("backend.log"))
        #expect(transport.sent.count == 2)
        #expect(Set(transport.sent.compactMap { $0.callx?["eventId"] }).count == 1)
        #expect(try backend.jobs(call).map(\.status) == [.sent])
        #expect(text.contains("attempt 2 → 200 delivered, committed as sent"), "\(text)")
    }
}
