import Testing

@testable import JSON

@Suite struct JSONValueTests {
    @Test func parsesAndKeepsNumberLiterals() throws {
        let v = try JSONValue.parse(
            #"{"a": 1, "b": 1.0, "c": 9007199254740993, "d": -2.5e3, "e": [true, false, null]}"#)
        #expect(v["a"]?.isIntegerLiteral == true)
        #expect(v["b"]?.isIntegerLiteral == false)
        #expect(v["c"]?.int64Value == 9_007_199_254_740_993)
        #expect(v["d"]?.doubleValue == -2500)
        #expect(v.value(atPath: "e.2") == .null)
    }

    @Test func keepsOrderAndDuplicateKeys() throws {
        let v = try JSONValue.parse(#"{"z":1,"a":2,"z":3}"#)
        #expect(v.objectValue?.map(\.key) == ["z", "a", "z"])
        #expect(v["z"] == 1)
    }

    @Test func decodesEscapesAndSurrogates() throws {
        let v = try JSONValue.parse(#"["a\"b\\c\/\n\u00e9\ud83d\ude00"]"#)
        #expect(v[0]?.stringValue == "a\"b\\c/\né😀")
    }

    @Test(arguments: [
        "", "{", "[1,]", "{\"a\" 1}", "01", "1.", "-", "\"abc", "\"\\x\"", "tru", "[1] x", "\"\\ud800\"", "{\"a\":1,}",
        "\"a\u{01}b\"",
    ])
    func rejectsInvalidDocuments(_ text: String) {
        #expect(throws: JSONParseError.self) { try JSONValue.parse(text) }
    }

    @Test func rejectsInvalidUTF8() {
        #expect(throws: JSONParseError.self) { try JSONValue.parse([0x22, 0xFF, 0x22]) }
    }

    @Test func limitsDepth() {
        let deep = String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
        #expect(throws: JSONParseError.self) { try JSONValue.parse(deep) }
    }

    @Test func roundTrips() throws {
        let text = #"{"s":"a\"\n\u0001","n":[1,2.5,-3e2],"o":{"x":null,"y":true}}"#
        let v = try JSONValue.parse(text)
        #expect(v.serialized() == text)
        #expect(try JSONValue.parse(v.serialized(pretty: true)) == v)
    }

    @Test func sortsKeysWhenAsked() {
        let v: JSONValue = ["b": 1, "a": "x"]
        #expect(v.serialized(sortedKeys: true) == #"{"a":"x","b":1}"#)
    }
}
