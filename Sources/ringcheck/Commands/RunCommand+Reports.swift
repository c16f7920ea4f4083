import Conformance
import Foundation
import Reports

/// Turns the engine's outcomes into the reports' result model.
enum RunReportMapping {
    static func level(_ l: Conformance.RequirementLevel) -> Reports.RequirementLevel {
        l == .must ? .must : .should
    }

    static func requirements(_ catalogue: RequirementCatalogue) -> [RequirementInfo] {
        catalogue.requirements.map {
            RequirementInfo(id: $0.id, level: level($0.level), statement: $0.statement, section: $0.section)
        }
    }

    static func failure(_ f: CheckFailure) -> Failure {
        Failure(
            requirement: f.requirement, level: level(f.level), check: f.check, expected: f.expected, actual: f.actual,
            evidence: f.evidence.map {
                Evidence(kind: Evidence.Kind(rawValue: $0.kind.rawValue) ?? .note, title: $0.title, text: $0.text)
            })
    }

    static func status(_ s: ScenarioOutcome.Status) -> ScenarioStatus {
        switch s {
        case .pass: return .pass
        case .fail: return .fail
        case .notApplicable(let r): return .notApplicable(reason: r)
        case .error(let m): return .error(message: m)
        case .timeout(let m): return .timeout(message: m)
        }
    }

    /// One scenario's result from its attempts: a scenario that both passed and failed is flaky;
    /// the failures and timeline shown are those of the first failing attempt (else the last).
    static func result(_ scenario: Scenario, _ attempts: [ScenarioOutcome], rerun: String) -> ScenarioResult {
        let passed = attempts.filter { $0.status == .pass }.count
        let failing = attempts.first { $0.status == .fail } ?? attempts.first { $0.status != .pass }
        let shown = failing ?? attempts.last!
        var status = self.status(shown.status)
        if passed > 0 && failing != nil { status = .flaky }
        if case .fail = shown.status, shown.failures.isEmpty { status = .error(message: "failed without a finding") }
        return ScenarioResult(
            id: scenario.id, title: scenario.title, requirements: scenario.requirements, tags: scenario.tags,
            status: status, durationMs: attempts.map(\.durationMs).max() ?? 0,
            failures: shown.failures.map(failure),
            timeline: shown.timeline.map {
                TimelineEntry(
                    atMs: $0.atMs, kind: TimelineEntry.Kind(rawValue: $0.kind.rawValue) ?? .note, actor: $0.actor,
                    summary: $0.summary, detail: $0.detail)
            }, rerunCommand: rerun, attempts: attempts.count, passedAttempts: passed)
    }
}
