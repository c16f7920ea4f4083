import Foundation
import TestSupport
import Testing

@testable import Conformance

@Suite struct PushServiceCatalogueTests {
    static var directory: String { ConformanceFixtures.repositoryRoot + "/suites/push-service" }

    @Test func catalogueLoadsWithTheProfile() throws {
        let catalogue = try RequirementCatalogue.load(suiteDirectory: Self.directory)
        #expect(catalogue.suite.id == "push-service")
        #expect(catalogue.suite.profile == "push-service")
        #expect(catalogue.requirements.allSatisfy { $0.id.hasPrefix("PUSHSVC-") })
        #expect(Profiles.named("push-service") is PushServiceProfile)
    }

    /// The profile's checks charge only requirements of its catalogue (no literal ID elsewhere).
    @Test func everyIdTheProfileChargesIsInTheCatalogue() throws {
        let catalogue = try RequirementCatalogue.load(suiteDirectory: Self.directory)
        for id in PushServiceRequirement.all { #expect(catalogue[id] != nil, "\(id)") }
    }

    @Test func sectionsAreHeadingsOfTheSeedAndStatementsOurWords() throws {
        let catalogue = try RequirementCatalogue.load(suiteDirectory: Self.directory)
        let seedPath = try #require(
            [
                ProcessInfo.processInfo.environment["RINGCHECK_SEEDS"],
                ConformanceFixtures.repositoryRoot + "/../shared/seeds",
                "/work/shared/seeds",
            ].compactMap { $0.map { $0 + "/push-service-rest-api.txt" } }
                .first { FileManager.default.fileExists(atPath: $0) },
            "the seed is not beside the checkout (set RINGCHECK_SEEDS)")
        let seed = try String(contentsOfFile: seedPath, encoding: .utf8)
        let lines = seed.components(separatedBy: "\n")
        for section in catalogue.suite.sections { #expect(lines.contains(section), "'\(section)'") }
        for r in catalogue.requirements { #expect(!seed.contains(r.statement), "\(r.id) copies the seed") }
    }

    @Test func everyRequirementHasAScenario() throws {
        let suite = try Suite.load(directory: Self.directory)
        #expect(suite.profile.name == "push-service")
        let evidenced = Set(suite.scenarios.flatMap(\.requirements))
        for r in suite.catalogue.requirements { #expect(evidenced.contains(r.id), "\(r.id) has no scenario") }
    }
}
