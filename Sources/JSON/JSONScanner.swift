extension JSONValue {
    /// True when `bytes` is a complete JSON document whose value is an object: exactly when
    /// `parse(bytes, maxDepth:)` would return an object, but found without building any values.
    /// For a server that must check every payload and only keep the bytes.
    public static func isObjectDocument(_ bytes: [UInt8], maxDepth: Int = 256) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            var scanner = JSONScanner(bytes: buffer, maxDepth: maxDepth)
            scanner.skipWhitespace()
            guard scanner.index < buffer.count, buffer[scanner.index] == UInt8(ascii: "{"),
                scanner.scanValue(depth: 0)
            else { return false }
            scanner.skipWhitespace()
            return scanner.index == buffer.count
        }
    }
}

/// `JSONParser`'s grammar without the values: each `scan` returns false where the parser would throw.
struct JSONScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    let maxDepth: Int
    var index = 0

    init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    mutating func scanValue(depth: Int) -> Bool {
        guard depth < maxDepth, index < bytes.count else { return false }
        switch bytes[index] {
        case UInt8(ascii: "{"): return scanObject(depth: depth)
        case UInt8(ascii: "["): return scanArray(depth: depth)
        case UInt8(ascii: "\""): return scanString()
        case UInt8(ascii: "t"): return scanLiteral("true")
        case UInt8(ascii: "f"): return scanLiteral("false")
        case UInt8(ascii: "n"): return scanLiteral("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return scanNumber()
        default: return false
        }
    }

    mutating func scanLiteral(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        let lit = UnsafeBufferPointer(start: literal.utf8Start, count: count)
        for i in 0..<count where bytes[index + i] != lit[i] { return false }
        index += count
        return true
    }

    mutating func scanObject(depth: Int) -> Bool {
        index += 1
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return true
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), scanString() else { return false }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return false }
            index += 1
            skipWhitespace()
            guard scanValue(depth: depth + 1) else { return false }
            skipWhitespace()
            guard index < bytes.count else { return false }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return true
            }
            return false
        }
    }

    mutating func scanArray(depth: Int) -> Bool {
        index += 1
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return true
        }
        while true {
            skipWhitespace()
            guard scanValue(depth: depth + 1) else { return false }
            skipWhitespace()
            guard index < bytes.count else { return false }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return true
            }
            return false
        }
    }

    mutating func scanNumber() -> Bool {
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { return false }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) { return false }
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { return false }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < bytes.count, isDigit(bytes[index]) else { return false }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        return true
    }

    func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }

    /// A string, its escapes decoded in the mind only. The parser validates the decoded UTF-8; escapes
    /// always decode to whole scalars that neither start nor end a partial sequence, so checking the raw
    /// bytes between escapes gives the same answer.
    mutating func scanString() -> Bool {
        index += 1
        while index < bytes.count {
            skipPlainBytes()
            guard index < bytes.count else { return false }
            let b = bytes[index]
            if b == UInt8(ascii: "\"") {
                index += 1
                return true
            }
            if b < 0x20 { return false }
            if b >= 0x80 {
                guard scanUTF8Sequence() else { return false }
                continue
            }
            index += 1
            guard b == UInt8(ascii: "\\") else { continue }
            guard index < bytes.count else { return false }
            let e = bytes[index]
            index += 1
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                continue
            case UInt8(ascii: "u"):
                guard let scalar = scanHex4() else { return false }
                if (0xD800...0xDBFF).contains(scalar) {
                    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                        bytes[index + 1] == UInt8(ascii: "u")
                    else { return false }
                    index += 2
                    guard let low = scanHex4(), (0xDC00...0xDFFF).contains(low) else { return false }
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    return false
                }
            default: return false
            }
        }
        return false
    }

    /// Skips string bytes that need no look, eight at a time, up to the first that does: a quote, a
    /// backslash, a control byte or part of a multi-byte sequence.
    mutating func skipPlainBytes() {
        guard let base = bytes.baseAddress else { return }
        while index + 8 <= bytes.count {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
            let special = Self.specialBytes(word)
            if special != 0 {
                index += special.trailingZeroBitCount >> 3
                return
            }
            index += 8
        }
    }

    /// The high bit of each byte of `word` (first byte lowest) that is `"`, `\\`, below 0x20 or at least
    /// 0x80, exact up to the first such byte: above it a borrow may set others.
    static func specialBytes(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        // The high bit of each byte that is zero in `v` (or below `n`: `v - n` borrows where `v < n`).
        func below(_ n: UInt64, _ v: UInt64) -> UInt64 { (v &- ones &* n) & ~v & highs }
        let quote = below(1, word ^ (ones &* UInt64(UInt8(ascii: "\""))))
        let backslash = below(1, word ^ (ones &* UInt64(UInt8(ascii: "\\"))))
        return quote | backslash | below(0x20, word) | word & highs
    }

    mutating func scanHex4() -> UInt32? {
        guard index + 4 <= bytes.count else { return nil }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[index]
            let d: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(c - UInt8(ascii: "A") + 10)
            default: return nil
            }
            v = v << 4 | d
            index += 1
        }
        return v
    }

    /// One well-formed multi-byte UTF-8 sequence (Unicode table 3-7) at `index`, which holds a byte ≥ 0x80.
    mutating func scanUTF8Sequence() -> Bool {
        let lead = bytes[index]
        let count: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: count = 1
        case 0xE0:
            count = 2
            low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: count = 2
        case 0xED:
            count = 2
            high = 0x9F
        case 0xF0:
            count = 3
            low = 0x90
        case 0xF1...0xF3: count = 3
        case 0xF4:
            count = 3
            high = 0x8F
        default: return false
        }
        guard index + count < bytes.count else { return false }
        let second = bytes[index + 1]
        guard second >= low && second <= high else { return false }
        for i in 2..<(count + 1) where bytes[index + i] & 0xC0 != 0x80 { return false }
        index += count + 1
        return true
    }
}
