import Reports

extension RunSession {
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
    /// the backend), showing the console's progress and recording each result for an interrupted run's reports.
    func runScenarios(_ engines: [ScenarioEngine], backend: RunBackend, record: RunRecord) async -> [ScenarioResult] {
        let settings = self.settings
        let showConsole = !settings.quiet
        let style = console.style
        var runner = SuiteRunner(
            engine: engines[0],
            concurrency: min(settings.concurrency, backend.maxConcurrency ?? settings.concurrency),
            repeatCount: settings.repeatCount, failFast: settings.failFast, rerunCommand: settings.rerunCommand,
            aloneEngine: engines.count > 1 ? engines[1] : nil)
        let progress = console.progress(total: scenarios.count)
        runner.onStart = { progress.started($0.id) }
        await prepareInterruptedReports(record, target: backend.target.name, progress: progress)
        let results = await runner.run(scenarios) { scenario, attempts in
            let r = ScenarioResult.combining(attempts)
            await record.record(r)
            guard showConsole else { return }
            progress.finished(scenario.id, line: ConsoleReport.progressLine(r, style: style, strict: settings.strict))
        }
        progress.stop()
        return results.map { ScenarioResult.combining($0.attempts) }
    }

    /// Tells `record` how an interruption's reports are built and written: the scenarios finished so far,
    /// the rest not run.
    func prepareInterruptedReports(_ record: RunRecord, target: String, progress: any RunProgress) async {
        let session = self
        let settings = self.settings
        let console = self.console
        await record.prepare(
            report: { finished, interruption in
                session.result(
                    target: target, scenarios: session.scenarios.compactMap { finished[$0.id] },
                    notRunReason: "interrupted by \(interruption.signal)", interruption: interruption)
            },
            write: { result in
                progress.stop()
                let written =
                    (try? ReportFormat.write(result, formats: settings.fileFormats, to: settings.reportDir)) ?? []
                let count = result.scenarios.count
                let scenarios = "\(count) scenario\(count == 1 ? "" : "s")"
                let files = written.isEmpty ? "none written" : written.joined(separator: ", ")
                console.error(
                    "\(settings.commandName): interrupted; the reports of the \(scenarios) that finished: \(files)")
            })
    }
}
