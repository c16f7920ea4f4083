import Foundation
import JSON
import ReferenceBackend
import Reports
import Testing

@testable import AllProfiles
@testable import Conformance

/// The Callx profile's clean-up hook (`Profile.cleanUp`): after a run on a target's fixed accounts, the calls it
/// left ringing are ended, so the next scenario on the same accounts starts clean.
@Suite struct CallxCleanUpTests {
    @Test func theCallsARunLeftRingingAreEndedAfterIt() async throws {
        let file = try TargetFile.load(path: TargetFileBackendTests.examples + "/reference.yaml")
        // `idempotency.create-retry` creates a call and never ends it; the backend rings for 60 s.
        var checked = 0
        let results = try await TargetFileStack.run(
            file, shape: .reference, slots: 1, only: ["idempotency.create-retry"]
        ) { server, results in
            let answered = results.flatMap(\.attempts).flatMap(\.timeline).compactMap { item -> String? in
                guard item.kind == .response, let detail = item.detail else { return nil }
                return (try? JSONValue.parse(Array(detail.utf8)))?["callId"]?.stringValue
            }
            for id in Set(answered) {
                let stored = try server.service.store.transaction { tx in try tx.call(id) }
                #expect(stored?.state == .ended, "call \(id) is \(stored.map { "\($0.state)" } ?? "unknown")")
                #expect(stored?.endReason == .callerCancelled)
                checked += 1
            }
        }
        #expect(results.first?.attempts.first?.status == .pass)
        #expect(checked == 1)
    }
}
