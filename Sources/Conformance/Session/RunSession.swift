import Foundation
import Reports

/// One run of one profile's suite, from the selected scenarios to the verdict: starts the backend
/// (`backend`), runs the scenarios with the console's progress, builds the run's `RunResult` in one place
/// (`result`), writes the reports and stops what it started (`cleanup`), also on an interruption. It names
/// no profile and no command line: the caller (the CLI's `RunCommand`) parses, selects the scenarios and
/// wires a console, a cleanup and a backend source.
///
/// ```swift
/// let session = RunSession(
///     settings: RunSessionSettings(
///         ringcheckVersion: "0.1.0", reportDir: "reports", fileFormats: [.json],
///         rerunCommand: { "ringcheck run \($0)" }),
///     profile: suite.profile, catalogue: suite.catalogue, scenarios: suite.scenarios,
///     backend: backend, console: console, cleanup: cleanup)
/// let outcome = try await session.run()  // outcome.exitCode: 0 conformant … 3 inconclusive
/// ```
public struct RunSession: Sendable {
    public let settings: RunSessionSettings
    public let profile: any Profile
    public let catalogue: RequirementCatalogue
    public let scenarios: [Scenario]
    /// The shard with the whole selection it was split from (for `report merge`), nil without one.
    public let shard: Shard?
    public let backend: any RunBackendSource
    public let console: any RunConsole
    public let cleanup: any RunSessionCleanup
    let startedAt = Date()

    public init(
        settings: RunSessionSettings, profile: any Profile, catalogue: RequirementCatalogue, scenarios: [Scenario],
        shard: Shard? = nil, backend: any RunBackendSource, console: any RunConsole, cleanup: any RunSessionCleanup
    ) {
        self.settings = settings
        self.profile = profile
        self.catalogue = catalogue
        self.scenarios = scenarios
        self.shard = shard
        self.backend = backend
        self.console = console
        self.cleanup = cleanup
    }

    /// The suite's description, as the reports' header names it.
    var suiteInfo: SuiteDescription { catalogue.suiteDescription }

    /// Runs the session: the run's result and exit code (3 when it stopped before any scenario, 2 when
    /// the reports could not be written). Throws only when the cleanup cannot be armed.
    public func run() async throws -> RunSessionOutcome {
        // From here on an interruption stops what the run started and writes the reports of what ran,
        // marked interrupted, before the process ends.
        let record = RunRecord()
        try cleanup.stopOnInterruption(
            onSignal: { _ in await record.freeze() }, beforeExit: { await record.writeInterrupted(signal: $0) })
        let started: RunBackend
        do { started = try await backend.start() } catch {
            await cleanup.run()
            return stoppedBeforeScenarios(backend.failureCause(error), target: backend.unstartedTargetName)
        }
        if !settings.quiet {
            console.out(
                ConsoleReport.header(
                    settings.ringcheckVersion, profile: profile.name, suite: suiteInfo, target: started.target.name,
                    startedAt: startedAt, style: console.style))
        }
        let engines: [ScenarioEngine]
        do { engines = try makeEngines(started) } catch {
            await cleanup.run()
            return stoppedBeforeScenarios("cannot start the HTTP client: \(error)", target: started.target.name)
        }
        let results = await runScenarios(engines, backend: started, record: record)
        for engine in engines { engine.shutdown() }
        await cleanup.run()
        let notices = await ScenarioEngine.cleanUpWarnings(engines)
        let runResult = result(
            target: started.target.name, scenarios: results,
            notRunReason: "--fail-fast: a scenario failed first", notices: notices)
        return await finish(runResult, record: record)
    }
}

/// How a `RunSession` ended: the run's result (as the reports have it) and the process's exit code.
public struct RunSessionOutcome: Sendable {
    public var result: RunResult
    /// 0 conformant, 1 non-conformant, 2 the reports could not be written, 3 inconclusive.
    public var exitCode: Int32
}
