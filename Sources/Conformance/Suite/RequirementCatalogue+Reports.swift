import Reports

extension RequirementCatalogue {
    /// The suite as the reports name it.
    public var suiteDescription: SuiteDescription {
        SuiteDescription(id: suite.id, version: suite.version, title: suite.title)
    }

    /// Every requirement of the catalogue as the reports list it, in catalogue order.
    public var requirementInfos: [RequirementInfo] {
        requirements.map { RequirementInfo(id: $0.id, level: $0.level, statement: $0.statement, section: $0.section) }
    }
}
