/// A reference backend's defect switch: a deliberate departure from one rule of its profile, off
/// unless named with `--defect` (`serve-reference`) or `--reference-defect` (`run`, `call`, `load`).
///
/// A reference is correct with no defects; each switch breaks exactly one rule, so its profile's
/// suite can show that the check for that rule can fail. Conform a `String` enum, one case per
/// switch, its raw value the switch's name, and say in `summary` what the backend then does wrong:
///
/// ```swift
/// public enum ProbeDefect: String, ReferenceDefect {
///     case skipCheck = "skip-check"
///
///     public var summary: String { "the check is skipped" }
/// }
///
/// let (defects, unknown) = ProbeDefect.parse(["skip-check", "nope"])  // [.skipCheck], ["nope"]
/// ```
public protocol ReferenceDefect: RawRepresentable, CaseIterable, Hashable, Sendable
where RawValue == String, AllCases == [Self] {
    /// One line for `--help`: what the backend does wrong with this switch on.
    var summary: String { get }
}

extension ReferenceDefect {
    /// The switch's name as given to `--defect`.
    public var name: String { rawValue }

    /// Every switch's name, in declaration order.
    public static var names: [String] { allCases.map(\.name) }

    /// Parses `--defect` names; unknown names are returned in `unknown`, in the order given.
    public static func parse(_ names: [String]) -> (defects: Set<Self>, unknown: [String]) {
        var defects: Set<Self> = []
        var unknown: [String] = []
        for name in names {
            if let defect = Self(rawValue: name) { defects.insert(defect) } else { unknown.append(name) }
        }
        return (defects, unknown)
    }
}
