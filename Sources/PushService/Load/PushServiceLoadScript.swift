import Conformance

/// What the push-service load driver sends as one unit, in a fixed rotation: a normal notification, or a call
/// pair (`incoming`, then `ended` with the same id after a ring of 0.2–1.5 s).
public enum PushServiceLoadScript: String, Sendable, Equatable, CaseIterable, Codable {
    case notification
    case call

    /// The script of unit number `index`: notifications and calls in turn.
    public static func script(for index: Int) -> PushServiceLoadScript { index % 2 == 0 ? .notification : .call }

    /// How long call `index` rings before its `ended` (milliseconds): 200 to 1,500, reproducibly.
    static func ringMs(_ index: Int) -> Int { 200 + (index * 397) % 1_300 }

    /// Every call's `timeout` (seconds): short, so a push after it is seen within the run.
    static let timeoutSeconds = 3
}

extension HistoryRule {
    // MARK: The rules of a push-service load run's history check (`PushServiceLoadHistory`)

    /// Every device of the audience gets the notification (an `ended`: every device its `incoming` reached).
    public static let reachEveryDevice = HistoryRule("reach-every-device")
    /// At most one accepted push per device and request.
    public static let oncePerDevice = HistoryRule("once-per-device")
    /// No `incoming_call` push after the call's `timeout`.
    public static let noLateCall = HistoryRule("no-late-call")
    /// `GET /notifications/{id}` settles, and its counts agree with what the mocks accepted and refused.
    public static let countsAgree = HistoryRule("counts-agree")

    /// Push-service's rules, in the order the report lists their violations.
    public static let pushService: [HistoryRule] = [.reachEveryDevice, .oncePerDevice, .noLateCall, .countsAgree]
}
