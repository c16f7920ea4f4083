import Testing

@testable import Conformance
@testable import OneSignal

/// The onesignal catalogue against its seed and its profile's code.
@Suite struct OneSignalCatalogueTests {
    static let checks = ProfileCatalogueChecks(
        profile: "onesignal", profileType: OneSignalProfile.self, idPrefix: "ONESIGNAL-",
        seedFile: "onesignal-kit-voip.txt",
        charged: OneSignalRequirement.all, markdownHeadings: true)

    @Test func catalogueLoadsWithTheProfile() throws { try Self.checks.catalogueLoadsWithTheProfile() }

    /// The profile's checks charge only requirements of its catalogue, and every requirement is charged by one.
    @Test func theProfileChargesOnlyItsCatalogue() throws {
        try Self.checks.chargedIdsAreInTheCatalogue(exactly: true)
    }

    @Test func sectionsAreHeadingsOfTheSeedAndStatementsOurWords() throws {
        try Self.checks.sectionsAreHeadingsOfTheSeedAndStatementsOurWords()
    }

    @Test func everyRequirementHasAScenario() throws { try Self.checks.everyRequirementHasAScenario() }
}
