import Foundation
import TestSupport
import Testing

/// `run`'s options are checked before anything starts: an empty or unwritable --report-dir and an
/// empty --format are usage errors (exit 2) naming what is wrong, never a failure of the mocks after
/// the run; an oversized target file exits 2 naming it.
@Suite struct RunOptionCheckTests {
    func expectUsage(_ arguments: [String], _ message: String) async throws {
        let r = try await RingcheckBinary.run(arguments, timeout: 30)
        #expect(r.status == 2, "\(arguments): \(r.stderr)")
        #expect(r.stderr.contains(message), "\(arguments): \(r.stderr)")
        #expect(!r.stderr.contains("mocks"), "\(arguments) blames the mocks: \(r.stderr)")
        #expect(!r.stdout.contains("Verdict"), "\(arguments) ran the suite")
    }

    @Test func emptyValuesAreUsageErrors() async throws {
        try await expectUsage(["run", "--report-dir", ""], "--report-dir is empty")
        try await expectUsage(["run", "--format", ""], "--format names no format")
        try await expectUsage(["run", "--format", ","], "--format names no format")
    }

    @Test func anUnwritableReportDirIsNamedWithWhatIsWrong() async throws {
        let dir = TemporaryDirectory()
        let file = try dir.write("a-file", "x")
        try await expectUsage(["run", "--report-dir", file], "--report-dir \(file): it is a file, not a directory")
        // The path in the problem is the component, written with single slashes.
        let component = file.replacingOccurrences(of: "//", with: "/")
        try await expectUsage(
            ["run", "--report-dir", file + "/reports"],
            "--report-dir \(file)/reports: \(component) is a file, not a directory")
        // Root may write anywhere a mode allows, but not where the kernel refuses: /proc.
        try await expectUsage(
            ["run", "--report-dir", "/proc/ringcheck-reports"],
            "--report-dir /proc/ringcheck-reports: cannot create the directory /proc/ringcheck-reports")
        try await expectUsage(
            ["run", "--report-dir", "/proc/self"], "--report-dir /proc/self: cannot write files in it")
    }

    @Test func aTargetFileOverTheSizeLimitExitsTwoNamingIt() async throws {
        let dir = TemporaryDirectory()
        let line = "# " + String(repeating: "x", count: 1_000) + "\n"
        let big = try dir.write("big.yaml", String(repeating: line, count: 4_300))
        let r = try await RingcheckBinary.run(["run", "--target", big], timeout: 30)
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.contains("\(big):1:1: the file is"), "\(r.stderr)")
        #expect(r.stderr.contains("at most 4.0 MiB"), "\(r.stderr)")
    }
}
