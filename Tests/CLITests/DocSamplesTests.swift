import Foundation
import JSON
import TestSupport
import Testing

/// The sample outputs in docs/ come from real runs (`scripts/refresh-doc-samples.sh` writes them): their
/// scenario counts are the suite's, and every line of a sample reads as the same line of a real run does,
/// once the numbers, IDs and times that change from run to run are set aside.
@Suite struct DocSamplesTests {
    /// The fenced block right after `<!-- sample: NAME -->` in `page`, as lines.
    static func sample(_ name: String, in page: String) throws -> [String] {
        let lines = try MarkdownDocument(page).lines.map(String.init)
        let marker = try #require(lines.firstIndex(of: "<!-- sample: \(name) -->"), "\(page) has no sample \(name)")
        try #require(lines[marker + 1] == "```", "\(page): the \(name) sample is not a fenced block")
        let end = try #require(lines[(marker + 2)...].firstIndex(of: "```"))
        return Array(lines[(marker + 2)..<end])
    }

    /// A console line with what changes from run to run made constant: UUIDs, numbers, report folders.
    static func normalized(_ line: String) -> String {
        var text = line
        for (pattern, stand) in [
            ("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "UUID"),
            ("[0-9]+([.:][0-9]+)*", "N"),
            ("Reports: .*", "Reports: …"),
            // Which scenarios follow the first one depends on which finished in time to capture a push.
            ("also in: .* and ", "also in: … and "),
        ] {
            text = text.replacingOccurrences(of: pattern, with: stand, options: .regularExpression)
        }
        return text
    }

    /// The number of scenarios in the built-in callx suite, as `ringcheck list --json` counts them.
    static func listedScenarios() async throws -> Int {
        let r = try await RingcheckBinary.run(["list", "--json"])
        return try #require(JSONValue.parse(Array(r.stdout.utf8))["count"]?.intValue)
    }

    /// Whether `line` is the run's count line (`47 scenarios: 47 pass in 10.52s`).
    static func isCountLine(_ line: String) -> Bool {
        line.range(of: "^[0-9]+ scenarios: ", options: .regularExpression) != nil
    }

    /// The first number after `prefix` in `line`.
    static func number(after prefix: String, in line: String) -> Int? {
        guard let range = line.range(of: prefix) else { return nil }
        return Int(line[range.upperBound...].prefix(while: \.isNumber))
    }

    /// Every line of `sample` but the progress lines (which name whichever scenarios finished first and last)
    /// and the "…" that stands for the others reads as a line of `output`; the progress lines count to `total`.
    static func expectSample(_ sample: [String], readsAs output: String, total: Int, _ name: String) {
        let real = Set(output.split(separator: "\n", omittingEmptySubsequences: false).map { normalized(String($0)) })
        for line in sample where line != "…" {
            if line.hasPrefix("[") {
                #expect(line.contains("/\(total)]"), "\(name): '\(line)' does not count to \(total) scenarios")
            } else {
                #expect(real.contains(normalized(line)), "\(name): a real run prints no line like '\(line)'")
            }
        }
    }

    @Test func theFirstRunSampleCountsEveryScenarioOfTheSuite() async throws {
        let sample = try Self.sample("first-run", in: "docs/getting-started.md")
        let total = try await Self.listedScenarios()
        let counts = try #require(sample.first { Self.isCountLine($0) })
        #expect(counts.hasPrefix("\(total) scenarios: \(total) pass"), "the suite has \(total) scenarios: \(counts)")
        #expect(sample.contains("Verdict: conformant (exit 0)"))
        // The real run's lines are checked by RunCommandTests, whose whole-suite run prints them.
    }

    @Test func theConsoleSampleIsARealRunOfItsDefect() async throws {
        let sample = try Self.sample("apns-expiration-console", in: "docs/exit-codes-and-reports.md")
        let total = try await Self.listedScenarios()
        // Its own arithmetic: "failed in N scenarios" is the first one, the ones named, and "K more".
        let header = try #require(sample.first { $0.hasPrefix("── MUST CALLX-APNS-5 failed in ") })
        let failedIn = try #require(Self.number(after: "failed in ", in: header))
        let alsoIn = try #require(sample.first { $0.contains("also in: ") })
        let named = alsoIn.components(separatedBy: " and ").first!.split(separator: ",").count
        #expect(1 + named + (Self.number(after: " and ", in: alsoIn) ?? -1) == failedIn, "\(header)\n\(alsoIn)")
        let counts = try #require(sample.first { Self.isCountLine($0) })
        #expect(counts.hasPrefix("\(total) scenarios: \(total - failedIn) pass, \(failedIn) fail"), "\(counts)")

        let r = try await RingcheckBinary.runSuite(
            [
                "run", "--reference-defect", "apns-expiration-30", "--format", "json", "--report-dir",
                TemporaryDirectory().path,
            ],
            timeout: 180, environment: ProcessInfo.processInfo.environment.merging(["NO_COLOR": "1"]) { $1 })
        #expect(r.status == 1, "\(r.stdout.suffix(3000))\(r.stderr)")
        Self.expectSample(sample, readsAs: r.stdout, total: total, "the apns-expiration-30 sample")
    }

    @Test func theNormalizationKeepsWordsAndDropsWhatChanges() {
        #expect(
            Self.normalized("47 scenarios: 11 pass, 36 fail in 11.20s")
                == Self.normalized("47 scenarios: 13 pass, 34 fail in 9.8s"))
        #expect(Self.normalized("call 6d27f459-475e-4fd0-a592-52a904afc519 within 5s") == "call UUID within Ns")
        #expect(Self.normalized("Verdict: conformant (exit 0)") != Self.normalized("Verdict: non-conformant (exit 1)"))
    }
}
