import Foundation
import Testing

@testable import Reports

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Every report names the run's profile, and JSON reports written before profiles existed still read.
@Suite struct ReportProfileTests {
    typealias F = ReportFixtures

    static var dialstack: RunResult {
        var run = F.mixed
        run.profile = "dialstack"
        return run
    }

    @Test func theDefaultIsCallx() {
        #expect(F.mixed.profile == "callx")
    }

    @Test func everyHeaderNamesTheProfile() throws {
        let run = Self.dialstack
        let plain = ConsoleStyle(colors: false)
        let header = ConsoleReport.header(
            run.ringcheckVersion, profile: run.profile, suite: run.suite, target: run.target, startedAt: run.startedAt,
            style: plain)
        #expect(header.hasPrefix("ringcheck 0.1.0 · profile dialstack · suite callx 0.1.0 · target "))
        #expect(ConsoleReport.summary(run, style: plain).contains(header + "\nVerdict: "))

        let doc = try XMLDocument(data: Data(JUnitReport.render(run).utf8))
        let property = try doc.nodes(forXPath: "/testsuites/testsuite/properties/property[@name='profile']/@value")
        #expect(property.map(\.stringValue) == ["dialstack"])

        let html = HTMLReport.render(run)
        #expect(html.contains("<title>ringcheck · profile dialstack · suite callx 0.1.0: non-conformant</title>"))
        #expect(html.contains("<tr><th>Profile</th><td>dialstack</td></tr>"))

        #expect(MarkdownReport.render(run).hasPrefix("## ringcheck · profile dialstack · suite callx 0.1.0: ❌"))
    }

    @Test func aHostileProfileNameStaysText() throws {
        var run = F.mixed
        run.profile = F.hostile
        let console = ConsoleReport.summary(run, style: ConsoleStyle(colors: false))
        #expect(!console.contains("\u{1B}"))
        #expect(!HTMLReport.render(run).contains("<script>"))
        _ = try XMLDocument(data: Data(JUnitReport.render(run).utf8))
        let title = try #require(MarkdownReport.render(run).split(separator: "\n").first)
        #expect(
            title.hasPrefix("## ringcheck · profile &lt;script&gt;alert('x')&lt;/script&gt; & \"q\" \\| \\`code\\` "))
    }

    @Test func theJSONReportCarriesTheProfile() throws {
        let text = JSONReport.render(Self.dialstack)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["profile"] as? String == "dialstack")
        #expect(try JSONReport.decode(Data(text.utf8)).profile == "dialstack")
    }

    @Test func aReportWithoutAProfileReadsAsCallx() throws {
        let text = JSONReport.render(Self.dialstack)
        var object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        object.removeValue(forKey: "profile")
        let old = try JSONSerialization.data(withJSONObject: object)
        let decoded = try JSONReport.decode(old)
        #expect(decoded.profile == "callx")
        #expect(decoded.scenarios == Self.dialstack.redacted().scenarios)
    }

    @Test func mergingKeepsTheProfileAndRefusesMixedOnes() throws {
        var one = F.run([F.scenario("a.one", .pass, requirements: ["CALLX-ARB-1"])], shard: Shard(index: 1, count: 2))
        var two = F.run([F.scenario("b.two", .pass, requirements: ["CALLX-ARB-1"])], shard: Shard(index: 2, count: 2))
        one.profile = "dialstack"
        two.profile = "dialstack"
        #expect(try ReportMerger.merge([one, two]).profile == "dialstack")
        two.profile = "callx"
        let error = #expect(throws: ReportMergeError.self) { try ReportMerger.merge([one, two]) }
        #expect(error?.message == "shards ran different profiles: dialstack and callx")
    }

    @Test func oldShardReportsMergeAsCallx() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ringcheck-profile-\(UUID())").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var files: [String] = []
        for (i, id) in ["a.one", "b.two"].enumerated() {
            let shard = F.run(
                [F.scenario(id, .pass, requirements: ["CALLX-ARB-1"])], shard: Shard(index: i + 1, count: 2))
            var object = try #require(
                try JSONSerialization.jsonObject(with: Data(JSONReport.render(shard).utf8)) as? [String: Any])
            object.removeValue(forKey: "profile")
            let path = dir + "/shard\(i + 1).json"
            try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: path))
            files.append(path)
        }
        let merged = try ReportMerger.merge(files: files)
        #expect(merged.profile == "callx")
        #expect(merged.scenarios.map(\.id) == ["a.one", "b.two"])
    }
}
