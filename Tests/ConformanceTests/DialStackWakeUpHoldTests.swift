import Conformance
import Foundation
import PushMocks
import ReferenceBackend
import Reports
import TestSupport
import Testing

/// A backend that follows the seed's "Enabling Wake-Up Hold" calls DialStack's `users.update` when a user
/// registers a device token, and fails the registration when DialStack does not answer: ringcheck must give
/// it DialStack's API (a mock) so it is judged rather than inconclusive.
@Suite(.serialized) struct DialStackWakeUpHoldTests {
    @Test func aBackendEnablingWakeUpHoldOnRegistrationIsJudged() async throws {
        let (results, calls) = try await SuiteRunGate.exclusive {
            let stack = try await DialStackTestStack.start(wakeUpHold: true)
            let results = await stack.run(["wake.every-device", "payload.fcm-data"])
            let calls = stack.mocks.providers.log.captures(where: { $0.mock == .dialstack })
                .compactMap(DialStackUserUpdate.init)
            await stack.stop()
            return (results, calls)
        }
        #expect(results.count == 2)
        for r in results {
            #expect(r.attempts.last?.status == .pass, "\(DialStackTestStack.describe([r]))")
            // The calls for the scenario's users are on its timeline.
            let notes = r.attempts.last?.timeline.filter { $0.kind == .note }.map(\.summary) ?? []
            #expect(
                notes.contains {
                    $0.hasPrefix("DialStack API users.update user ") && $0.hasSuffix("mobile_push_wakeup true → 200")
                },
                "\(r.scenario.id): \(notes)")
        }
        // One users.update per registration, each turning the flag on.
        #expect(!calls.isEmpty && calls.allSatisfy { $0.isUpdate && $0.mobilePushWakeup == true })
    }
}
