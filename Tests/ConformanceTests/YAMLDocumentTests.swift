import Foundation
import JSON
import Testing

@testable import Conformance

@Suite struct YAMLDocumentTests {
    @Test func keepsPositionsOfEveryNode() throws {
        let root = try YAMLDocument.parse(
            "id: x\nsteps:\n  - create: {as: a}\n    # comment\n  - get: 1\n", file: "f.yaml")
        #expect(root.mark == YAMLMark(line: 1, column: 1))
        let entries = try #require(root.entries)
        #expect(entries[1].key == "steps" && entries[1].keyMark == YAMLMark(line: 2, column: 1))
        let steps = try #require(entries[1].value.items)
        #expect(steps[0].mark == YAMLMark(line: 3, column: 5))
        #expect(steps[0]["create"]?.mark == YAMLMark(line: 3, column: 13))
        #expect(steps[0]["create"]?.entries?[0].keyMark == YAMLMark(line: 3, column: 14))
        #expect(steps[1]["get"]?.mark == YAMLMark(line: 5, column: 10))
    }

    @Test func quotingDecidesScalarTypes() throws {
        let root = try YAMLDocument.parse(
            "a: 1\nb: \"1\"\nc: '1'\nd: true\ne: ~\nf: 1.5e3\ng: 0x1F\nh: !!str 12\ni: 007\nj: |\n  text\nk: -3\nl:\n")
        #expect(root.json["a"] == .number("1"))
        #expect(root.json["b"] == .string("1"))
        #expect(root.json["c"] == .string("1"))
        #expect(root.json["d"] == .bool(true))
        #expect(root.json["e"] == .null)
        #expect(root.json["f"] == .number("1.5e3"))
        #expect(root.json["g"] == .string("0x1F"))
        #expect(root.json["h"] == .string("12"))
        #expect(root.json["i"] == .string("007"))
        #expect(root.json["j"] == .string("text\n"))
        #expect(root.json["k"] == .number("-3"))
        #expect(root.json["l"] == .null)
        if case .scalar(_, let style) = root["b"]?.content { #expect(style == .doubleQuoted) } else { Issue.record() }
    }

    @Test func emptyInputIsNull() throws {
        #expect(try YAMLDocument.parse("").json == .null)
        #expect(try YAMLDocument.parse("# only a comment\n").json == .null)
    }

    @Test func duplicateKeysAreErrors() {
        let error = #expect(throws: YAMLError.self) { try YAMLDocument.parse("a: 1\nb: 2\na: 3\n", file: "d.yaml") }
        #expect(error?.description == "d.yaml:3:1: duplicate key 'a' (first defined at 1:1)")
    }

    @Test func anchorsAliasesAndOtherDocumentsAreRefused() {
        let anchor = #expect(throws: YAMLError.self) { try YAMLDocument.parse("a: &x 1\nb: *x\n") }
        #expect(anchor?.message.contains("anchors") == true)
        let alias = #expect(throws: YAMLError.self) { try YAMLDocument.parse("b: *x\n") }
        #expect(alias != nil)
        let docs = #expect(throws: YAMLError.self) { try YAMLDocument.parse("a: 1\n---\nb: 2\n") }
        #expect(docs?.mark.line == 2)
        let tag = #expect(throws: YAMLError.self) { try YAMLDocument.parse("a: !custom 1\n") }
        #expect(tag?.message.contains("not supported") == true)
        let key = #expect(throws: YAMLError.self) { try YAMLDocument.parse("? [1]\n: 2\n") }
        #expect(key?.message.contains("keys") == true)
    }

    @Test func tabsAreExplained() {
        let error = #expect(throws: YAMLError.self) { try YAMLDocument.parse("a:\n\tb: 1\n", file: "t.yaml") }
        #expect(error?.file == "t.yaml")
        #expect(error?.mark.line == 2)
        #expect(error?.message.contains("tabs") == true)
    }

    @Test func badIndentationNamesLineAndColumn() {
        let error = #expect(throws: YAMLError.self) { try YAMLDocument.parse("a:\n  b: 1\n c: 2\n", file: "i.yaml") }
        #expect(error?.mark.line == 3)
        #expect(error?.description.hasPrefix("i.yaml:3:") == true)
    }

    @Test func deepNestingIsRefused() {
        let text = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        let error = #expect(throws: YAMLError.self) { try YAMLDocument.parse(text) }
        #expect(error?.message.contains("nest") == true)
    }

    /// Truncations of a real file, tabs, stray characters and random bytes: each parses or throws, never traps.
    @Test func malformedInputNeverTraps() throws {
        let sample = Array(
            "id: a.b\ntitle: \"x\"\nsteps:\n  - race:\n      - answer: {device: p, call: $c.callId}\n    expect: {winners: 1}\n  - 'q': |\n      text\n"
                .utf8)
        var inputs: [[UInt8]] = (0...sample.count).map { Array(sample[0..<$0]) }
        inputs += [
            [0xFF, 0xFE, 0x00], [0xC3], [0x00, 0x01, 0x02], Array("a: \"unterminated\n".utf8),
            Array("- [a, {b: ]".utf8),
        ]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            inputs.append(
                (0..<Int.random(in: 0...64, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator)
                })
            var mutated = sample
            for _ in 0..<3 {
                mutated[Int.random(in: 0..<mutated.count, using: &generator)] = UInt8.random(
                    in: 0...255, using: &generator)
            }
            inputs.append(mutated)
        }
        var failures = 0
        for input in inputs {
            do { _ = try YAMLDocument.parse(input, file: "fuzz.yaml") } catch {
                failures += 1
                #expect(error.file == "fuzz.yaml")
                #expect(error.mark.line >= 1 && error.mark.column >= 1)
            }
        }
        #expect(failures > 0)
    }
}
