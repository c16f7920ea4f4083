import JSON

/// How captures hide secrets when rendered: device tokens shortened (`ab12…9f3e`), JWTs replaced
/// by `<redacted jwt kid=…>`, access tokens and authorization values by `<redacted>`. PEM private
/// keys are removed even when secrets are revealed. `redactingOutput` does the same for free text
/// whose secrets nobody listed, by their shape.
public enum Redaction {
    /// A device token shortened to its first and last four characters: `ab12…9f3e`.
    public static func shortToken(_ token: String) -> String {
        if token.isPlainASCII {
            let utf8 = token.utf8
            let n = utf8.count
            guard n > 10 else { return n > 2 ? String(token[..<utf8.index(utf8.startIndex, offsetBy: 2)]) + "…" : "…" }
            // Written byte by byte: slicing and joining three strings cost more than the rest of the
            // capture's secrets, for every push.
            var copy = token
            return copy.withUTF8 { bytes in
                String(unsafeUninitializedCapacity: 11) { out in
                    for i in 0..<4 {
                        out[i] = bytes[i]
                        out[7 + i] = bytes[n - 4 + i]
                    }
                    (out[4], out[5], out[6]) = (0xE2, 0x80, 0xA6)  // "…"
                    return 11
                }
            }
        }
        let chars = Array(token)
        guard chars.count > 10 else { return chars.count > 2 ? String(chars.prefix(2)) + "…" : "…" }
        return String(chars.prefix(4)) + "…" + String(chars.suffix(4))
    }

    /// The placeholder for a JWT: `<redacted jwt kid=ABC123DEFG>` (or without `kid` when unreadable).
    public static func jwtPlaceholder(_ jwt: String) -> String { jwtPlaceholder(keyID: peekKeyID(jwt)) }

    /// The placeholder for a JWT whose `peekKeyID` is `keyID`.
    static func jwtPlaceholder(keyID: String?) -> String {
        if let keyID { return "<redacted jwt kid=\(keyID)>" }
        return "<redacted jwt>"
    }

    /// The `kid` of a JWT's header, read without verifying anything; nil when unreadable.
    public static func peekKeyID(_ jwt: String) -> String? {
        guard let dot = jwt.firstIndex(of: "."),
            let bytes = base64URLDecode(String(jwt[..<dot])),
            let header = try? JSONValue.parse(bytes),
            let kid = header["kid"]?.stringValue
        else { return nil }
        // Keep the placeholder printable and short whatever a client put there.
        let safe = kid.unicodeScalars.filter { $0.isASCII && $0.value > 0x20 && $0 != ">" && $0 != "\"" }
        return String(String.UnicodeScalarView(safe.prefix(64)))
    }

    /// True for text shaped like a compact JWS: three base64url parts, the first starting with `eyJ`.
    static func looksLikeJWT(_ s: Substring) -> Bool {
        guard s.hasPrefix("eyJ") else { return false }
        let parts = s.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 3 && parts[0].count > 3 && parts[1].count > 0
    }

    /// Rewrites `text`: each secret replaced, any embedded JWT replaced, PEM private keys removed.
    /// Works on UTF-8 bytes: captures can hold 100 kB headers, and `Character` searches are slow.
    static func redact(_ text: String, secrets: [CaptureSecret], reveal: Bool) -> String {
        var out = removePrivateKeys(text)
        guard !reveal else { return out }
        let pairs = secrets.sorted(by: { $0.value.utf8.count > $1.value.utf8.count }).filter { !$0.value.isEmpty }
            .map { (Array($0.value.utf8), Array($0.replacement.utf8)) }
        var bytes = Array(out.utf8)
        var changed = false
        if let replaced = replacingEach(pairs, in: bytes) {
            bytes = replaced
            changed = true
        }
        if let replaced = replacingJWTs(in: bytes) {
            bytes = replaced
            changed = true
        }
        if changed { out = String(decoding: bytes, as: UTF8.self) }
        return out
    }

    /// `bytes` with every occurrence of each pair's secret replaced by its replacement, in the pairs' order
    /// (longest secret first, so a secret inside another is not replaced first), or nil when none occurs.
    package static func replacingEach(_ pairs: [(secret: [UInt8], replacement: [UInt8])], in bytes: [UInt8]) -> [UInt8]?
    {
        var out = bytes
        var changed = false
        for (secret, replacement) in pairs {
            if let replaced = replacingAll(secret, with: replacement, in: out) {
                out = replaced
                changed = true
            }
        }
        return changed ? out : nil
    }

    /// `haystack` with every `needle` replaced, or nil when there is none.
    static func replacingAll(_ needle: [UInt8], with replacement: [UInt8], in haystack: [UInt8]) -> [UInt8]? {
        guard let first = needle.first, needle.count <= haystack.count else { return nil }
        var out: [UInt8] = []
        var found = false
        var i = 0
        let last = haystack.count - needle.count
        while i < haystack.count {
            if i <= last && haystack[i] == first && haystack[i..<(i + needle.count)].elementsEqual(needle) {
                if !found {
                    out.reserveCapacity(haystack.count)
                    out.append(contentsOf: haystack[0..<i])
                    found = true
                }
                out.append(contentsOf: replacement)
                i += needle.count
            } else {
                if found { out.append(haystack[i]) }
                i += 1
            }
        }
        return found ? out : nil
    }

