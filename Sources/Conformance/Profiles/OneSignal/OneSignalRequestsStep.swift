import Foundation
import PushMocks
import Reports

/// `expectOneSignal: {count, within, requirement}` — at least `count` OneSignal requests of this run arrive by the
/// deadline; `expectNoOneSignal: {for, requirement}` — none arrives (from the run's start) during the duration.
struct OneSignalRequestsStep: DecodableStep, Equatable {
    /// nil: expect none.
    var count: Int?
    var durationMs: Int
    var requirement: String?

    var keyword: String { Self.keywords[count == nil ? 1 : 0] }

    static let keywords = ["expectOneSignal", "expectNoOneSignal"]

    static func decode(_ keyword: String, _ node: YAMLNode, path: String, decoder: inout ScenarioDecoder) -> Self? {
        decoder.decodeOneSignalRequests(expectNone: keyword == keywords[1], node, path)
    }

    func perform(_ step: ScenarioStep, in run: isolated ScenarioRun) async throws {
        let deadline = run.nowMs + Int64(durationMs)
        var seen = run.oneSignalCaptures()
        while run.nowMs < deadline {
            if let count, seen.count >= count { return }
            if count == nil && !seen.isEmpty { break }
            try await Task.sleep(nanoseconds: 50_000_000)
            seen = run.oneSignalCaptures()
        }
        let evidence = seen.prefix(5).map { c in
            EvidenceItem(
                kind: .push, title: "onesignal request #\(c.sequence)",
                text: c.json(revealSecrets: false).serialized(pretty: true))
        }
        if let count {
            guard seen.count < count else { return }
            try run.fail(
                requirement, check: "\(step.path) expectOneSignal",
                expected: "\(count) OneSignal request(s) within \(durationMs) ms", actual: "\(seen.count)",
                evidence: Array(evidence))
        } else if !seen.isEmpty {
            try run.fail(
                requirement, check: "\(step.path) expectNoOneSignal", expected: "no OneSignal request",
                actual: "\(seen.count) request(s) reached OneSignal", evidence: Array(evidence))
        }
    }
}
