import AllProfiles
import Conformance
import Foundation
import JSON
import Probe
import TestSupport
import Testing

@testable import RingcheckCLI

/// Issue 26's proof: a fifth profile added as a module of its own (`Tests/Probe`) and one registry line, run
/// through the CLI's commands in process (`Ringcheck.dispatch(_:profiles:)`), is listed, run against its
/// reference, judged by its rule with the reference's defect, and its target-file secret stays out of the reports.
@Suite struct ProbeProfileTests {
    /// The one registry line: the shipped profiles and the probe.
    static let profiles = ProfileRegistry(Profiles.all + [ProbeProfile()])

    /// Runs `args` as the CLI would with the probe registered, and what it printed.
    static func ringcheck(_ args: [String], profiles: ProfileRegistry = profiles) async -> (ExitCode, ConsoleCapture) {
        await InjectedRegistryTests.ringcheck(args, profiles: profiles)
    }

    @Test func listListsTheProbeSuiteFromItsModule() async {
        let (code, console) = await Self.ringcheck(["list", "--profile", "probe"])
        #expect(code == .success, "\(console.error)")
        #expect(console.out.contains("(suite probe 0.1.0)"), "\(console.out)")
        #expect(console.out.contains("echo.one"))
        #expect(console.out.contains("PROBE-ECHO-1 MUST"))
    }

    @Test func theShippedRegistryHasNoProbe() async {
        let (code, console) = await Self.ringcheck(["list", "--profile", "probe"], profiles: Profiles.registry)
        #expect(code == .usage)
        #expect(console.error.contains("unknown profile 'probe'"), "\(console.error)")
    }

    /// Against its reference the probe suite passes; with the reference's one defect it fails, charged to
    /// PROBE-ECHO-1 (exit 1). Either way the target file's `probe.key` appears in no report file.
    @Test(arguments: [false, true])
    func aRunAgainstTheProbeReferenceIsJudgedByItsRule(withDefect: Bool) async throws {
        let secret = "probe-secret-\(UUID().uuidString)"
        let reference = ProbeReference(key: secret, defects: withDefect ? [.wrongEcho] : [])
        try reference.server.start()
        defer { reference.server.stop() }
        let dir = TemporaryDirectory(prefix: "ringcheck-probe")
        let target = try dir.write(
            "probe.yaml",
            """
            profile: probe
            baseURL: http://127.0.0.1:\(reference.server.port)
            probe: {key: \(secret)}
            """)
        let reports = dir.file("reports")
        let (code, console) = await Self.ringcheck(
            ["run", "--target", target, "--report-dir", reports, "--format", "json,junit,html,markdown"])
        #expect(code == (withDefect ? .nonConformant : .success), "\(console.out)\n\(console.error)")
        let report = try JSONValue.parse(Array(try Data(contentsOf: URL(fileURLWithPath: reports + "/report.json"))))
        let scenario = try #require(report["scenarios"]?.arrayValue?.first)
        #expect(scenario["id"]?.stringValue == "echo.one")
        #expect(scenario["status"]?.stringValue == (withDefect ? "fail" : "pass"))
        let charged = scenario["failures"]?.arrayValue?.compactMap { $0["requirement"]?.stringValue } ?? []
        #expect(charged == (withDefect ? ["PROBE-ECHO-1"] : []), "\(charged)")
        let files = FileManager.default.enumerator(atPath: reports)?.allObjects.compactMap { $0 as? String } ?? []
        #expect(files.contains("report.json"))
        for file in files {
            let text = (try? String(contentsOfFile: reports + "/" + file, encoding: .utf8)) ?? ""
            #expect(!text.contains(secret), "the probe key appears in \(file)")
        }
        #expect(console.out.contains("echo.one"), "the run's lines are captured too: \(console.out)")
        #expect(!console.out.contains(secret) && !console.error.contains(secret))
    }
}
