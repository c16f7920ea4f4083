import Conformance

/// What the driver does with one call, chosen in a fixed rotation so every mix is reproducible.
public enum LoadScript: String, Sendable, Equatable, CaseIterable, Codable {
    /// Every device of the callee answers at once; the caller hangs up after a moment.
    case race
    /// The caller cancels the ringing call.
    case cancel
    /// One device declines.
    case decline
    /// One device answers and sends the same answer again; the caller hangs up.
    case answerRetry = "answer-retry"
    /// Nobody answers a short ring: the call expires.
    case expire
    /// One device answers and the callee hangs up.
    case calleeHangup = "callee-hangup"

    /// The rotation: races most often, because the winner is the rule that breaks under load.
    static let rotation: [LoadScript] = [
        .race, .cancel, .race, .decline, .answerRetry, .expire, .calleeHangup, .race, .cancel, .answerRetry,
    ]

    /// The script of call number `index`; `expire` becomes `cancel` when the target cannot ring short.
    public static func script(for index: Int, shortRing: Bool) -> LoadScript {
        let s = rotation[index % rotation.count]
        return s == .expire && !shortRing ? .cancel : s
    }
}
