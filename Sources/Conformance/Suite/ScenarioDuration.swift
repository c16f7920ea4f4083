/// A duration written in a scenario (`500ms`, `5s`, `1.5s`, `2m`), kept in milliseconds.
public struct ScenarioDuration: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var milliseconds: Int

    public init(milliseconds: Int) { self.milliseconds = milliseconds }

    /// The longest duration a scenario may ask for, so a typo cannot stall a run for hours.
    public static let maximum = ScenarioDuration(milliseconds: 10 * 60_000)

    /// Parses `<number><unit>` with unit `ms`, `s` or `m`; nil for anything else, negatives, or more than `maximum`.
    public init?(_ text: String) {
        let units: [(String, Double)] = [("ms", 1), ("s", 1000), ("m", 60_000)]
        guard let (suffix, scale) = units.first(where: { text.hasSuffix($0.0) }) else { return nil }
        let number = text.dropLast(suffix.count)
        guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
            let value = Double(number), value.isFinite
        else { return nil }
        let ms = (value * scale).rounded()
        guard ms >= 0, ms <= Double(Self.maximum.milliseconds) else { return nil }
        milliseconds = Int(ms)
    }

    /// The duration as Swift's `Duration`.
    public var duration: Duration { .milliseconds(milliseconds) }

    public static func < (lhs: ScenarioDuration, rhs: ScenarioDuration) -> Bool { lhs.milliseconds < rhs.milliseconds }

    public var description: String {
        milliseconds % 1000 == 0 ? "\(milliseconds / 1000)s" : "\(milliseconds)ms"
    }
}
