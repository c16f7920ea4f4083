import Foundation
import Reports

extension RunSession {
    /// The run's result, built here only: the scenarios that finished, the rest of the selection as not
    /// run for `notRunReason`; `aborted` when the run stopped before any scenario.
    func result(
        target: String, scenarios finished: [ScenarioResult], notRunReason: String, notices: [String] = [],
        interruption: Interruption? = nil, aborted: String? = nil
    ) -> RunResult {
        RunResult(
            ringcheckVersion: settings.ringcheckVersion, profile: profile.name, suite: suiteInfo, target: target,
            startedAt: startedAt, finishedAt: Date(), requirements: catalogue.requirementInfos, scenarios: finished,
            shard: shard, strict: settings.strict,
            notRun: Self.notRun(
                scenarios, ran: Set(finished.map(\.id)), reason: notRunReason, rerun: settings.rerunCommand),
            interruption: interruption, notices: notices, aborted: aborted)
    }

    /// The selected scenarios that never ran, with `reason`.
    static func notRun(_ scenarios: [Scenario], ran: Set<String>, reason: String, rerun: (String) -> String)
        -> [NotRunScenario]
    {
        scenarios.filter { !ran.contains($0.id) }.map {
            NotRunScenario(
                id: $0.id, title: $0.title, requirements: $0.requirements, tags: $0.tags, reason: reason,
                rerunCommand: rerun($0.id))
        }
    }

    /// Prints the summary (or the verdict line alone with `quiet`), writes the report files and the race
    /// spread; the run's outcome (exit 2 when the reports cannot be written).
    func finish(_ runResult: RunResult, record: RunRecord) async -> RunSessionOutcome {
        let showConsole = !settings.quiet
        if showConsole {
            console.out(
                ConsoleReport.summary(
                    runResult, style: console.style, verbose: settings.verbose,
                    namingProfile: settings.namesProfileInVerdict))
            if let first = runResult.notRun.first {
                let count = runResult.notRun.count
                console.out("Not run: \(count) scenario\(count == 1 ? "" : "s") (\(first.reason))")
            }
        } else {
            console.out(
                ConsoleReport.verdictLine(
                    runResult, style: console.style, namingProfile: settings.namesProfileInVerdict))
        }
        if !settings.fileFormats.isEmpty {
            do {
                let written = try ReportFormat.write(runResult, formats: settings.fileFormats, to: settings.reportDir)
                await record.finish()
                if showConsole { console.out("Reports: " + written.joined(separator: ", ")) }
            } catch {
                console.error("\(settings.commandName): cannot write reports to \(settings.reportDir): \(error)")
                return RunSessionOutcome(result: runResult, exitCode: 2)
            }
        }
        let spreads = runResult.scenarios.flatMap(\.raceSpreadsMs)
        if showConsole && !spreads.isEmpty {
            let sorted = spreads.sorted()
            console.out(
                String(
                    format: "Race spread: median %.3f ms, max %.3f ms over %d races", sorted[sorted.count / 2],
                    sorted.last!, sorted.count))
        }
        return RunSessionOutcome(result: runResult, exitCode: runResult.exitCode)
    }

    /// A run that stopped before any scenario (the backend did not answer, its lifecycle start failed, the
    /// mocks could not start): says `cause` on the console's errors, then writes every report file with the
    /// inconclusive verdict, the cause, and the selected scenarios as not run, so CI still publishes a JUnit
    /// file and a summary. The caller has already stopped what the run started. Exit 3.
    func stoppedBeforeScenarios(_ cause: String, target: String) -> RunSessionOutcome {
        console.error("\(settings.commandName): \(cause)")
        let result = result(
            target: target, scenarios: [], notRunReason: "the run stopped before any scenario", aborted: cause)
        console.out(
            ConsoleReport.verdictLine(result, style: console.style, namingProfile: settings.namesProfileInVerdict))
        let outcome = RunSessionOutcome(result: result, exitCode: 3)
        guard !settings.fileFormats.isEmpty else { return outcome }
        do {
            let written = try ReportFormat.write(result, formats: settings.fileFormats, to: settings.reportDir)
            if !settings.quiet { console.out("Reports: " + written.joined(separator: ", ")) }
        } catch {
            console.error(
                "\(settings.commandName): cannot write reports to \(settings.reportDir): \(error.localizedDescription)")
        }
        return outcome
    }
}
