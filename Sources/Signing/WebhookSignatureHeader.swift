/// A webhook signature in the `t=…,v1=…` scheme DialStack uses (and Stripe, whose `Stripe-Signature` is the
/// same construction): `v1` is the lowercase hex HMAC-SHA256, under the endpoint's secret, of
/// `"<t>.<raw body>"`, where `t` is the signing time in Unix seconds.
public struct WebhookSignatureHeader: Sendable, Equatable {
    /// The signing time, Unix seconds (the header's `t`).
    public var timestamp: Int64
    /// The lowercase hex HMAC-SHA256 (the header's `v1`).
    public var v1: String

    /// A signature with the given parts (e.g. parsed from a header).
    public init(timestamp: Int64, v1: String) {
        self.timestamp = timestamp
        self.v1 = v1
    }

    /// Signs `body` (the exact bytes that go on the wire) with `secret` at `timestamp`.
    public init(signing body: [UInt8], secret: [UInt8], timestamp: Int64) {
        self.timestamp = timestamp
        v1 = Self.hex(HMAC.sha256(key: secret, message: Self.signedPayload(body: body, timestamp: timestamp)))
    }

    /// The bytes the HMAC covers: the decimal timestamp, a dot, then the raw body.
    public static func signedPayload(body: [UInt8], timestamp: Int64) -> [UInt8] {
        Array("\(timestamp).".utf8) + body
    }

    /// The header value, `t=<timestamp>,v1=<hex>`.
    public var header: String { "t=\(timestamp),v1=\(v1)" }

    /// Parses a header value the way the seed's handler does (comma-separated `key=value` pairs; other keys are
    /// ignored); nil when `t` is not an integer or `v1` is missing.
    public init?(header: String) {
        var fields: [Substring: Substring] = [:]
        for part in header.split(separator: ",") {
            guard let equals = part.firstIndex(of: "=") else { continue }
            fields[part[..<equals].trimmingSpaces] = part[part.index(after: equals)...].trimmingSpaces
        }
        guard let t = fields["t"].flatMap({ Int64($0) }), let v1 = fields["v1"], !v1.isEmpty else { return nil }
        self.init(timestamp: t, v1: String(v1))
    }

    /// True when this signature is `body`'s under `secret` (constant-time comparison of the digests).
    public func isValid(for body: [UInt8], secret: [UInt8]) -> Bool {
        let expected = WebhookSignatureHeader(signing: body, secret: secret, timestamp: timestamp)
        return HMAC.constantTimeEquals(Array(expected.v1.utf8), Array(v1.utf8))
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        var s = self
        while s.first == " " { s.removeFirst() }
        while s.last == " " { s.removeLast() }
        return s
    }
}