    static func contains(_ needle: [UInt8], in haystack: [UInt8]) -> Bool {
        guard let first = needle.first, needle.count <= haystack.count else { return false }
        for i in 0...(haystack.count - needle.count)
        where haystack[i] == first && haystack[i..<(i + needle.count)].elementsEqual(needle) {
            return true
        }
        return false
    }

    static func isBase64URLOrDot(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == UInt8(ascii: "-")
            || b == UInt8(ascii: "_") || b == UInt8(ascii: ".") || b == UInt8(ascii: "=")
    }

    /// `bytes` with each run shaped like a JWT replaced by its placeholder, or nil when there is none.
    /// `inFreeText` also finds the JWT of `token=eyJ…` (`=` is base64 padding, so it does not end a
    /// run: a run that is not a JWT is looked at again from each `=eyJ` in it) and of `… eyJ….` at
    /// the end of a sentence.
    static func replacingJWTs(in bytes: [UInt8], inFreeText: Bool = false) -> [UInt8]? {
        let marker = Array("eyJ".utf8)
        guard contains(marker, in: bytes) else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var found = false
        var i = 0
        while i < bytes.count {
            guard isBase64URLOrDot(bytes[i]) else {
                out.append(bytes[i])
                i += 1
                continue
            }
            var j = i
            while j < bytes.count && isBase64URLOrDot(bytes[j]) { j += 1 }
            var end = j
            if inFreeText { while end > i && bytes[end - 1] == UInt8(ascii: ".") { end -= 1 } }
            let run = String(decoding: bytes[i..<end], as: UTF8.self)
            if looksLikeJWT(Substring(run)) {
                out.append(contentsOf: Array(jwtPlaceholder(run).utf8))
                out.append(contentsOf: bytes[end..<j])
                found = true
            } else if inFreeText, let start = jwtAfterEquals(in: bytes[i..<end]) {
                // Always past `i` (the `=` comes first), so the scan moves on.
                out.append(contentsOf: bytes[i..<start])
                i = start
                continue
            } else {
                out.append(contentsOf: bytes[i..<j])
            }
            i = j
        }
        return found ? out : nil
    }

    /// The index of the `e` of the first `=eyJ` in `run`, or nil when there is none.
    static func jwtAfterEquals(in run: ArraySlice<UInt8>) -> Int? {
        var k = run.startIndex
        while k + 4 <= run.endIndex {
            if run[k] == UInt8(ascii: "=") && run[k + 1] == UInt8(ascii: "e") && run[k + 2] == UInt8(ascii: "y")
                && run[k + 3] == UInt8(ascii: "J")
            {
                return k + 1
            }
            k += 1
        }
        return nil
    }

    static func removePrivateKeys(_ text: String) -> String {
        guard contains(Array("PRIVATE KEY".utf8), in: Array(text.utf8)) else { return text }
        var out = ""
        var rest = text[...]
        while let begin = rest.firstRange(of: "-----BEGIN") {
            let afterBegin = rest[begin.upperBound...]
            guard let header = afterBegin.firstRange(of: "-----") else { break }
            guard afterBegin[..<header.lowerBound].contains("PRIVATE KEY") else {
                out += rest[..<header.upperBound]
                rest = rest[header.upperBound...]
                continue
            }
            out += rest[..<begin.lowerBound]
            out += "<redacted private key>"
            let body = afterBegin[header.upperBound...]
            if let end = body.firstRange(of: "-----END"), let close = body[end.upperBound...].firstRange(of: "-----") {
                rest = body[close.upperBound...]
            } else {
                rest = ""[...]
            }
        }
        out += rest
        return out
    }

    /// Applies `redact` to every string (and object key) in `value`; `private_key` members are always removed.
    static func redact(_ value: JSONValue, secrets: [CaptureSecret], reveal: Bool) -> JSONValue {
        switch value {
        case .string(let s): return .string(redact(s, secrets: secrets, reveal: reveal))
        case .array(let items): return .array(items.map { redact($0, secrets: secrets, reveal: reveal) })
        case .object(let members):
            return .object(
                members.map { member in
                    if member.key == "private_key" || member.key == "privateKey" {
                        return (member.key, .string("<redacted private key>"))
                    }
                    return (
                        redact(member.key, secrets: secrets, reveal: reveal),
                        redact(member.value, secrets: secrets, reveal: reveal)
                    )
                })
        default: return value
        }
    }

    /// Decodes base64url (padding optional); nil on any invalid character.
    static func base64URLDecode(_ s: String) -> [UInt8]? {
        var bits: UInt32 = 0
        var bitCount = 0
        var out: [UInt8] = []
        for b in s.utf8 {
            let v: UInt32
            switch b {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): v = UInt32(b - UInt8(ascii: "A"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): v = UInt32(b - UInt8(ascii: "a") + 26)
            case UInt8(ascii: "0")...UInt8(ascii: "9"): v = UInt32(b - UInt8(ascii: "0") + 52)
            case UInt8(ascii: "-"), UInt8(ascii: "+"): v = 62
            case UInt8(ascii: "_"), UInt8(ascii: "/"): v = 63
            case UInt8(ascii: "="): continue
            default: return nil
            }
            bits = bits << 6 | v
            bitCount += 6
            if bitCount >= 8 {
                bitCount -= 8
                out.append(UInt8((bits >> UInt32(bitCount)) & 0xFF))
            }
        }
        return out
    }
}
