import Reports

extension RunContext {
    /// Charges a check that did not hold to `requirement`, at the catalogue's level, and notes it on the timeline:
    /// the one way a step's check fails a scenario (`fail` is the same for a requirement a scenario file names).
    ///
    /// ```swift
    /// if status != 200 {
    ///     run.charge(ProbeRequirement.accepted, check: "\(step.path) probe", expected: "200", actual: "\(status)")
    /// }
    /// ```
    package func charge(
        _ requirement: RequirementID, check: String, expected: String, actual: String, evidence: [EvidenceItem] = []
    ) {
        // A named requirement never stops the scenario: `fail` only records it.
        try? fail(requirement.rawValue, check: check, expected: expected, actual: actual, evidence: evidence)
    }

    /// The failure of one check charged to `requirement`, noted on the timeline as `FAILED <id>: <note>` by
    /// `noteActor`.
    package func failure(
        _ requirement: RequirementID, check: String, expected: String, actual: String, evidence: [EvidenceItem],
        note: String, noteActor: String
    ) -> CheckFailure {
        record(.note, noteActor, "FAILED \(requirement): \(note)")
        return CheckFailure(
            requirement: requirement.rawValue, level: level(requirement.rawValue), check: check,
            expected: expected, actual: actual, evidence: evidence)
    }
}
