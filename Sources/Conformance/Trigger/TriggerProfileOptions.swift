import PushMocks

/// One profile's part of `ringcheck trigger`: the options only it takes, how they become its plan, and the trigger
/// that plays the plan. A profile offers it through `Profile.triggerOptions`; the command owns what every profile
/// shares (the mocks, `--settle`, `--keep-devices`, `--json`, Ctrl-C, the timeline and the summary) and names no
/// profile.
///
/// ```swift
/// struct EchoTriggerOptions: TriggerProfileOptions {
///     static let optionRows: [ProfileOptionRow] = [.value("message", "TEXT", help: "what to echo", default: "hello")]
///     static let urlExample = "the echo server's base URL, e.g. http://127.0.0.1:8080"
///     static let helpSection = "echo: sends --message to the server at --url and judges its answer."
///     static let examples = ["ringcheck trigger echo --url http://127.0.0.1:8080 --message hi"]
///     var message: String
///     init(_ a: any TriggerArguments, shared: TriggerSharedOptions, environment: [String: String]) throws {
///         message = a.value("message") ?? "hello"
///     }
///     var announcement: String { "Sending \(message)" }
///     func trigger(mocks: MockStack, emit: …) throws -> any ProfileTrigger { try EchoTrigger(…) }
/// }
///
/// extension EchoProfile {
///     var triggerOptions: (any TriggerProfileOptions.Type)? { EchoTriggerOptions.self }
/// }
/// ```
public protocol TriggerProfileOptions: Sendable {
    /// The profile's rows of `trigger --help`, in the order shown: its own options, and its sentence about a
    /// shared option (`url`, `user`) it reads. The command builds its options from these.
    static var optionRows: [ProfileOptionRow] { get }
    /// The options only this profile takes; another profile's are a usage error. By default the names of
    /// `optionRows` that are not shared options.
    static var ownOptions: [String] { get }
    /// What `--url` names, with an example, for the "--url URL is required: …" error.
    static var urlExample: String { get }
    /// The profile's paragraph of `trigger --help` (`echo: sends --message to --url and judges the answer …`),
    /// shown in registry order with the others'; "" (the default) for none.
    static var helpSection: String { get }
    /// The profile's lines of `trigger --help`'s examples; none by default.
    static var examples: [String] { get }
    /// Reads the profile's options; a `TriggerOptionError` (or the arguments' own usage error) when they
    /// cannot make a plan.
    init(_ arguments: any TriggerArguments, shared: TriggerSharedOptions, environment: [String: String]) throws
    /// The line said before the exchange (`Triggering call.mobile_push_wakeup for user-b at …`).
    var announcement: String { get }
    /// The trigger that plays the plan with `mocks`, telling `emit` each timeline entry.
    func trigger(mocks: MockStack, emit: @escaping @Sendable (CallTimelineEntry) -> Void) throws -> any ProfileTrigger
}

/// The options `trigger` was given, as the command's parser read them (numbers checked against their declared
/// ranges; a bad one is the parser's usage error).
public protocol TriggerArguments: Sendable {
    /// `--name value`'s value; nil when not given.
    func value(_ name: String) -> String?
    /// Whether flag `--name` was given.
    func flag(_ name: String) -> Bool
    /// A whole-number option.
    func int(_ name: String) throws -> Int?
    /// A seconds option as a `Duration`.
    func duration(_ name: String) throws -> Duration?
}

extension TriggerProfileOptions {
    /// No paragraph.
    public static var helpSection: String { "" }
    /// No examples.
    public static var examples: [String] { [] }

    /// The names of `optionRows` that are not `TriggerSharedOptions.names`.
    public static var ownOptions: [String] {
        optionRows.map(\.name).filter { !TriggerSharedOptions.names.contains($0) }
    }
}

/// The options of `ringcheck trigger` every profile reads.
public struct TriggerSharedOptions: Sendable {
    /// Their names: a profile's row with one of these adds its sentence to the command's row.
    public static let names = ["url", "user", "no-devices", "keep-devices", "settle"]

    /// `--url`: where the exchange goes (an http(s) URL).
    public var url: String
    /// `--user`.
    public var user: String?
    /// `--no-devices`.
    public var noDevices: Bool
    /// `--keep-devices`.
    public var keepDevices: Bool
    /// `--settle`.
    public var settle: Duration?

    /// The shared options as given.
    public init(url: String, user: String?, noDevices: Bool, keepDevices: Bool, settle: Duration?) {
        self.url = url
        self.user = user
        self.noDevices = noDevices
        self.keepDevices = keepDevices
        self.settle = settle
    }
}

/// A profile's trigger options that cannot make a plan: `trigger` reports it as a usage error (exit 2).
public struct TriggerOptionError: Error, CustomStringConvertible {
    /// What was wrong, naming the option.
    public var message: String
    public var description: String { message }

    /// An error saying `message`.
    public init(_ message: String) { self.message = message }

    /// The case of `T` that `--option value` names, else an error naming the cases (and the closest one).
    public static func choice<T: RawRepresentable & CaseIterable>(_ option: String, _ value: String, is what: String)
        throws(TriggerOptionError) -> T
    where T.RawValue == String {
        if let chosen = T(rawValue: value) { return chosen }
        let names = T.allCases.map(\.rawValue)
        throw TriggerOptionError(
            "--\(option) '\(Suggestion.shown(value))' is not \(what)\(didYouMean(value, names)) (\(names.joined(separator: ", ")))"
        )
    }

    /// `; did you mean 'x'?` when a candidate is close to `word`, else "".
    public static func didYouMean(_ word: String, _ candidates: [String]) -> String {
        Suggestion.closest(to: word, among: candidates, limit: 4).map { "; did you mean '\($0)'?" } ?? ""
    }
}
