/// A requirement of a profile's catalogue (`DIALSTACK-SIG-1`): what a failed check is charged to. A profile
/// names the requirements its own checks charge as constants of this one type, grouped in a namespace of its own:
///
/// ```swift
/// enum ProbeRequirement {
///     static let accepted: RequirementID = "PROBE-PUSH-1"
///     static let all = [accepted]
/// }
/// run.charge(ProbeRequirement.accepted, check: "steps[2] probe", expected: "200", actual: "503")
/// ```
public struct RequirementID: RawRepresentable, Hashable, Comparable, Sendable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    /// The ID as the catalogue writes it.
    public var rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    public init(_ rawValue: String) { self.rawValue = rawValue }

    public init(stringLiteral value: String) { rawValue = value }

    public var description: String { rawValue }

    public static func < (lhs: RequirementID, rhs: RequirementID) -> Bool { lhs.rawValue < rhs.rawValue }
}
