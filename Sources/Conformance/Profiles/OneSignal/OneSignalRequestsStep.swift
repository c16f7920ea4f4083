import Foundation
import PushMocks
import Reports

/// `expectOneSignal: {count, within, requirement}` — at least `count` OneSignal requests of this run arrive by the
/// deadline; `expectNoOneSignal: {for, requirement}` — none arrives (from the run's start) during the duration.
struct OneSignalRequestsStep: ProfileStep, Equatable {
    /// nil: expect none.
    var count: Int?
    var durationMs: Int
    var requirement: String?

    var keyword: String { count == nil ? "expectNoOneSignal" : "expectOneSignal" }

    func perform(_ step: ScenarioStep, with context: isolated any RunContext) async throws {
        let deadline = context.nowMs + Int64(durationMs)
        var seen = context.oneSignalCaptures()
        while context.nowMs < deadline {
            if let count, seen.count >= count { return }
            if count == nil && !seen.isEmpty { break }
            try await Task.sleep(nanoseconds: 50_000_000)
            seen = context.oneSignalCaptures()
        }
        let evidence = seen.prefix(5).map { c in
            EvidenceItem(
                kind: .push, title: "onesignal request #\(c.sequence)",
                text: c.json(revealSecrets: false).serialized(pretty: true))
        }
        if let count {
            guard seen.count < count else { return }
            try context.fail(
                requirement, check: "\(step.path) expectOneSignal",
                expected: "\(count) OneSignal request(s) within \(durationMs) ms", actual: "\(seen.count)",
                evidence: Array(evidence))
        } else if !seen.isEmpty {
            try context.fail(
                requirement, check: "\(step.path) expectNoOneSignal", expected: "no OneSignal request",
                actual: "\(seen.count) request(s) reached OneSignal", evidence: Array(evidence))
        }
    }
}
