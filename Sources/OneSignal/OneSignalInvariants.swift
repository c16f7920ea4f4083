import Conformance
import JSON
import PushMocks

/// One captured OneSignal request reduced to what the rules read.
struct OneSignalRequest: Sendable {
    var sequence: Int
    var arrivalMs: Int64
    var authorization: String?
    var body: JSONValue
    var status: Int
    /// The answer's `recipients` (0 when it has none).
    var recipients: Int
}

/// The OneSignal rules over every request of a scenario run, as a pure function of the requests, the operations
/// ringcheck triggered and the mock's two apps: which app and key, the targeting, the VoIP defaults, the option
/// mapping, and whether `delivered` told the truth about `recipients`.
enum OneSignalInvariants {
    /// The `PushOptions` names and their OneSignal fields.
    static let optionFields: [(option: String, field: String)] = [
        ("priority", "priority"), ("ttl", "ttl"), ("contentAvailable", "content_available"),
        ("apnsPushTypeOverride", "apns_push_type_override"), ("collapseId", "collapse_id"),
    ]
    /// Targeting parameters other than `include_aliases`.
    static let otherTargeting = [
        "include_player_ids", "include_subscription_ids", "include_external_user_ids", "included_segments",
        "filters",
    ]

    /// Every violation of the profile's rules (`OneSignalRules`): each request against the operation it answers
    /// (`OneSignalAttribution`, by content), then each operation against the requests that answered it.
    static func check(
        _ requests: [OneSignalRequest], operations: [OneSignalOperation], standard: OneSignalApp, voip: OneSignalApp
    ) -> [Violation] {
        judge(requests, operations: operations, standard: standard, voip: voip).violations
    }

    /// `check`, with a note for every request that fits more than one operation alike (it is judged by no rule,
    /// and the operations it fits are not judged on what they answered, `delivered`) and for every request that
    /// reached OneSignal in a later millisecond than its operation's answer: the kit answered before it asked
    /// OneSignal, which the note says rather than charging that request to an operation begun since.
    static func judge(
        _ requests: [OneSignalRequest], operations: [OneSignalOperation], standard: OneSignalApp, voip: OneSignalApp
    ) -> (violations: [Violation], notes: [String]) {
        var out: [Violation] = []
        var notes: [String] = []
        var byOperation: [Int: [OneSignalRequest]] = [:]
        var unsure: Set<Int> = []
        for r in requests {
            let index: Int
            switch OneSignalAttribution.of(r, operations, standard: standard, voip: voip) {
            case .request(let i): index = i
            case .none: continue
            case .unattributed(let candidates):
                unsure.formUnion(candidates)
                notes.append(
                    "OneSignal request #\(r.sequence) is unattributed: its content fits operations "
                        + candidates.map { "#\($0 + 1) (\(operations[$0].kind.rawValue))" }.joined(separator: " and ")
                        + " alike, so it is judged by no rule and those operations' delivered is not judged")
                continue
            }
            byOperation[index, default: []].append(r)
            let op = operations[index]
            if r.arrivalMs > op.answeredAtMs {
                notes.append(
                    "OneSignal request #\(r.sequence) was sent after operation #\(index + 1) (\(op.kind.rawValue)) "
                        + "answered: the kit answered before it asked OneSignal")
            }
            let subject = OneSignalRequestSubject(
                request: r, operation: operations[index], standard: standard, voip: voip)
            out += OneSignalRules.requests.violations(of: subject, captures: [r.sequence])
        }
        for (index, op) in operations.enumerated() where !unsure.contains(index) {
            let answered = byOperation[index] ?? []
            out += OneSignalRules.operations.violations(
                of: OneSignalOperationSubject(operation: op, answered: answered),
                captures: answered.last.map { [$0.sequence] } ?? [])
        }
        return (out, notes)
    }

    /// The key of `Authorization: Key <key>` or `Basic <key>`.
    static func key(_ header: String?) -> String? {
        guard let header else { return nil }
        for scheme in ["Key ", "Basic "] where header.lowercased().hasPrefix(scheme.lowercased()) {
            return String(header.dropFirst(scheme.count)).trimmingCharacters(in: .whitespaces)
        }
        return nil
    }

    /// Equal values, numbers compared by value (`30` and `30.0`).
    static func same(_ a: JSONValue?, _ b: JSONValue) -> Bool {
        guard let a else { return false }
        if let x = a.doubleValue, let y = b.doubleValue, a.boolValue == nil, b.boolValue == nil { return x == y }
        return a == b
    }
}
