import Conformance
import Foundation
import JSON
import PushMocks
import Reports

/// `expectOneSignal: {count, within, app, requirement}` — at least `count` OneSignal requests of this run arrive by
/// the deadline (with `app`, only requests whose `app_id` is that app's count, so a scenario that makes a standard and
/// a VoIP send charges a missing one to its own rule); `expectNoOneSignal: {for, requirement}` — none arrives (from
/// the run's start) during the duration.
struct OneSignalRequestsStep: DecodableStep, Equatable {
    /// nil: expect none.
    var count: Int?
    var durationMs: Int
    /// Only requests to this app count (nil: any).
    var app: OneSignalApp.Role? = nil
    var requirement: String?

    var keyword: String { Self.keywords[count == nil ? 1 : 0] }

    static let keywords = ["expectOneSignal", "expectNoOneSignal"]

    static func decode(_ keyword: String, _ node: YAMLNode, path: String, decoder: inout ScenarioDecoder) -> Self? {
        decoder.decodeOneSignalRequests(expectNone: keyword == keywords[1], node, path)
    }

    func perform(_ step: ScenarioStep, with context: isolated any RunContext) async throws {
        let deadline = context.nowMs + Int64(durationMs)
        let appId = try app.map { role in
            guard let mock = context.mocks.providers.oneSignal else {
                throw HarnessStop(message: "\(step.path): the OneSignal mock is not running")
            }
            return mock.app(role).appID
        }
        func captures() -> [Capture] {
            let all = context.oneSignalCaptures()
            guard let appId else { return all }
            return all.filter { $0.json?["app_id"]?.stringValue == appId }
        }
        var seen = captures()
        while context.nowMs < deadline {
            if let count, seen.count >= count { return }
            if count == nil && !seen.isEmpty { break }
            try await Task.sleep(nanoseconds: 50_000_000)
            seen = captures()
        }
        let evidence = Self.evidence(seen)
        if let count {
            guard seen.count < count else { return }
            try context.fail(
                requirement, check: "\(step.path) expectOneSignal",
                expected:
                    "\(count) OneSignal request(s)\(app.map { " to the \($0.rawValue) app" } ?? "") within \(durationMs) ms",
                actual: "\(seen.count)",
                evidence: evidence.isEmpty
                    ? Self.evidence(context.oneSignalCaptures(), note: " (to another app)") : evidence)
        } else if !seen.isEmpty {
            try context.fail(
                requirement, check: "\(step.path) expectNoOneSignal", expected: "no OneSignal request",
                actual: "\(seen.count) request(s) reached OneSignal", evidence: evidence)
        }
    }

    /// The first five of `captures` as evidence; `note` follows each title (with an `app` filter and nothing to
    /// that app, the run's other requests are shown " (to another app)", so the reader sees a send that went to
    /// the wrong app).
    private static func evidence(_ captures: [Capture], note: String = "") -> [EvidenceItem] {
        captures.prefix(5).map { c in
            EvidenceItem(
                kind: .push, title: "onesignal request #\(c.sequence)\(note)",
                text: c.json(revealSecrets: false).serialized(pretty: true))
        }
    }
}
