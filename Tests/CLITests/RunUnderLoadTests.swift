import Foundation
import JSON
import Processes
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The verdict does not change when the machine is busy: the whole suite against the embedded
/// reference backend stays conformant while two other processes keep both cores busy.
@Suite struct RunUnderLoadTests {
    /// A process that spins on one core until it is killed; it ends by itself after 300 million
    /// iterations (minutes), so a crashed test never leaves it behind. SIGKILL stops it: the test
    /// process may block SIGTERM, and children inherit that.
    /// A `ChildProcess`, not Foundation's `Process`, whose `run` crashed a loaded test process.
    static func busyLoop() throws -> ChildProcess {
        let null = open("/dev/null", O_RDWR | O_CLOEXEC)
        defer { close(null) }
        return try ChildProcess(
            ["/bin/sh", "-c", "i=0; while [ $i -lt 300000000 ]; do i=$((i+1)); done"], stdin: null, stdout: null,
            stderr: null)
    }

    @Test func wholeSuiteIsConformantWhileBothCoresAreBusy() async throws {
        try await Self.expectConformantUnderLoad([], allowNotApplicable: false)
    }

    /// The same through a target file alone (the reference backend in its alternate API shape,
    /// started by the file's lifecycle): some scenarios are not applicable, none fails.
    @Test func wholeSuiteThroughATargetFileIsConformantWhileBothCoresAreBusy() async throws {
        let file = TargetCommandTests.repositoryRoot + "/examples/targets/reference-alternate.yaml"
        try await Self.expectConformantUnderLoad(["--target", file], allowNotApplicable: true)
    }

    static func expectConformantUnderLoad(_ extra: [String], allowNotApplicable: Bool) async throws {
        let dir = TemporaryDirectory()
        let r = try await SuiteRunGate.exclusive {
            let loops = try (0..<2).map { _ in try Self.busyLoop() }
            defer {
                for loop in loops { loop.kill() }
            }
            return try await RingcheckBinary.run(
                ["run", "--format", "json", "--report-dir", dir.path] + extra, timeout: 360)
        }
        let report = try JSONValue.parse(Array(try Data(contentsOf: URL(fileURLWithPath: dir.path + "/report.json"))))
        var problems: [String] = []
        var passed = 0
        for s in report["scenarios"]?.arrayValue ?? [] {
            let status = s["status"]?.stringValue
            if status == "pass" { passed += 1 }
            if status == "pass" || (allowNotApplicable && status == "notApplicable") { continue }
            let failures = (s["failures"]?.arrayValue ?? []).map {
                "\($0["requirement"]?.stringValue ?? "-") \($0["check"]?.stringValue ?? ""): "
                    + String(($0["actual"]?.stringValue ?? "").prefix(300))
            }
            problems.append(
                "\(s["id"]?.stringValue ?? "?") \(status ?? "?") \(s["reason"]?.stringValue ?? "") \(failures)"
            )
        }
        #expect(r.status == 0, "exit \(r.status): \(problems.joined(separator: "\n")) \(r.stderr)")
        #expect(report["verdict"]?.stringValue == "conformant")
        #expect(passed > 30)
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }
}
