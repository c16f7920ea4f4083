import TestSupport
import Testing

@testable import JSON

@Suite(.cpuBound) struct JSONScannerTests {
    /// What `isObjectDocument` must answer: whether `parse` returns an object.
    static func parsesToObject(_ bytes: [UInt8], maxDepth: Int = 256) -> Bool {
        guard let value = try? JSONValue.parse(bytes, maxDepth: maxDepth), case .object = value else { return false }
        return true
    }

    static let documents: [String] = [
        #"{}"#, #" { } "#, #"{"a":1}"#, #"{"a":[1,2,{"b":null}],"c":"x\"y","d":-0.5e+3,"e":true,"f":false}"#,
        #"{"s":"\u00e9\ud83d\ude00 é 😀 \n\t\/"}"#, #"[1]"#, #""x""#, "1", "null", "", "{", "}", #"{"a"}"#,
        #"{"a":}"#, #"{"a":1,}"#, #"{,}"#, #"{"a":01}"#, #"{"a":1.}"#, #"{"a":-}"#, #"{"a":1e}"#, #"{"a":tru}"#,
        #"{"a":"\x"}"#, #"{"a":"\ud800"}"#, #"{"a":"\udc00"}"#, #"{"a":"\ud800\u0041"}"#, #"{"a":"\u12"}"#,
        "{\"a\":\"\u{01}\"}", #"{"a":1} x"#, #"{"a":1}{}"#, #"{"a":"abc}"#, #"{"a":[1,]}"#, #"{"a":[}"#,
        #"{"a" : [ 1 , 2 ] , "b" : { } }"#, #"{"a":"\"}"#, #"{"a":"\\"}"#,
    ]

    @Test func agreesWithTheParser() {
        for text in Self.documents {
            let bytes = Array(text.utf8)
            #expect(JSONValue.isObjectDocument(bytes) == Self.parsesToObject(bytes), "\(text)")
        }
    }

    @Test func agreesOnRawUTF8() {
        let cases: [[UInt8]] = [
            [0xC3, 0xA9], [0xC0, 0x80], [0xC1, 0xBF], [0xE0, 0x80, 0x80], [0xE0, 0xA0, 0x80], [0xED, 0xA0, 0x80],
            [0xED, 0x9F, 0xBF], [0xF0, 0x8F, 0xBF, 0xBF], [0xF0, 0x90, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF],
            [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xFF], [0x80], [0xC3], [0xE2, 0x82], [0xC3, 0x22],
            [0xC3, 0x5C, 0x6E], [0xEF, 0xBF, 0xBF],
        ]
        for raw in cases {
            let bytes = Array(#"{"k":""#.utf8) + raw + Array(#""}"#.utf8)
            #expect(JSONValue.isObjectDocument(bytes) == Self.parsesToObject(bytes), "\(raw)")
        }
    }

    @Test func agreesOnDepth() {
        for n in [1, 2, 3, 4, 255, 256, 257] {
            let bytes = Array((String(repeating: #"{"a":"#, count: n) + "1" + String(repeating: "}", count: n)).utf8)
            #expect(JSONValue.isObjectDocument(bytes) == Self.parsesToObject(bytes), "depth \(n)")
            #expect(JSONValue.isObjectDocument(bytes, maxDepth: 3) == Self.parsesToObject(bytes, maxDepth: 3))
        }
    }

    /// Random edits of valid payloads: the scanner and the parser must never disagree.
    @Test func agreesOnMutations() {
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return seed >> 33
        }
        let alphabet =
            Array(#"{}[]",:\u0123456789abcdefE+-.tnrl "#.utf8) + [0x00, 0x1F, 0x7F, 0x80, 0xC3, 0xE2, 0xF0, 0xFF]
        let seeds = Self.documents.prefix(5).map { Array($0.utf8) }
        for round in 0..<20_000 {
            var bytes = seeds[round % seeds.count]
            for _ in 0..<(1 + Int(next() % 3)) {
                let i = Int(next() % UInt64(bytes.count + 1))
                switch next() % 3 {
                case 0: bytes.insert(alphabet[Int(next() % UInt64(alphabet.count))], at: i)
                case 1: if i < bytes.count { bytes.remove(at: i) }
                default: if i < bytes.count { bytes[i] = alphabet[Int(next() % UInt64(alphabet.count))] }
                }
            }
            #expect(JSONValue.isObjectDocument(bytes) == Self.parsesToObject(bytes), "\(bytes)")
        }
    }

    /// The eight-at-a-time search finds the first byte that needs a look, for every byte value in every
    /// lane, among the plain bytes nearest the limits (a borrow must not hide or invent one).
    @Test func findsTheFirstSpecialByteOfAWord() {
        func special(_ b: UInt8) -> Bool { b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") || b < 0x20 || b >= 0x80 }
        for filler: UInt8 in [0x20, 0x21, 0x23, 0x5B, 0x5D, 0x61, 0x7F] {
            // Alone, or followed in the last lane by a zero byte or a quote.
            for last: UInt8? in [nil, 0x00, 0x22] {
                for lane in 0..<8 {
                    for value in 0...255 {
                        var word = [UInt8](repeating: filler, count: 8)
                        word[lane] = UInt8(value)
                        if let last, lane < 7 { word[7] = last }
                        let expected = special(UInt8(value)) ? lane : (last != nil && lane < 7 ? 7 : 8)
                        let loaded = UInt64(littleEndian: word.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) })
                        let first = JSONScanner.specialBytes(loaded).trailingZeroBitCount >> 3
                        #expect(first == expected, "\(word)")
                    }
                }
            }
        }
    }

    /// Long strings, skipped eight bytes at a time, with a byte that needs a look at each position and
    /// the document ending at each length: the scanner must agree with the parser everywhere.
    @Test func agreesOnLongStringsAtEveryOffset() {
        let inserts: [[UInt8]] = [
            [0x22], [0x5C], [0x5C, 0x22], [0x5C, 0x6E], [0x5C, 0x78], [0x00], [0x1F], [0x7F], [0x80], [0xC3, 0xA9],
            [0xC3], [0xF0, 0x9F, 0x98, 0x80], [0xFF], [0x20],
        ]
        for insert in inserts {
            for length in 0..<20 {
                for at in 0...length {
                    var body = [UInt8](repeating: UInt8(ascii: "x"), count: length)
                    body.insert(contentsOf: insert, at: at)
                    let whole = Array(#"{"k":""#.utf8) + body + Array(#""}"#.utf8)
                    #expect(JSONValue.isObjectDocument(whole) == Self.parsesToObject(whole), "\(whole)")
                    // Cut short inside the string: never complete.
                    let cut = Array(whole.dropLast(2))
                    #expect(JSONValue.isObjectDocument(cut) == Self.parsesToObject(cut), "\(cut)")
                }
            }
        }
    }
}
