import Conformance
import Foundation
import Reports

extension RunSession {
    /// The run's result, built here only: the scenarios that finished, the rest of the selection as not
    /// run for `notRunReason`; `aborted` when the run stopped before any scenario.
    func result(
        target: String, scenarios finished: [ScenarioResult], notRunReason: String, notices: [String] = [],
        interruption: Interruption? = nil, aborted: String? = nil
    ) -> RunResult {
        let command = self.command
        return RunResult(
            ringcheckVersion: RingcheckVersion.current, profile: profile.name, suite: suiteInfo, target: target,
            startedAt: startedAt, finishedAt: Date(), requirements: catalogue.requirementInfos, scenarios: finished,
            shard: shard, strict: command.strict,
            notRun: RunCommand.notRun(
                scenarios, ran: Set(finished.map(\.id)), reason: notRunReason, rerun: command.rerunCommand),
            interruption: interruption, notices: notices, aborted: aborted)
    }

    /// Prints the summary (or the verdict line alone with `-q`), writes the reports `--format` asks for and
    /// the race spread; the run's exit code (2 when the reports cannot be written).
    func finish(_ runResult: RunResult, record: RunRecord, style: ConsoleStyle) async -> ExitCode {
        let showConsole = !command.quiet
        if showConsole {
            Console.out(ConsoleReport.summary(runResult, style: style, verbose: command.verbose))
            if let first = runResult.notRun.first {
                Console.out(
                    "Not run: \(runResult.notRun.count) scenario\(runResult.notRun.count == 1 ? "" : "s") (\(first.reason))"
                )
            }
        } else {
            Console.out(ConsoleReport.verdictLine(runResult, style: style))
        }
        if !command.fileFormats.isEmpty {
            do {
                let written = try ReportFormat.write(runResult, formats: command.fileFormats, to: command.reportDir)
                await record.finish()
                if showConsole { Console.out("Reports: " + written.joined(separator: ", ")) }
            } catch {
                Console.error("ringcheck run: cannot write reports to \(command.reportDir): \(error)")
                return .usage
            }
        }
        let spreads = runResult.scenarios.flatMap(\.raceSpreadsMs)
        if showConsole && !spreads.isEmpty {
            let sorted = spreads.sorted()
            Console.out(
                String(
                    format: "Race spread: median %.3f ms, max %.3f ms over %d races", sorted[sorted.count / 2],
                    sorted.last!, sorted.count))
        }
        return ExitCode(rawValue: runResult.exitCode) ?? .inconclusive
    }

    /// A run that stopped before any scenario (the backend did not answer, its lifecycle start failed, the
    /// mocks could not start): says `cause` on standard error, then writes every report `--format` asks for
    /// with the inconclusive verdict, the cause, and the selected scenarios as not run, so CI still publishes
    /// a JUnit file and a summary. The caller has already stopped what the run started. Exit 3.
    func stoppedBeforeScenarios(_ cause: String, target: String) -> ExitCode {
        Console.error("ringcheck run: \(cause)")
        let result = result(
            target: target, scenarios: [], notRunReason: "the run stopped before any scenario", aborted: cause)
        Console.out(ConsoleReport.verdictLine(result, style: ConsoleStyle.forStandardOutput()))
        guard !command.fileFormats.isEmpty else { return .inconclusive }
        do {
            let written = try ReportFormat.write(result, formats: command.fileFormats, to: command.reportDir)
            if !command.quiet { Console.out("Reports: " + written.joined(separator: ", ")) }
        } catch {
            Console.error(
                "ringcheck run: cannot write reports to \(command.reportDir): \(error.localizedDescription)")
        }
        return .inconclusive
    }
}
