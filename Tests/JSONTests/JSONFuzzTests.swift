import TestSupport
import Testing

@testable import JSON

/// Bounded random input for the JSON parser and scanner (a fixed seed and count, so CI runs the same
/// few thousand inputs every time): each input parses to a value or throws a `JSONParseError` with an
/// offset inside the input; never a trap. A value serializes and parses back to itself, and the
/// scanner agrees with the parser about which inputs are objects.
@Suite struct JSONFuzzTests {
    static let samples = [
        #"{"aps":{"content-available":1},"callx":{"type":"call.invited","callId":"c-1","expiresAtMs":1790000000000}}"#,
        #"{"message":{"token":"t","android":{"priority":"high","ttl":"29s"},"data":{"callx":"{\"a\":[1,2.5e-3,-0]}"}}}"#,
        #"[null,true,false,"\u00e9\ud83d\ude00\n\t\\\"",{"":[]},[[[]]],1E+2,0.0]"#,
    ].map { Array($0.utf8) }

    /// Bytes JSON gives meaning to, so mutations reach deep into the grammar.
    static let structural = Array(#"{}[]:,"\\u0123456789.eE+-tfnrl "#.utf8) + [0x00, 0x1F, 0x7F, 0xC3, 0xFF, 0xED]

    static func mutate(_ input: [UInt8], _ g: inout SeededGenerator) -> [UInt8] {
        var out = input
        for _ in 0..<Int.random(in: 1...4, using: &g) {
            let byte =
                Bool.random(using: &g)
                ? structural.randomElement(using: &g)! : UInt8.random(in: 0...255, using: &g)
            let at = out.isEmpty ? 0 : Int.random(in: 0..<out.count, using: &g)
            switch Int.random(in: 0..<4, using: &g) {
            case 0 where !out.isEmpty: out[at] = byte
            case 1: out.insert(byte, at: at)
            case 2 where !out.isEmpty: out.remove(at: at)
            default: out = Array(out.prefix(at))
            }
        }
        return out
    }

    static func inputs(count: Int, seed: UInt64) -> [[UInt8]] {
        var g = SeededGenerator(seed: seed)
        var out: [[UInt8]] = []
        for i in 0..<count {
            switch i % 4 {
            case 0:
                out.append((0..<Int.random(in: 0...48, using: &g)).map { _ in UInt8.random(in: 0...255, using: &g) })
            case 1:
                out.append(
                    (0..<Int.random(in: 0...64, using: &g)).map { _ in structural.randomElement(using: &g)! })
            default: out.append(mutate(samples.randomElement(using: &g)!, &g))
            }
        }
        let deep = Int.random(in: 200...400, using: &g)
        out.append(Array(repeating: UInt8(ascii: "["), count: deep) + Array(repeating: UInt8(ascii: "]"), count: deep))
        out.append(Array(repeating: UInt8(ascii: "{"), count: 100_000))
        return out
    }

    @Test func randomInputParsesOrFailsWithAnOffset() throws {
        var values = 0
        var errors = 0
        for input in Self.inputs(count: 4_000, seed: 0x5EED_0001) {
            do {
                let value = try JSONValue.parse(input)
                values += 1
                #expect(try JSONValue.parse(value.bytes()) == value, "round trip of \(input)")
                if case .object = value {
                    #expect(JSONValue.isObjectDocument(input), "scanner disagrees on \(input)")
                } else {
                    #expect(!JSONValue.isObjectDocument(input), "scanner disagrees on \(input)")
                }
            } catch {
                errors += 1
                #expect(error.offset >= 0 && error.offset <= input.count, "offset of \(input)")
                #expect(!error.message.isEmpty)
                #expect(!JSONValue.isObjectDocument(input), "scanner accepts what the parser refuses: \(input)")
            }
        }
        // The mix reaches both outcomes, so neither side is vacuous.
        #expect(values > 100)
        #expect(errors > 1_000)
    }
}
