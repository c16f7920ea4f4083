import Testing

@testable import Conformance
@testable import PushService

/// The push-service catalogue against its seed and its profile's code.
@Suite struct PushServiceCatalogueTests {
    static let checks = ProfileCatalogueChecks(
        profile: "push-service", profileType: PushServiceProfile.self, idPrefix: "PUSHSVC-",
        seedFile: "push-service-rest-api.txt",
        charged: PushServiceRequirement.all)

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
