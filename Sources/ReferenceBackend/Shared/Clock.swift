#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Wall-clock time in milliseconds since the UNIX epoch. Injected everywhere time matters, so
/// tests can move time instead of sleeping.
public typealias MillisecondClock = @Sendable () -> Int64

/// The real wall clock.
public enum SystemClock {
    /// Reads `CLOCK_REALTIME`.
    public static let milliseconds: MillisecondClock = {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
    }
}

/// Random identifiers for calls' events, push messages and media credentials.
enum RandomIdentifier {
    /// A random (version 4) UUID in lowercase canonical form.
    static func uuid() -> String {
        var generator = SystemRandomNumberGenerator()
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        bytes[6] = (bytes[6] & 0x0f) | 0x40
        bytes[8] = (bytes[8] & 0x3f) | 0x80
        let hex = hexString(bytes)
        let parts = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { range in
            String(
                hex[
                    hex.index(
                        hex.startIndex, offsetBy: range.lowerBound)..<hex.index(
                            hex.startIndex, offsetBy: range.upperBound)])
        }
        return parts.joined(separator: "-")
    }

    /// `count` random bytes as lowercase hex.
    static func hex(bytes count: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return hexString((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    /// `bytes` as lowercase hex.
    static func hexString(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        var out = ""
        out.reserveCapacity(bytes.count * 2)
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0x0f)])
        }
        return out
    }
}
