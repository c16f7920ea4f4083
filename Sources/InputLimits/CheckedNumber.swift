/// The values a number read from outside ringcheck (a command-line option, a header, a body field)
/// may take: finite, within bounds, and whole when `whole`. Converting a value outside the range of
/// the integer type it ends up in (`Int64(1e30)`) traps; every such number is checked here first.
public struct NumberRange: Sendable, Equatable, CustomStringConvertible {
    public var lower: Double
    public var upper: Double
    /// The lower bound itself is not allowed ("above 0").
    public var lowerExclusive: Bool
    /// Only whole numbers (no fraction, no exponent such as `1e3`).
    public var whole: Bool

    public init(_ lower: Double, _ upper: Double, lowerExclusive: Bool = false, whole: Bool = false) {
        self.lower = lower
        self.upper = upper
        self.lowerExclusive = lowerExclusive
        self.whole = whole
    }

    /// Whole numbers from `range.lowerBound` to `range.upperBound`.
    public static func whole(_ range: ClosedRange<Int>) -> NumberRange {
        NumberRange(Double(range.lowerBound), Double(range.upperBound), whole: true)
    }

    /// Seconds (fractions allowed) from 0, or above 0 when `positive`, to `upper`.
    public static func seconds(upTo upper: Double, positive: Bool = false) -> NumberRange {
        NumberRange(0, upper, lowerExclusive: positive)
    }

    /// A TCP port number (0 lets the system choose).
    public static let port = NumberRange.whole(0...65_535)

    public func contains(_ value: Double) -> Bool {
        value.isFinite && (lowerExclusive ? value > lower : value >= lower) && value <= upper
            && (!whole || value == value.rounded(.towardZero))
    }

    /// In words, for errors and help: "a whole number from 0 to 65535", "a number above 0, at most 3600".
    public var description: String {
        let kind = whole ? "a whole number" : "a number"
        let low = Self.text(lower)
        let high = Self.text(upper)
        return lowerExclusive ? "\(kind) above \(low), at most \(high)" : "\(kind) from \(low) to \(high)"
    }

    static func text(_ value: Double) -> String {
        value == value.rounded(.towardZero) && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}

/// Why a number read from outside was refused.
public struct NumberError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The text as given, cut to 40 characters (a 400-digit string is not echoed whole).
    public var text: String
    public var range: NumberRange

    public init(text: some StringProtocol, range: NumberRange) {
        self.text = text.count > 40 ? String(text.prefix(37)) + "..." : String(text)
        self.range = range
    }

    public var description: String { "takes \(range), not '\(text)'" }
}

/// One checked conversion for every number ringcheck reads from a peer or the command line.
public enum CheckedNumber {
    /// UNIX times in milliseconds a peer may report: 0 to 2^53 (exact in a Double; year 287,396).
    public static let epochMs: ClosedRange<Int64> = 0...(1 << 53)

    /// The longest text read as a number; anything longer is refused without being parsed.
    public static let maxTextLength = 64

    /// `text` as a number in `range`: decimal digits with an optional sign, fraction and exponent
    /// (no `inf`, `nan`, hex or surrounding spaces). Whole ranges take only digits with an optional sign.
    public static func value(_ text: some StringProtocol, in range: NumberRange) throws(NumberError) -> Double {
        guard text.utf8.count <= maxTextLength, isDecimal(text, whole: range.whole), let value = Double(String(text)),
            range.contains(value)
        else { throw NumberError(text: text, range: range) }
        return value
    }

    /// `text` as a whole number in `range`.
    public static func int64(_ text: some StringProtocol, in range: ClosedRange<Int64>) throws(NumberError) -> Int64 {
        let bounds = NumberRange(Double(range.lowerBound), Double(range.upperBound), whole: true)
        guard text.utf8.count <= maxTextLength, isDecimal(text, whole: true), let value = Int64(String(text)),
            range.contains(value)
        else { throw NumberError(text: text, range: bounds) }
        return value
    }

    /// `value` (already a number, e.g. from JSON) as a whole number in `range`, truncated toward zero;
    /// nil when it is not finite or outside the range, so the conversion can never trap.
    public static func int64(_ value: Double, in range: ClosedRange<Int64>) -> Int64? {
        guard value.isFinite, value >= Double(range.lowerBound), value <= Double(range.upperBound) else { return nil }
        // Double(Int64.max) rounds up to 2^63: clamp before converting.
        let truncated = value.rounded(.towardZero)
        guard truncated < 9_223_372_036_854_775_808.0, let n = Int64(exactly: truncated) else { return nil }
        return min(max(n, range.lowerBound), range.upperBound)
    }

    /// `seconds` as whole milliseconds (rounded), nil when not finite or beyond `maxSeconds`.
    public static func milliseconds(seconds: Double, maxSeconds: Double = 86_400 * 366) -> Int64? {
        guard seconds.isFinite, abs(seconds) <= maxSeconds else { return nil }
        return Int64((seconds * 1000).rounded())
    }

    private static func isDecimal(_ text: some StringProtocol, whole: Bool) -> Bool {
        var digits = 0
        var index = 0
        var seenPoint = false
        var seenExponent = false
        var previous: UInt8 = 0
        for byte in text.utf8 {
            defer {
                previous = byte
                index += 1
            }
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digits += 1
            case UInt8(ascii: "+"), UInt8(ascii: "-"):
                guard index == 0 || previous == UInt8(ascii: "e") || previous == UInt8(ascii: "E") else { return false }
            case UInt8(ascii: ".") where !whole && !seenPoint && !seenExponent: seenPoint = true
            case UInt8(ascii: "e"), UInt8(ascii: "E"):
                guard !whole, !seenExponent, digits > 0 else { return false }
                seenExponent = true
            default: return false
            }
        }
        return digits > 0
    }
}
