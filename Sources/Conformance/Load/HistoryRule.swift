import Reports

/// The name of one rule of a profile's whole-run history check (`one-winner`, `wake-once`): a profile
/// declares its rules as constants and charges each to a requirement of its catalogue. It is encoded as
/// its name, so `load-report.json`'s `rule` is a plain string.
///
/// ```swift
/// extension HistoryRule {
///     static let onePong = HistoryRule("one-pong")
/// }
/// let v = LoadViolation("PING-1", level: .must, rule: .onePong, callId: "p1", message: "two pongs")
/// ```
public struct HistoryRule: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    public var rawValue: String

    /// The rule named `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The rule named `name`.
    public init(_ name: String) { self.rawValue = name }

    public var description: String { rawValue }
}
