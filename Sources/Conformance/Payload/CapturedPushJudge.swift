import PushMocks

/// One profile's judging of captured pushes for `ringcheck check-payload --profile P`: its push rules over the
/// captures alone, without the requests that caused them (what rests on a request — its values, its time — is not
/// judged). The levels are the profile's catalogue's.
///
/// ```swift
/// struct EchoCapturedPushes: CapturedPushJudge {
///     static let profile = "echo"
///     static let providers: [MockProviderID] = [.apns, .fcm]
///     static func violations(of captures: [Capture], context: CapturedPushContext) throws(PayloadInputError)
///         -> [Violation] { … }
///     static let optionRows: [ProfileOptionRow] = [.value("app-id", "ID", help: "the app's ID")]
///     static let examples = ["ringcheck check-payload --profile echo --app-id app_1 captures.json"]
/// }
/// ```
public protocol CapturedPushJudge: Sendable {
    /// The profile's name (`--profile`).
    static var profile: String { get }
    /// What the captures alone cannot show, said once beside the result.
    static var unjudged: String { get }
    /// What these captures, with `context`, leave unjudged: `unjudged` by default; a judge whose options bring
    /// back a rule (DialStack's `--call-id`, its DIALSTACK-PUSH-1) says so.
    static func unjudged(given context: CapturedPushContext) -> String
    /// The mocks whose captures it judges (the others are skipped).
    static var providers: [MockProviderID] { get }
    /// The profile's push rules over `captures` (of `providers` only); throws when `context` lacks what they need.
    static func violations(of captures: [Capture], context: CapturedPushContext) throws(PayloadInputError)
        -> [Violation]
    /// Its rows of `check-payload --help`, the options that fill its `CapturedPushContext` beyond `--topic`
    /// (OneSignal's `app-id`, `voip-app-id`; DialStack's repeatable `call-id`); the command builds its options from
    /// them, and naming one for another profile is a usage error. None by default.
    static var optionRows: [ProfileOptionRow] { get }
    /// Its lines of `check-payload --help`'s examples, after the command's own (one showing its options). None by
    /// default.
    static var examples: [String] { get }
    /// What the captures are judged with: `--topic` (`voipTopic`), the values of its `optionRows` that were
    /// given (every value of a repeatable one, in order; the last counts for another), and the environment (where
    /// an option's default may come from). The default keeps the topic alone.
    static func context(voipTopic: String?, options: [String: [String]], environment: [String: String])
        -> CapturedPushContext
}

extension CapturedPushJudge {
    public static var optionRows: [ProfileOptionRow] { [] }
    public static var examples: [String] { [] }
    public static func unjudged(given context: CapturedPushContext) -> String { unjudged }
    public static func context(voipTopic: String?, options: [String: [String]], environment: [String: String])
        -> CapturedPushContext
    { CapturedPushContext(voipTopic: voipTopic) }
}

/// What `check-payload` knows beside the captures: `--topic`, the app IDs of `--app-id`/`--voip-app-id`
/// (OneSignal's, from `RINGCHECK_ONESIGNAL_APP_ID`/`_VOIP_APP_ID` unless given), and the calls of `--call-id`
/// (DialStack's).
public struct CapturedPushContext: Sendable {
    /// The apns-topic VoIP pushes must carry; nil: each push's own (see `CapturedPushCheck.voipTopic`).
    public var voipTopic: String?
    public var appId: String?
    public var voipAppId: String?
    /// The calls the pushes are for (`--call-id`, repeatable): each push must carry one of these IDs. Empty: not
    /// known, and the call ID not judged.
    public var callIds: [String]

    public init(voipTopic: String? = nil, appId: String? = nil, voipAppId: String? = nil, callIds: [String] = []) {
        self.voipTopic = voipTopic
        self.appId = appId
        self.voipAppId = voipAppId
        self.callIds = callIds
    }
}
