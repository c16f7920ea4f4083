import Conformance
import Foundation
import Reports

/// One `ringcheck run` of one profile's suite, from the selected scenarios to the exit code: starts the
/// backend (the target file's, through its lifecycle, or the profile's reference kit beside the mocks),
/// runs the scenarios with the live console, builds the run's `RunResult` in one place (`result`), writes
/// the reports and stops what it started, also on Ctrl-C or SIGTERM. `RunCommand` parses and selects;
/// this does the rest.
struct RunSession {
    /// The command's settings: report folder, formats, console, repeat, concurrency, strictness, target.
    let command: RunCommand
    let profile: any Profile
    let catalogue: RequirementCatalogue
    let scenarios: [Scenario]
    /// The shard with the whole selection it was split from (for `report merge`), nil without `--shard`.
    let shard: Shard?
    /// The reference kit and the defects to switch on, when the run has no target file.
    let reference: (kit: any ReferenceKit, defects: [String])?
    let startedAt = Date()

    /// The suite's description, as the reports' header names it.
    var suiteInfo: SuiteDescription { catalogue.suiteDescription }

    /// Runs the session; the run's exit code (3 when it stopped before any scenario).
    func run() async throws -> ExitCode {
        // From here on Ctrl-C and SIGTERM stop what the run started before ringcheck exits.
        // … and write the reports of what ran, marked interrupted (exit 130 for SIGINT, 143 for SIGTERM).
        let cleanup = RunCleanup()
        let record = RunRecord()
        try cleanup.exitOnSignal(
            command: RunCommand.configuration.name, onSignal: { _ in await record.freeze() },
            beforeExit: { await record.writeInterrupted(signal: $0) })
        guard let backend = try await startBackend(cleanup) else { return .inconclusive }
        let style = ConsoleStyle.forStandardOutput()
        if !command.quiet {
            Console.out(
                ConsoleReport.header(
                    RingcheckVersion.current, profile: profile.name, suite: suiteInfo, target: backend.target.name,
                    startedAt: startedAt, style: style))
        }
        let engines: [ScenarioEngine]
        do { engines = try makeEngines(backend) } catch {
            await cleanup.run()
            return stoppedBeforeScenarios("cannot start the HTTP client: \(error)", target: backend.target.name)
        }
        let results = await runScenarios(engines, backend: backend, record: record, style: style)
        for engine in engines { engine.shutdown() }
        await cleanup.run()
        let notices = await ScenarioEngine.cleanUpWarnings(engines)
        let runResult = result(
            target: backend.target.name, scenarios: results,
            notRunReason: "--fail-fast: a scenario failed first", notices: notices)
        return await finish(runResult, record: record, style: style)
    }

    /// The scenario engine for the target and, when the backend has a second instance for the scenarios
    /// that restart it, one for that instance.
    func makeEngines(_ backend: RunBackend) throws -> [ScenarioEngine] {
        let engine = try ScenarioEngine(
            target: backend.target, mocks: backend.mocks, catalogue: catalogue, profile: profile)
        let alone = try backend.restartTarget.map {
            try ScenarioEngine(target: $0, mocks: backend.mocks, catalogue: catalogue, profile: profile)
        }
        return [engine] + [alone].compactMap { $0 }
    }

    /// Runs the scenarios on `engines` (the first for all, the second, when there, for those that restart
    /// the backend), drawing the live line and recording each result for an interrupted run's reports.
    func runScenarios(_ engines: [ScenarioEngine], backend: RunBackend, record: RunRecord, style: ConsoleStyle) async
        -> [ScenarioResult]
    {
        let command = self.command
        let showConsole = !command.quiet
        var runner = SuiteRunner(
            engine: engines[0],
            concurrency: min(command.concurrency, backend.maxConcurrency ?? command.concurrency),
            repeatCount: command.repeatCount, failFast: command.failFast, rerunCommand: { command.rerunCommand($0) },
            aloneEngine: engines.count > 1 ? engines[1] : nil)
        let progress = LiveStatus(live: showConsole && command.liveTerminal, total: scenarios.count)
        runner.onStart = { progress.started($0.id) }
        let ticker = progress.live ? Task { await progress.tickEvery(.milliseconds(200)) } : nil
        await prepareInterruptedReports(record, target: backend.target.name, progress: progress)
        let results = await runner.run(scenarios) { scenario, attempts in
            let r = ScenarioResult.combining(attempts)
            await record.record(r)
            guard showConsole else { return }
            progress.finished(scenario.id, line: ConsoleReport.progressLine(r, style: style, strict: command.strict))
        }
        ticker?.cancel()
        progress.stop()
        return results.map { ScenarioResult.combining($0.attempts) }
    }

    /// Tells `record` how an interruption's reports are built and written: the scenarios finished so far,
    /// the rest not run.
    func prepareInterruptedReports(_ record: RunRecord, target: String, progress: LiveStatus) async {
        let session = self
        let fileFormats = command.fileFormats
        let reportDir = command.reportDir
        await record.prepare(
            report: { finished, interruption in
                session.result(
                    target: target, scenarios: session.scenarios.compactMap { finished[$0.id] },
                    notRunReason: "interrupted by \(interruption.signal)", interruption: interruption)
            },
            write: { result in
                progress.stop()
                let written = (try? ReportFormat.write(result, formats: fileFormats, to: reportDir)) ?? []
                Console.error(
                    "ringcheck run: interrupted; the reports of the \(result.scenarios.count) scenario\(result.scenarios.count == 1 ? "" : "s") that finished: \(written.isEmpty ? "none written" : written.joined(separator: ", "))"
                )
            })
    }
}
