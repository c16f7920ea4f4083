extension Redaction {
    // MARK: Free text

    /// `text` written by a program ringcheck does not control (a backend's output), with every secret
    /// recognisable by its shape hidden, for quoting in errors and reports: PEM private keys removed
    /// (also a key whose BEGIN line is cut off, as in the tail of a log), JWTs replaced by
    /// `<redacted jwt kid=…>`, Google access tokens (`ya29.…`) and the credential after `bearer` on an
    /// `authorization` line and OneSignal REST API keys (`os_v2_app_…`) by `<redacted>`, runs of 64 or more hexadecimal digits (device tokens)
    /// shortened to `ab12…9f3e`. Shorter hex (a git commit, a UUID) is kept.
    public static func redactingOutput(_ text: String) -> String {
        let out = removePrivateKeys(removingKeyTail(text))
        var bytes = Array(out.utf8)
        var changed = false
        // JWTs and access tokens first, so a bearer credential already replaced keeps its `kid`.
        let passes: [([UInt8]) -> [UInt8]?] = [
            { replacingJWTs(in: $0, inFreeText: true) },
            { replacingMatches(in: $0, accessToken) },
            { replacingMatches(in: $0, bearerCredential) },
            { replacingMatches(in: $0, oneSignalKey) },
            { replacingMatches(in: $0, hexRun) },
        ]
        for pass in passes {
            if let replaced = pass(bytes) {
                bytes = replaced
                changed = true
            }
        }
        return changed ? String(decoding: bytes, as: UTF8.self) : out
    }

    /// `text` with everything up to its first `-----END … PRIVATE KEY-----` replaced when no BEGIN line
    /// comes before it: the text starts inside the key.
    static func removingKeyTail(_ text: String) -> String {
        guard contains(Array("PRIVATE KEY".utf8), in: Array(text.utf8)),
            let end = text.firstRange(of: "-----END"),
            let close = text[end.upperBound...].firstRange(of: "-----"),
            text[end.upperBound..<close.lowerBound].contains("PRIVATE KEY"),
            text[..<end.lowerBound].firstRange(of: "-----BEGIN") == nil
        else { return text }
        return "<redacted private key>" + text[close.upperBound...]
    }

    /// A secret found at an index: where it ends and what stands in its place.
    typealias OutputMatch = (end: Int, replacement: [UInt8])

    /// `bytes` with each secret `match` finds replaced, or nil when it finds none; `match(bytes, i)`
    /// looks for a secret starting at `i`.
    static func replacingMatches(in bytes: [UInt8], _ match: ([UInt8], Int) -> OutputMatch?) -> [UInt8]? {
        var out: [UInt8] = []
        var found = false
        var i = 0
        while i < bytes.count {
            if let m = match(bytes, i) {
                if !found {
                    out.reserveCapacity(bytes.count)
                    out.append(contentsOf: bytes[0..<i])
                    found = true
                }
                out.append(contentsOf: m.replacement)
                i = m.end
            } else {
                if found { out.append(bytes[i]) }
                i += 1
            }
        }
        return found ? out : nil
    }

    // MARK: Shapes

    /// A Google OAuth access token: `ya29.` and the base64url run after it (a trailing `.` ends a sentence).
    static func accessToken(_ bytes: [UInt8], at i: Int) -> OutputMatch? {
        guard bytes[i] == UInt8(ascii: "y"), hasPrefix(Array("ya29.".utf8), in: bytes, at: i) else { return nil }
        var end = i + 5
        while end < bytes.count && isBase64URLOrDot(bytes[end]) { end += 1 }
        while end > i + 5 && bytes[end - 1] == UInt8(ascii: ".") { end -= 1 }
        guard end > i + 5 else { return nil }
        return (end, Array("<redacted>".utf8))
    }

    /// `bearer` (any case), blanks, and a credential (RFC 6750 `b64token` characters) on a line that
    /// names `authorization` (any case); only the credential is replaced.
    static func bearerCredential(_ bytes: [UInt8], at i: Int) -> OutputMatch? {
        guard bytes[i] | 0x20 == UInt8(ascii: "b"), i == 0 || !isASCIILetter(bytes[i - 1]),
            hasPrefix(Array("bearer".utf8), in: bytes, at: i, ignoringCase: true)
        else { return nil }
        var start = i + 6
        while start < bytes.count && (bytes[start] == UInt8(ascii: " ") || bytes[start] == UInt8(ascii: "\t")) {
            start += 1
        }
        guard start > i + 6 else { return nil }
        var end = start
        while end < bytes.count && isBearerTokenByte(bytes[end]) { end += 1 }
        guard end > start, lineNamesAuthorization(bytes, around: i) else { return nil }
        return (end, Array(bytes[i..<start]) + Array("<redacted>".utf8))
    }

    /// A maximal run of 64 or more hexadecimal digits, shortened like a device token.
    static func hexRun(_ bytes: [UInt8], at i: Int) -> OutputMatch? {
        guard MockIDs.isHexDigit(bytes[i]), i == 0 || !MockIDs.isHexDigit(bytes[i - 1]) else { return nil }
        var end = i
        while end < bytes.count && MockIDs.isHexDigit(bytes[end]) { end += 1 }
        guard end - i >= 64 else { return nil }
        return (end, Array(shortToken(String(decoding: bytes[i..<end], as: UTF8.self)).utf8))
    }

    // MARK: Bytes

    /// Whether the line holding `bytes[i]` contains `authorization` in any case.
    static func lineNamesAuthorization(_ bytes: [UInt8], around i: Int) -> Bool {
        let newline = UInt8(ascii: "\n")
        var start = i
        while start > 0 && bytes[start - 1] != newline { start -= 1 }
        let needle = Array("authorization".utf8)
        var k = start
        while k + needle.count <= bytes.count && bytes[k] != newline {
            if hasPrefix(needle, in: bytes, at: k, ignoringCase: true) { return true }
            k += 1
        }
        return false
    }

    /// Whether `bytes` holds `prefix` at `i`; with `ignoringCase`, `prefix` must be lower case ASCII.
    static func hasPrefix(_ prefix: [UInt8], in bytes: [UInt8], at i: Int, ignoringCase: Bool = false) -> Bool {
        guard i + prefix.count <= bytes.count else { return false }
        for (k, p) in prefix.enumerated() {
            let b = bytes[i + k]
            guard b == p || (ignoringCase && isASCIILetter(b) && b | 0x20 == p) else { return false }
        }
        return true
    }

    static func isASCIILetter(_ b: UInt8) -> Bool { (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A }

    /// RFC 6750 `b64token`: letters, digits, `-._~+/`, and `=` padding.
    static func isBearerTokenByte(_ b: UInt8) -> Bool {
        isBase64URLOrDot(b) || b == UInt8(ascii: "~") || b == UInt8(ascii: "+") || b == UInt8(ascii: "/")
    }
}
