import Conformance
import Foundation
import Reports

/// What a run knows before its backend starts: enough to write its reports if it never gets further.
struct RunPlan {
    var profile: String
    var catalogue: RequirementCatalogue
    var scenarios: [Scenario]
    var shard: Shard?
    var startedAt: Date
}

extension RunCommand {
    /// The shard of this run with the IDs of the whole selection it was split from (what `report merge`
    /// needs to name the scenarios of a missing shard); nil without `--shard`.
    func shardFacts(of all: [Scenario]) -> Shard? {
        guard let shard else { return nil }
        let whole = ScenarioSelection(patterns: patterns, tags: tags).apply(to: all).scenarios.map(\.id)
        return Shard(index: shard.index, count: shard.count, selection: whole)
    }

    /// A run that stopped before any scenario (the backend did not answer, its lifecycle start failed, the
    /// mocks could not start): says `cause` on standard error, then writes every report `--format` asks for
    /// with the inconclusive verdict, the cause, and the selected scenarios as not run, so CI still publishes
    /// a JUnit file and a summary. The caller has already stopped what the run started. Exit 3.
    func stoppedBeforeScenarios(_ cause: String, target: String, plan: RunPlan) -> ExitCode {
        Console.error("ringcheck run: \(cause)")
        let command = self
        let result = RunResult(
            ringcheckVersion: RingcheckVersion.current, profile: plan.profile,
            suite: plan.catalogue.suiteDescription, target: target, startedAt: plan.startedAt, finishedAt: Date(),
            requirements: plan.catalogue.requirementInfos, scenarios: [], shard: plan.shard, strict: strict,
            notRun: Self.notRun(
                plan.scenarios, ran: [], reason: "the run stopped before any scenario", rerun: command.rerunCommand),
            aborted: cause)
        let style = ConsoleStyle.forStandardOutput()
        Console.out(ConsoleReport.verdictLine(result, style: style))
        let fileFormats = formats.filter { $0.fileName != nil }
        guard !fileFormats.isEmpty else { return .inconclusive }
        do {
            let written = try ReportFormat.write(result, formats: fileFormats, to: reportDir)
            if !quiet { Console.out("Reports: " + written.joined(separator: ", ")) }
        } catch {
            Console.error("ringcheck run: cannot write reports to \(reportDir): \(error.localizedDescription)")
        }
        return .inconclusive
    }
}
