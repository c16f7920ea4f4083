import Conformance
import PushMocks

/// One profile's part of `ringcheck trigger`: the options only it takes, how they become its plan, and the trigger
/// that plays the plan. The command owns what every profile shares (the mocks, `--settle`, `--keep-devices`,
/// `--json`, Ctrl-C, the timeline and the summary).
///
/// ```swift
/// struct EchoTriggerOptions: TriggerProfileOptions {
///     static let profile = "echo"
///     static let ownOptions = ["message"]
///     var message: String
///     init(_ a: ParsedArguments, shared: TriggerSharedOptions, environment: [String: String]) throws {
///         message = a.value("message") ?? "hello"
///     }
///     var announcement: String { "Sending \(message)" }
///     func trigger(mocks: MockStack, emit: …) throws -> any ProfileTrigger { try EchoTrigger(…) }
/// }
/// ```
protocol TriggerProfileOptions: Sendable {
    /// The profile's name, as `trigger PROFILE` spells it.
    static var profile: String { get }
    /// The options only this profile takes; another profile's are a usage error.
    static var ownOptions: [String] { get }
    init(_ arguments: ParsedArguments, shared: TriggerSharedOptions, environment: [String: String]) throws
    /// The line said before the exchange (`Triggering call.mobile_push_wakeup for user-b at …`).
    var announcement: String { get }
    func trigger(mocks: MockStack, emit: @escaping @Sendable (CallTimelineEntry) -> Void) throws -> any ProfileTrigger
}

/// The options of `ringcheck trigger` every profile reads.
struct TriggerSharedOptions: Sendable {
    var url: String
    var user: String?
    var noDevices: Bool
    var keepDevices: Bool
    var settle: Duration?
}
