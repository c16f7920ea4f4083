import Foundation
import JSON
import TestSupport
import Testing

/// `--profile` on run, list and explain, a target file's `profile:`, and `run --profile all`.
@Suite struct ProfileOptionTests {
    static let users = """
        users:
          a: {userId: ua, auth: {bearer: ta}}
          b: {userId: ub, auth: {bearer: tb}}
          c: {userId: uc, auth: {bearer: tc}}
        """

    static var callxSuite: String {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path + "/suites/callx"
    }

    @Test func anUnknownProfileIsAUsageErrorWithASuggestion() async throws {
        for command in [["run"], ["list"], ["explain", "CALLX-APNS-5"]] {
            let r = try await RingcheckBinary.run(command + ["--profile", "calx"], timeout: 30)
            #expect(r.status == 2, "\(command): \(r.stderr)")
            #expect(r.stderr.contains("--profile: unknown profile 'calx' (did you mean 'callx'?)"), "\(r.stderr)")
            #expect(!r.stdout.contains("Verdict"))
        }
        let all = try await RingcheckBinary.run(["list", "--profile", "all"], timeout: 30)
        #expect(all.status == 2, "list takes no 'all': \(all.stderr)")
    }

    @Test func theProfilePicksItsSuiteForListAndExplain() async throws {
        let list = try await RingcheckBinary.run(["list", "--profile", "callx"])
        let plain = try await RingcheckBinary.run(["list"])
        #expect(list.status == 0 && list.stdout == plain.stdout && list.stdout.contains("CALLX-ARB-1 MUST"))
        let explain = try await RingcheckBinary.run(["explain", "CALLX-APNS-5", "--profile", "callx"])
        #expect(explain.status == 0 && explain.stdout.contains("payload.apns-invitation"))
        let help = try await RingcheckBinary.run(["run", "--help"])
        #expect(
            help.stdout.contains("--profile NAME") && help.stdout.contains("--profile all runs every"), "\(help.stdout)"
        )
        #expect(help.stdout.contains("callx: ") && help.stdout.contains("apns-expiration-30"))
    }

    @Test func aSuiteOfAnotherProfileIsRefused() async throws {
        let dir = TemporaryDirectory()
        let shipped = Self.callxSuite
        for name in ["requirements.yaml", "basic.yaml"] {
            try dir.write(name, try String(contentsOfFile: shipped + "/" + name, encoding: .utf8))
        }
        // A suite whose suite.yaml names a profile that is not registered cannot be loaded at all.
        let info = try String(contentsOfFile: shipped + "/suite.yaml", encoding: .utf8)
        try dir.write("suite.yaml", info.replacingOccurrences(of: "profile: callx", with: "profile: nosuch"))
        let r = try await RingcheckBinary.run(["list", "--suite", dir.path])
        #expect(r.status == 2)
        #expect(r.stderr.contains("suite.yaml:4:10: profile: unknown profile 'nosuch'"), "\(r.stderr)")
    }

    @Test func theReferenceDefectMustBeOneOfTheProfiles() async throws {
        let r = try await RingcheckBinary.run(["run", "--profile", "callx", "--reference-defect", "nope"], timeout: 30)
        #expect(r.status == 2)
        #expect(r.stderr.contains("unknown defect 'nope'; the defects are: "), "\(r.stderr)")
        #expect(r.stderr.contains("apns-expiration-30"))
    }

    @Test func aTargetFilesProfileIsChecked() async throws {
        let dir = TemporaryDirectory()
        let unknown = try dir.write(
            "unknown.yaml", "profile: dialstak\nbaseURL: http://127.0.0.1:9\n\(Self.users)\n")
        let bad = try await RingcheckBinary.run(["run", "--target", unknown, "--report-dir", dir.file("r1")])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("unknown.yaml:1:10: profile: unknown profile 'dialstak'"), "\(bad.stderr)")
        // Agreeing with --profile, the file is accepted: the run goes on to the (closed) backend and is inconclusive.
        let agreeing = try dir.write("callx.yaml", "profile: callx\nbaseURL: http://127.0.0.1:9\n\(Self.users)\n")
        let ok = try await RingcheckBinary.run(
            ["run", "--target", agreeing, "--profile", "callx", "basic.*", "--report-dir", dir.file("r2")],
            timeout: 60)
        #expect(ok.status == 3, "\(ok.stderr)")
        #expect(!ok.stderr.contains("profile"), "\(ok.stderr)")
    }

    @Test func allTakesNoTargetSuiteOrScenarios() async throws {
        for extra in [
            ["--target", "t.yaml"], ["--suite", "callx"], ["basic.*"], ["--reference-defect", "racy-answer"],
        ] {
            let r = try await RingcheckBinary.run(["run", "--profile", "all"] + extra, timeout: 30)
            #expect(r.status == 2, "\(extra): \(r.stderr)")
            #expect(r.stderr.contains("--profile all runs every profile's"), "\(r.stderr)")
        }
    }

    /// Every registered profile against its embedded reference: one verdict line each, reports in a
    /// sub-folder each, one combined junit.xml and summary.md naming every profile, the worst exit code.
    @Test func allRunsEveryProfileAgainstItsReference() async throws {
        let dir = TemporaryDirectory()
        let r = try await RingcheckBinary.runSuite(
            ["run", "--profile", "all", "--format", "console,json,junit,markdown", "--report-dir", dir.path],
            timeout: 240)
        #expect(r.status == 0, "\(r.stdout.suffix(3000))\n\(r.stderr)")
        #expect(
            r.stdout.contains("Profiles:\n  callx: conformant (exit 0) — \(dir.path)/callx"), "\(r.stdout.suffix(500))")
        #expect(r.stdout.hasSuffix("Verdict: conformant (exit 0)\n"), "\(r.stdout.suffix(300))")
        let data = try Data(contentsOf: URL(fileURLWithPath: dir.file("callx/report.json")))
        let report = try JSONValue.parse(Array(data))
        let scenarios = report["scenarios"]?.arrayValue ?? []
        #expect(scenarios.count >= 38 && scenarios.allSatisfy { $0["status"]?.stringValue == "pass" })
        #expect(!FileManager.default.fileExists(atPath: dir.file("report.json")))
        // The combined reports: a testsuite per profile, a summary row per profile; each profile keeps its own.
        // The profiles the run names in its "Profiles:" list, one "  NAME: verdict" line each.
        let list = r.stdout.components(separatedBy: "\nProfiles:\n").last ?? ""
        let profiles = list.split(separator: "\n").filter { $0.hasPrefix("  ") }
            .compactMap { $0.dropFirst(2).split(separator: ":").first.map(String.init) }
        #expect(profiles.count >= 4 && profiles.first == "callx", "\(profiles)")
        // Each profile's own verdict line names it; the last line is the worst of them.
        for name in profiles { #expect(r.stdout.contains("\nVerdict (\(name)): conformant (exit 0)\n"), "\(name)") }
        let junit = try String(contentsOfFile: dir.file("junit.xml"), encoding: .utf8)
        for name in profiles {
            #expect(junit.contains("<testsuite name=\"\(name)\" "), "\(name)")
            #expect(FileManager.default.fileExists(atPath: dir.file("\(name)/junit.xml")), "\(name)")
            #expect(FileManager.default.fileExists(atPath: dir.file("\(name)/summary.md")), "\(name)")
        }
        #expect(junit.contains("failures=\"0\" errors=\"0\""))
        let summary = try String(contentsOfFile: dir.file("summary.md"), encoding: .utf8)
        #expect(summary.hasPrefix("## ringcheck run --profile all: ✅ conformant (exit 0)\n"), "\(summary)")
        for name in profiles { #expect(summary.contains("| \(name) | ✅ conformant |"), "\(name)") }
        #expect(r.stdout.contains("Combined reports: \(dir.path)/junit.xml, \(dir.path)/summary.md\n"))
    }
}
