import Testing

@testable import Conformance
@testable import DialStack

/// The dialstack catalogue against its seed and its profile's code.
@Suite struct DialStackCatalogueTests {
    static let checks = ProfileCatalogueChecks(
        profile: "dialstack", profileType: DialStackProfile.self, idPrefix: "DIALSTACK-",
        seedFile: "dialstack-push-wakeup.txt",
        charged: DialStackRequirement.all)

    @Test func catalogueLoadsWithTheProfile() throws { try Self.checks.catalogueLoadsWithTheProfile() }

    /// The profile's checks charge only requirements of its catalogue (no literal ID elsewhere).
    @Test func theProfileChargesOnlyItsCatalogue() throws {
        try Self.checks.chargedIdsAreInTheCatalogue()
    }

    @Test func sectionsAreHeadingsOfTheSeedAndStatementsOurWords() throws {
        try Self.checks.sectionsAreHeadingsOfTheSeedAndStatementsOurWords()
    }

    @Test func everyRequirementHasAScenario() throws { try Self.checks.everyRequirementHasAScenario() }
}
