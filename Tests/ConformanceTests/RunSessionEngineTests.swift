import Foundation
import PushMocks
import Reports
import Synchronization
import TestSupport
import Testing

@testable import AllProfiles
@testable import Conformance

/// The engine's `RunSession` with nothing of the CLI: the probe profile's scenario against the test
/// stack, a console that keeps its lines and a cleanup that keeps its actions. It starts the backend,
/// runs, judges, writes the report and stops what it started, and its exit code is the verdict's.
@Suite(.serialized) struct RunSessionEngineTests {
    /// Keeps every line and each scenario as it starts and finishes.
    final class LineConsole: RunConsole, RunProgress {
        let lines = Mutex<[String]>([])
        let events = Mutex<[String]>([])
        var style: ConsoleStyle { ConsoleStyle(colors: false) }
        func out(_ text: String) { lines.withLock { $0.append(text) } }
        func error(_ text: String) { lines.withLock { $0.append(text) } }
        func progress(total: Int) -> any RunProgress { self }
        func started(_ id: String) { events.withLock { $0.append("started " + id) } }
        func finished(_ id: String, line: String) { events.withLock { $0.append("finished " + id) } }
        func stop() {}
        var all: String { lines.withLock { $0.joined(separator: "\n") } }
    }

    /// Runs its actions once, last added first; arming it for signals is only noted.
    actor ActionCleanup: RunSessionCleanup {
        private var actions: [@Sendable () async -> Void] = []
        private(set) var ranActions = 0
        let armed = Mutex(false)
        func add(_ action: @escaping @Sendable () async -> Void) { actions.append(action) }
        func run() async {
            let pending = actions.reversed()
            actions = []
            for action in pending {
                await action()
                ranActions += 1
            }
        }
        nonisolated func stopOnInterruption(
            onSignal: @escaping @Sendable (Int32) async -> Void, beforeExit: @escaping @Sendable (Int32) async -> Void
        ) throws { armed.withLock { $0 = true } }
    }

    /// The test stack (mocks and the reference), its stop handed to `cleanup`.
    struct StackBackend: RunBackendSource {
        let cleanup: ActionCleanup
        var unstartedTargetName: String { "the test stack" }
        func start() async throws -> RunBackend {
            let stack = try await EngineTestStack.start(runs: 4, profile: HookTestProfile())
            await cleanup.add { await stack.stop() }
            return RunBackend(target: stack.engine.target, mocks: stack.mocks)
        }
        func failureCause(_ error: any Error) -> String { "cannot start the test stack: \(error)" }
    }

    static func run(status: Int, quiet: Bool = false) async throws -> (
        RunSessionOutcome, LineConsole, ActionCleanup, String
    ) {
        let text = ProfileEngineTests.scenario.replacingOccurrences(of: "COUNT", with: "1")
            .replacingOccurrences(of: "STATUS", with: "\(status)")
        let suite = try ProfileEngineTests.suite(text, profile: HookTestProfile())
        let dir = TemporaryDirectory()
        let console = LineConsole()
        let cleanup = ActionCleanup()
        let session = RunSession(
            settings: RunSessionSettings(
                ringcheckVersion: "9.9.9-test", reportDir: dir.path, fileFormats: [.json], quiet: quiet,
                rerunCommand: { "rerun \($0)" }),
            profile: HookTestProfile(), catalogue: suite.catalogue, scenarios: suite.scenarios,
            backend: StackBackend(cleanup: cleanup), console: console, cleanup: cleanup)
        let outcome = try await session.run()
        let report = try String(contentsOfFile: dir.file("report.json"), encoding: .utf8)
        return (outcome, console, cleanup, report)
    }

    @Test func aConformingRunExitsZeroAndStopsWhatItStarted() async throws {
        let (outcome, console, cleanup, report) = try await Self.run(status: 200)
        #expect(outcome.exitCode == 0 && outcome.result.verdict == .conformant, "\(console.all)")
        #expect(outcome.result.profile == HookTestProfile().name && outcome.result.ringcheckVersion == "9.9.9-test")
        #expect(console.all.contains("ringcheck 9.9.9-test") && console.all.contains("Verdict: conformant (exit 0)"))
        #expect(console.events.withLock { $0 } == ["started probe.steps", "finished probe.steps"])
        #expect(cleanup.armed.withLock { $0 })
        #expect(await cleanup.ranActions == 1)
        #expect(try JSONReport.decode(Data(report.utf8)).exitCode == 0)
    }

    @Test func aFailedMustExitsOneAndQuietPrintsTheVerdictAlone() async throws {
        let (outcome, console, cleanup, _) = try await Self.run(status: 404, quiet: true)
        #expect(outcome.exitCode == 1 && outcome.result.failedRequirements(.must).contains("CALLX-SEC-1"))
        #expect(console.lines.withLock { $0 } == ["Verdict: non-conformant (exit 1)"])
        #expect(outcome.result.scenarios.first?.rerunCommand == "rerun probe.steps")
        #expect(await cleanup.ranActions == 1)
    }
}
