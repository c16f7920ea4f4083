import AllProfiles
import Conformance
import Foundation
import Reports
import Synchronization
import TestSupport
import Testing

@testable import RingcheckCLI

/// The engine's `RunSession` driven in process, with a console that collects lines and a cleanup that
/// records instead of catching signals: it reaches the same verdict and exit code as the `ringcheck run`
/// process it stands behind.
@Suite struct RunSessionTests {
    /// A console that keeps what the session prints, and the scenarios its progress saw finish.
    final class CollectingConsole: RunConsole {
        let lines = Mutex<[String]>([])
        let finished = Mutex<[String]>([])
        var style: ConsoleStyle { ConsoleStyle(colors: false) }
        func out(_ text: String) { lines.withLock { $0.append(text) } }
        func error(_ text: String) { lines.withLock { $0.append("error: " + text) } }
        func progress(total: Int) -> any RunProgress { CollectingProgress(console: self) }
        var text: String { lines.withLock { $0.joined(separator: "\n") } }
    }

    struct CollectingProgress: RunProgress {
        let console: CollectingConsole
        func started(_ id: String) {}
        func finished(_ id: String, line: String) { console.finished.withLock { $0.append(id) } }
        func stop() {}
    }

    /// A cleanup that arms no signal handler: it counts its runs and stops what the kit started.
    actor RecordingCleanup: RunSessionCleanup {
        let kitCleanup: RunCleanup
        private(set) var runs = 0
        private let armed = Mutex(false)
        init(_ kitCleanup: RunCleanup) { self.kitCleanup = kitCleanup }
        nonisolated var wasArmed: Bool { armed.withLock { $0 } }

        func run() async {
            runs += 1
            await kitCleanup.run()
        }
        nonisolated func stopOnInterruption(
            onSignal: @escaping @Sendable (Int32) async -> Void, beforeExit: @escaping @Sendable (Int32) async -> Void
        ) throws { armed.withLock { $0 = true } }
    }

    static let arguments = ["payload.apns-invitation", "--reference-defect", "apns-expiration-30", "--format", "json"]

    @Test func theEngineSessionJudgesAnEmbeddedRunAsTheCLIDoes() async throws {
        let dir = TemporaryDirectory()
        let command = try RunCommand(
            arguments: ArgumentParser.parse(
                Self.arguments + ["--report-dir", dir.file("session")], for: RunCommand.configuration))
        try ReportDirectory.prepare(command.reportDir)
        let suite = try SuiteChoice.loadSuite(command.suitePath)
        let scenarios = try command.selectScenarios(from: suite.scenarios)
        let (kit, defects) = try command.referenceDefects(for: suite.profile.name)
        let kitCleanup = RunCleanup()
        let cleanup = RecordingCleanup(kitCleanup)
        let console = CollectingConsole()
        let session = RunSession(
            settings: command.sessionSettings, profile: suite.profile, catalogue: suite.catalogue,
            scenarios: scenarios,
            backend: ReferenceKitBackend(
                kit: kit, defects: defects, embeddedStart: command.embeddedStart(kit, scenarios: scenarios),
                cleanup: kitCleanup),
            console: console, cleanup: cleanup)
        let outcome = try await session.run()

        let cli = try await RingcheckBinary.runSuite(
            ["run"] + Self.arguments + ["--report-dir", dir.file("cli")], timeout: 120)
        let cliReport = try JSONReport.decode(Data(contentsOf: URL(fileURLWithPath: dir.file("cli/report.json"))))
        #expect(cli.status == 1, "\(cli.stdout)\n\(cli.stderr)")
        #expect(outcome.exitCode == cli.status)
        #expect(outcome.result.verdict == cliReport.verdict && outcome.result.verdict == .nonConformant)
        #expect(outcome.result.failedRequirements(.must) == cliReport.failedRequirements(.must))
        #expect(outcome.result.failedRequirements(.must).contains("CALLX-APNS-5"))
        #expect(outcome.result.scenarios.map(\.status) == cliReport.scenarios.map(\.status))
        // The session's own report file says the same as its outcome.
        let sessionReport = try JSONReport.decode(
            Data(contentsOf: URL(fileURLWithPath: dir.file("session/report.json"))))
        #expect(sessionReport.verdict == outcome.result.verdict)
        // It printed through the console, armed the cleanup, stopped what it started, and its progress
        // saw the scenario finish.
        #expect(console.text.contains("Verdict: non-conformant (exit 1)"), "\(console.text)")
        #expect(console.finished.withLock { $0 } == ["payload.apns-invitation"])
        #expect(cleanup.wasArmed)
        #expect(await cleanup.runs >= 1)
    }

    /// A backend that cannot start.
    struct UnstartableBackend: RunBackendSource {
        struct Refused: Error {}
        var unstartedTargetName: String { "a backend that refuses" }
        func start() async throws -> RunBackend { throw Refused() }
        func failureCause(_ error: any Error) -> String { "cannot start: refused" }
    }

    @Test func aBackendThatCannotStartIsInconclusiveWithItsReportsWritten() async throws {
        let dir = TemporaryDirectory()
        let command = try RunCommand(
            arguments: ArgumentParser.parse(
                ["payload.apns-invitation", "--format", "json", "--report-dir", dir.path], for: RunCommand.configuration
            ))
        let suite = try SuiteChoice.loadSuite(command.suitePath)
        let cleanup = RecordingCleanup(RunCleanup())
        let console = CollectingConsole()
        let session = RunSession(
            settings: command.sessionSettings, profile: suite.profile, catalogue: suite.catalogue,
            scenarios: try command.selectScenarios(from: suite.scenarios), backend: UnstartableBackend(),
            console: console, cleanup: cleanup)
        let outcome = try await session.run()
        #expect(outcome.exitCode == 3 && outcome.result.aborted == "cannot start: refused")
        #expect(outcome.result.target == "a backend that refuses")
        #expect(outcome.result.notRun.map(\.id) == ["payload.apns-invitation"])
        #expect(console.text.contains("error: ringcheck run: cannot start: refused"), "\(console.text)")
        #expect(await cleanup.runs == 1)
        let report = try JSONReport.decode(Data(contentsOf: URL(fileURLWithPath: dir.file("report.json"))))
        #expect(report.aborted == "cannot start: refused" && report.verdict == .inconclusive)
    }

    /// The `--reference-process` check moved from the session to the CLI's wiring: still a usage error
    /// before anything starts, naming the profile.
    @Test func referenceProcessForAReferenceThatCannotBeAChildIsAUsageError() async throws {
        let dir = TemporaryDirectory()
        let r = try await RingcheckBinary.run(
            ["run", "--profile", "onesignal", "--reference-process", "--report-dir", dir.path])
        #expect(r.status == 2)
        #expect(r.stderr.contains("--reference-process: the onesignal reference cannot run as a child process"))
        #expect(!FileManager.default.fileExists(atPath: dir.file("report.json")))
    }
}
