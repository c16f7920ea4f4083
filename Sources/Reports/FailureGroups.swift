/// The failures of a run grouped the way every report shows them: one group per requirement with the
/// scenarios it failed in — its most widespread check stands for the others (its first scenario's rule,
/// actual value and evidence), the other checks that failed it named once each — MUSTs first; then the
/// scenarios that stopped without a verdict, grouped by status and reason. A defect is shown once
/// however many checks and scenarios saw it, so a report built on it grows with the number of failed
/// requirements, not with the number of scenarios.
///
///     for group in FailureGroups(run).failures { print(group.failure.requirement, group.scenarios.count) }
struct FailureGroups {
    /// One check of a requirement failing in one or more scenarios.
    struct Check {
        var failure: CheckFailure
        var first: ScenarioResult
        /// Every scenario it failed in, the first one first.
        var scenarios: [String]
    }

    /// One requirement failing in one or more scenarios, by one or more checks.
    struct Failure {
        /// The requirement's checks that failed, the one failing in the most scenarios first.
        var checks: [Check]
        /// Every scenario the requirement failed in, the first check's first scenario first.
        var scenarios: [String]
        /// The failure is a warning: a SHOULD of a lenient run.
        var isWarning: Bool

        /// The failure that stands for the group: the first scenario's failure of the widest check.
        var failure: CheckFailure { checks[0].failure }
        var first: ScenarioResult { checks[0].first }
        /// The checks beside the first.
        var otherChecks: ArraySlice<Check> { checks.dropFirst() }
    }

    /// How many other checks of one requirement a group names, one line each.
    static let otherCheckLimit = 4

    /// `step 2 expectPush to b-phone (in payload.apns-invitation)` or `… (in 3 scenarios, first x.y)`: one
    /// other check of a group in plain words, not yet escaped for any format; no scenario when it failed
    /// only in the group's first one.
    static func describe(_ c: Check, groupFirst: String) -> String {
        let n = c.scenarios.count
        let check = ReportWording.check(c.failure.check)
        if n == 1 && c.first.id == groupFirst { return check }
        return check + (n == 1 ? " (in \(c.first.id))" : " (in \(n) scenarios, first \(c.first.id))")
    }

    /// The lines naming a group's other checks (at most `otherCheckLimit`, then `… and N more checks`).
    static func otherCheckLines(_ g: Failure) -> [String] {
        var lines = g.otherChecks.prefix(otherCheckLimit).map { describe($0, groupFirst: g.first.id) }
        let more = g.otherChecks.count - otherCheckLimit
        if more > 0 { lines.append("… and \(more) more check\(more == 1 ? "" : "s")") }
        return lines
    }

    /// Scenarios that stopped without a verdict of their own checks (error, timeout, or failed with no
    /// failure recorded) for one status and reason.
    struct Problem {
        var status: String
        var detail: String
        var first: ScenarioResult
        var scenarios: [String]
    }

    var failures: [Failure] = []
    var problems: [Problem] = []

    var isEmpty: Bool { failures.isEmpty && problems.isEmpty }

    init(_ r: RunResult) {
        var checks: [Check] = []
        for s in r.scenarios where s.status.isFailure || s.status.isHarnessProblem {
            if s.failures.isEmpty || s.status.isHarnessProblem {
                let detail = s.status.detail ?? ""
                if let i = problems.firstIndex(where: { $0.status == s.status.name && $0.detail == detail }) {
                    if !problems[i].scenarios.contains(s.id) { problems[i].scenarios.append(s.id) }
                } else {
                    problems.append(Problem(status: s.status.name, detail: detail, first: s, scenarios: [s.id]))
                }
            }
            for f in s.failures {
                if let i = checks.firstIndex(where: {
                    $0.failure.requirement == f.requirement && $0.failure.check == f.check
                }) {
                    if !checks[i].scenarios.contains(s.id) { checks[i].scenarios.append(s.id) }
                } else {
                    checks.append(Check(failure: f, first: s, scenarios: [s.id]))
                }
            }
        }
        // One group per requirement (a failure without one is a group of its own check).
        var groups: [Failure] = []
        for c in checks {
            let key = c.failure.requirement
            if key != nil, let i = groups.firstIndex(where: { $0.failure.requirement == key }) {
                groups[i].checks.append(c)
            } else {
                let warning = c.failure.level == .should && !r.strict
                groups.append(Failure(checks: [c], scenarios: [], isWarning: warning))
            }
        }
        for i in groups.indices {
            // Stable: the widest check first, ties in the order the run met them.
            groups[i].checks = groups[i].checks.enumerated()
                .sorted { ($1.element.scenarios.count, $0.offset) < ($0.element.scenarios.count, $1.offset) }
                .map(\.element)
            var all: [String] = []
            for c in groups[i].checks { for id in c.scenarios where !all.contains(id) { all.append(id) } }
            groups[i].scenarios = all
        }
        failures = groups.filter { $0.failure.level == .must } + groups.filter { $0.failure.level != .must }
    }
}
