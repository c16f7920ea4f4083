import PushMocks

/// One profile's judging of captured pushes for `ringcheck check-payload --profile P`: its push rules over the
/// captures alone, without the requests that caused them (what rests on a request — its values, its time — is not
/// judged). The levels are the profile's catalogue's.
///
/// ```swift
/// struct EchoCapturedPushes: CapturedPushJudge {
///     static let profile = "echo"
///     static func violations(of captures: [Capture], voipTopic: String?) -> [Violation] { … }
/// }
/// ```
public protocol CapturedPushJudge: Sendable {
    /// The profile's name (`--profile`).
    static var profile: String { get }
    /// What the captures alone cannot show, said once beside the result.
    static var unjudged: String { get }
    /// The profile's push rules over `captures` (APNs and FCM; others are skipped).
    static func violations(of captures: [Capture], voipTopic: String?) -> [Violation]
}
