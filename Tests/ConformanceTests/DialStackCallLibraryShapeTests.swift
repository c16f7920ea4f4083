import Conformance
import Foundation
import ReferenceBackend
import TestSupport
import Testing

/// The dialstack engine against a wake-up reference whose pushes carry the call ID under the app's call library's
/// own key (flutter_callkit_incoming's `id`, no `call_id`): a step naming a call (`call:`) and the scenario's
/// ownership of a push tie it by that value, as DIALSTACK-PUSH-1 does.
@Suite(.serialized) struct DialStackCallLibraryShapeTests {
    static let scenarios = """
        scenarios:
          - id: test.push-for-the-call
            title: The push for the event's call is found by its call ID under any key
            requirements: [DIALSTACK-WAKE-1]
            devices:
              b-phone: {user: b, kind: apnsVoip}
              b-pixel: {user: b, kind: fcm}
            steps:
              - webhook: {user: b, save: ev}
              - expectPush: {to: [b-phone, b-pixel], call: $ev.data.call_id, within: 30s, requirement: DIALSTACK-WAKE-1}
          - id: test.no-push-for-the-call
            title: A push for the event's call is seen by a negative wait naming the call
            requirements: [DIALSTACK-WAKE-3]
            devices:
              b-phone: {user: b, kind: apnsVoip}
            steps:
              - webhook: {user: b, save: ev}
              - expectNoPush: {to: b-phone, call: $ev.data.call_id, for: 20s, requirement: DIALSTACK-WAKE-3}
        """

    /// The dialstack suite plus `scenarios`, in a temporary directory.
    static func suiteDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("library-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: DialStackTestStack.suiteDirectory), to: directory)
        try Self.scenarios.write(
            to: directory.appendingPathComponent("zz-test.yaml"), atomically: true, encoding: .utf8)
        return directory
    }

    @Test func aStepNamingTheCallFindsItsPushUnderTheLibrarysKey() async throws {
        let directory = try Self.suiteDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stack = try await DialStackTestStack.start(runs: 4, suiteDirectory: directory.path, callIdKey: "id")
        let results = await stack.run(["test.push-for-the-call", "test.no-push-for-the-call"])
        await stack.stop()
        let failures = Dictionary(
            uniqueKeysWithValues: results.map { ($0.scenario.id, $0.attempts.last?.failures ?? []) })
        #expect(failures["test.push-for-the-call"]?.isEmpty == true, "\(DialStackTestStack.describe(results))")
        let seen = try #require(failures["test.no-push-for-the-call"])
        #expect(seen.map(\.requirement) == ["DIALSTACK-WAKE-3"], "\(DialStackTestStack.describe(results))")
    }

    /// With every registered device pushed (`wrong-user`), each scenario's devices get the others' calls too: those
    /// carry another scenario's call ID under `id` and are that scenario's to judge, so only DIALSTACK-WAKE-2 is
    /// charged (not DIALSTACK-PUSH-1 for "another call's" push judged against this scenario's webhook).
    @Test func anotherScenariosLibraryShapedPushIsThatScenariosToJudge() async throws {
        let results = try await SuiteRunGate.exclusive {
            let stack = try await DialStackTestStack.start(defects: [.wrongUser], callIdKey: "id")
            let results = await stack.run()
            await stack.stop()
            return results
        }
        #expect(
            DialStackTestStack.failedRequirements(results) == ["DIALSTACK-WAKE-2"],
            "\(DialStackTestStack.describe(results))")
    }

    @Test func theConformingReferencePassesEveryScenarioWithTheCallIdUnderTheLibrarysKey() async throws {
        let results = try await SuiteRunGate.exclusive {
            let stack = try await DialStackTestStack.start(callIdKey: "id")
            let results = await stack.run()
            await stack.stop()
            return results
        }
        for r in results {
            #expect(r.attempts.last?.status == .pass, "\(DialStackTestStack.describe([r]))")
        }
    }
}
