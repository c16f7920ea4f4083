import Signing

/// DialStack's webhook signature, `x-dialstack-signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret,
/// "<t>.<raw body>")>` (the construction of Stripe's `Stripe-Signature`), verified as the seed's
/// handler verifies it: over the raw body bytes, within a tolerance of the clock, compared in
/// constant time. Pure functions: no clock, no state.
public enum WebhookSignature {
    /// The header's name.
    public static let headerName = "x-dialstack-signature"

    /// What a verification found.
    public enum Verdict: Sendable, Equatable {
        case valid
        /// Why it failed, in words for the log (never the secret or the expected signature).
        case invalid(String)

        public var isValid: Bool { self == .valid }
    }

    /// Verifies `header` for `body` at `nowMs`. A missing header, a missing or empty `t` or `v1`, a `t`
    /// that is not a number or is more than `toleranceSeconds` from now (unless `checkTimestamp` is
    /// false) and a `v1` that is not the signature are all invalid.
    public static func verify(
        header: String?, body: [UInt8], secret: String, nowMs: Int64, toleranceSeconds: Int64,
        checkTimestamp: Bool = true
    ) -> Verdict {
        guard let header else { return .invalid("no \(headerName) header") }
        let parts = fields(header)
        guard let t = parts["t"], !t.isEmpty else { return .invalid("the header has no t=") }
        guard let v1 = parts["v1"], !v1.isEmpty else { return .invalid("the header has no v1=") }
        // The seed's Number(t) would read "abc" as NaN, which compares false and so passes its window
        // check; a timestamp that is not a number is refused here instead.
        guard let seconds = Double(t.trimmingWhitespace), seconds.isFinite else {
            return .invalid("t=\(t.prefix(32)) is not a UNIX time")
        }
        if checkTimestamp {
            let skew = Double(nowMs) / 1000 - seconds
            guard abs(skew) <= Double(toleranceSeconds) else {
                // No integer conversion of the skew: t=1e30 must be refused, not trap.
                return .invalid("t=\(t.prefix(32)) is more than \(toleranceSeconds) s from now")
            }
        }
        let expected = Array(signature(secret: secret, timestamp: t, body: body).utf8)
        guard HMAC.constantTimeEquals(expected, Array(v1.utf8)) else { return .invalid("v1 is not the signature") }
        return .valid
    }

    /// The header's parts as the seed's handler reads them: split on `,`, each part split on `=`, the
    /// first piece the name and the second the value (a part without `=` has no value); a later part
    /// replaces an earlier one of the same name. Names and values are not trimmed.
    static func fields(_ header: String) -> [String: String] {
        var out: [String: String] = [:]
        for part in header.split(separator: ",", omittingEmptySubsequences: false) {
            let pieces = part.split(separator: "=", omittingEmptySubsequences: false)
            out[String(pieces[0])] = pieces.count > 1 ? String(pieces[1]) : nil
        }
        return out
    }

    /// The lowercase hex HMAC-SHA256 of `"<timestamp>.<body>"` under `secret`.
    public static func signature(secret: String, timestamp: String, body: [UInt8]) -> String {
        let mac = HMAC.sha256(key: Array(secret.utf8), message: Array((timestamp + ".").utf8) + body)
        return mac.map { byte in (byte < 16 ? "0" : "") + String(byte, radix: 16) }.joined()
    }

    /// The header DialStack sends for `body` signed at `timestamp` (UNIX seconds).
    public static func header(secret: String, timestamp: Int64, body: [UInt8]) -> String {
        "t=\(timestamp),v1=\(signature(secret: secret, timestamp: String(timestamp), body: body))"
    }
}

extension String {
    /// Without leading and trailing spaces, tabs and line breaks (as JavaScript's `Number()` reads a string).
    fileprivate var trimmingWhitespace: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        return String(drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}
