import Conformance
import Foundation
import TestSupport
import Testing

/// `expectWakeUps` against the wake-up reference with FCM refusing pushes: a backend that accepted every webhook but
/// pushed for none broke DIALSTACK-WAKE-1, one that pushed for some formats only DIALSTACK-SIG-1.
@Suite struct DialStackWakeUpsStepTests {
    static let scenarios = """
        scenarios:
          - id: test.wake-ups-none
            title: FCM refuses every push
            requirements: [DIALSTACK-SIG-1, DIALSTACK-WAKE-1]
            devices:
              b-pixel: {user: b, kind: fcm}
            steps:
              - fault: {device: b-pixel, respond: {status: 400, errorCode: INVALID_ARGUMENT}}
              - webhook: {user: b, format: compact, expect: {requirement: DIALSTACK-SIG-1}}
              - webhook: {user: b, format: spaced, expect: {requirement: DIALSTACK-SIG-1}}
              - expectWakeUps: {to: b-pixel, within: 3s, requirement: DIALSTACK-WAKE-1}
          - id: test.wake-ups-some
            title: FCM refuses the first push only
            requirements: [DIALSTACK-SIG-1, DIALSTACK-WAKE-1]
            devices:
              b-pixel: {user: b, kind: fcm}
            steps:
              - fault: {device: b-pixel, times: 1, respond: {status: 400, errorCode: INVALID_ARGUMENT}}
              - webhook: {user: b, format: compact, expect: {requirement: DIALSTACK-SIG-1}}
              - webhook: {user: b, format: escaped, expect: {requirement: DIALSTACK-SIG-1}}
              - expectWakeUps: {to: b-pixel, within: 15s, requirement: DIALSTACK-WAKE-1}
        """

    @Test func noPushAtAllIsWAKE1SomeFormatsOnlySIG1() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wakeups-\(UUID().uuidString)")
        try FileManager.default.copyItem(
            at: URL(fileURLWithPath: DialStackTestStack.suiteDirectory), to: directory)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.scenarios.write(
            to: directory.appendingPathComponent("zz-test.yaml"), atomically: true, encoding: .utf8)
        let stack = try await DialStackTestStack.start(runs: 4, suiteDirectory: directory.path)
        let results = await stack.run(["test.wake-ups-none", "test.wake-ups-some"])
        await stack.stop()
        let failures = Dictionary(
            uniqueKeysWithValues: results.map { ($0.scenario.id, $0.attempts.last?.failures ?? []) })
        let none = try #require(failures["test.wake-ups-none"])
        #expect(none.map(\.requirement) == ["DIALSTACK-WAKE-1"], "\(DialStackTestStack.describe(results))")
        #expect(none.first?.actual.contains("no push for any of them") == true)
        let some = try #require(failures["test.wake-ups-some"])
        #expect(some.map(\.requirement) == ["DIALSTACK-SIG-1"], "\(DialStackTestStack.describe(results))")
        // The backend pushes after answering, so which of the two meets the one refusal is its scheduling's choice.
        let actual = some.first?.actual ?? ""
        #expect(
            actual.hasPrefix("none for the compact body") || actual.hasPrefix("none for the escaped body"), "\(some)")
    }
}
