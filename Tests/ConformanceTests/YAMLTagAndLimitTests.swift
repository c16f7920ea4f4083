import Foundation
import JSON
import TestSupport
import Testing

@testable import AllProfiles
@testable import Conformance

/// Explicit tags must fit their values, long values are cut in messages, and files over the size
/// limit are refused before they are parsed.
@Suite(.cpuBound) struct YAMLTagAndLimitTests {
    static var users: String { TargetFileLoaderTests.users }

    func targetErrors(_ text: String) -> [String] { TargetFileLoaderTests().errors(text) }

    // MARK: Tags

    @Test func aTagTheValueContradictsIsAnErrorWithItsPlaceAndField() {
        let found = targetErrors(
            """
            baseURL: http://127.0.0.1:8080
            users:
              a: {userId: !!int user-a, auth: {bearer: ta}}
              b: {userId: ub, auth: {bearer: tb}}
              c: {userId: uc, auth: {bearer: tc}}
            """)
        #expect(found.count == 1)
        #expect(
            found.first?.hasPrefix(
                "t.yaml:3:15: users.a.userId: the tag !!int does not fit 'user-a' (!!int tags a whole number such as 42)"
            )
                == true, "\(found)")
    }

    @Test func tagsThatFitDecideTheType() throws {
        let root = try YAMLDocument.parse(
            "a: !!int 12\nb: !!int \"12\"\nc: !!str 12\nd: !!float 1.5\ne: !!bool true\nf: !!null ~\ng: !!map {x: 1}\nh: !!seq [1]\ni: !!float 3\n"
        )
        #expect(root.json["a"] == .number("12"))
        #expect(root.json["b"] == .number("12"))
        #expect(root.json["c"] == .string("12"))
        #expect(root.json["d"] == .number("1.5"))
        #expect(root.json["e"] == .bool(true))
        #expect(root.json["f"] == .null)
        #expect(root.json["g"] == ["x": 1])
        #expect(root.json["h"] == [1])
        #expect(root.json["i"] == .number("3"))
    }

    @Test func everyContradictionIsRefused() {
        let cases: [(String, String)] = [
            ("a: !!int 1.5\n", "a: the tag !!int does not fit '1.5'"),
            ("a: !!int yes\n", "a: the tag !!int does not fit 'yes'"),
            ("a: !!float x\n", "a: the tag !!float does not fit 'x'"),
            ("a: !!bool yes\n", "a: the tag !!bool does not fit 'yes'"),
            ("a: !!null 0\n", "a: the tag !!null does not fit '0'"),
            ("a: !!map [1]\n", "a: the tag !!map does not fit a sequence"),
            ("a: !!seq {b: 1}\n", "a: the tag !!seq does not fit a mapping"),
            ("a: !!str [1]\n", "a: the tag !!str does not fit a sequence"),
            ("a: [1, !!bool 2]\n", "a[1]: the tag !!bool does not fit '2'"),
            ("a: !!map x\n", "a: the tag !!map does not fit 'x'"),
        ]
        for (text, message) in cases {
            let error = #expect(throws: YAMLError.self) { try YAMLDocument.parse(text, file: "g.yaml") }
            #expect(error?.message.hasPrefix(message) == true, "\(text): \(error?.message ?? "no error")")
            #expect(error?.mark.line == 1)
        }
    }

    // MARK: Long values in messages

    @Test func aHugeValueIsCutInMessages() throws {
        let huge = String(repeating: "x", count: 1_000_000)
        let target = targetErrors("baseURL: \(huge)\n\(Self.users)")
        #expect(target.count == 1)
        #expect((target.first?.count ?? .max) < 300, "\(target.first?.prefix(300) ?? "")")
        #expect(target.first?.contains("'" + String(repeating: "x", count: 80) + "… (1000000 bytes)'") == true)

        let key = targetErrors("baseURL: http://x\n\(huge): 1\n\(Self.users)")
        #expect(key.count == 1)
        #expect((key.first?.count ?? .max) < 300)

        let tagged = #expect(throws: YAMLError.self) { try YAMLDocument.parse("name: !!int \(huge)\n") }
        #expect((tagged?.description.count ?? .max) < 400)
        #expect(tagged?.message.contains("… (1000000 bytes)") == true)

        let duplicate = #expect(throws: YAMLError.self) { try YAMLDocument.parse("\(huge): 1\n\(huge): 2\n") }
        #expect((duplicate?.description.count ?? .max) < 300)
    }

    @Test func aHugeScenarioValueIsCutInMessages() throws {
        let dir = TemporaryDirectory()
        try dir.write("suite.yaml", "id: callx\nversion: '1'\ntitle: t\nseed: s.txt\nsections: [One]\n")
        try dir.write(
            "requirements.yaml",
            "requirements:\n  - {id: CALLX-ARB-1, level: SHOULD, statement: one winner, section: One}\n")
        let huge = String(repeating: "Y", count: 1_000_000)
        try dir.write(
            "s.yaml", "id: \(huge)\ntitle: t\nrequirements: [CALLX-ARB-1]\nsteps:\n  - get: {as: a, call: x}\n")
        let error = #expect(throws: SuiteLoadError.self) { try Suite.load(directory: dir.path) }
        #expect(error?.errors.count == 1)
        #expect((error?.description.count ?? .max) < 400 + dir.path.count)
        #expect(error?.description.contains("… (1000000 bytes)") == true)
    }

    @Test func aTargetNameOrScenarioTitleThatWouldBuryTheReportsIsRefused() throws {
        let long = String(repeating: "N", count: 201)
        let found = targetErrors("name: \(long)\nbaseURL: http://x\n\(Self.users)")
        #expect(found.count == 1)
        #expect(
            found.first?.hasPrefix(
                "t.yaml:1:7: name: '" + String(repeating: "N", count: 80) + "… (201 bytes)' is too long") == true,
            "\(found)")
        #expect(targetErrors("name: \(String(repeating: "N", count: 200))\nbaseURL: http://x\n\(Self.users)").isEmpty)
        var decoder = ScenarioDecoder(file: "s.yaml", catalogue: nil)
        _ = decoder.decodeFile(
            try YAMLDocument.parse(
                "id: a.b\ntitle: \(long)\nrequirements: [X-A-1]\nsteps:\n  - get: {as: a, call: x}\n"))
        #expect(decoder.d.errors.map(\.field) == ["title"])
    }

    @Test func shortValuesAreQuotedWhole() {
        #expect(DiagnosticText.shortened("'abc' is not one of 'x', 'y'") == "'abc' is not one of 'x', 'y'")
        let long = String(repeating: "é", count: 100)
        #expect(DiagnosticText.short(long) == String(repeating: "é", count: 80) + "… (200 bytes)")
    }

    // MARK: Size

    @Test func aFileOverTheLimitIsRefusedNamingIt() throws {
        let dir = TemporaryDirectory()
        let line = "- " + String(repeating: "v", count: 1_000) + "\n"
        let big = try dir.write(
            "big.yaml", String(repeating: line, count: YAMLDocument.maxBytes / line.utf8.count + 10))
        let error = #expect(throws: YAMLError.self) { try YAMLDocument.parse(contentsOfFile: big) }
        #expect(error?.file == big)
        #expect(error?.mark == YAMLMark(line: 1, column: 1))
        #expect(error?.message.contains("at most 4.0 MiB") == true, "\(error?.message ?? "")")
        let target = #expect(throws: SuiteLoadError.self) { try TargetFile.load(path: big) }
        #expect(target?.description.hasPrefix(big + ":1:1: the file is") == true)
        // Just under the limit still loads.
        let fits = try dir.write(
            "fits.yaml", String(repeating: line, count: YAMLDocument.maxBytes / line.utf8.count - 1))
        #expect(
            try YAMLDocument.parse(contentsOfFile: fits).items?.count == YAMLDocument.maxBytes / line.utf8.count - 1)
    }
}
