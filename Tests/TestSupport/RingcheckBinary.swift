import Foundation

/// Runs the built `ringcheck` executable as a user would, for black-box CLI tests.
public enum RingcheckBinary {
    /// The path of the `ringcheck` binary next to the test bundle (SwiftPM builds both into one folder).
    public static var path: String { path(of: "ringcheck") }

    /// The path of executable `name` built beside the test bundle (`ProbeRingcheck`), else `name`.
    public static func path(of name: String) -> String {
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var dir = testBinary.deletingLastPathComponent()
        // On Linux the test runner is `<build>/ringcheckPackageTests.xctest`; on macOS it sits inside a bundle.
        while dir.path != "/" {
            let candidate = dir.appendingPathComponent(name).path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return name
    }

    /// Runs `ringcheck` with `arguments` and waits for it on a thread of its own. The reports a `run` or
    /// `report merge` writes to its `--report-dir` must match their schemas (`ReportConformance`): a
    /// report that does not throws, whatever the test checks next.
    public static func run(_ arguments: [String], timeout: Double = 60, environment: [String: String]? = nil)
        async throws -> ProcessResult
    {
        let result = try await runProcess(path, arguments, timeout: timeout, environment: environment)
        if let directory = ReportConformance.reportDirectory(of: arguments) {
            try ReportConformance.checkDirectory(directory)
        }
        return result
    }

    /// Runs `ringcheck run …` (which executes scenarios) once no other whole-suite run of this test
    /// process is in progress: see `SuiteRunGate`.
    public static func runSuite(_ arguments: [String], timeout: Double = 180, environment: [String: String]? = nil)
        async throws -> ProcessResult
    {
        try await SuiteRunGate.exclusive { try await run(arguments, timeout: timeout, environment: environment) }
    }
}
