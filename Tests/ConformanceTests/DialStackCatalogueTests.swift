import Foundation
import TestSupport
import Testing

@testable import Conformance

@Suite struct DialStackCatalogueTests {
    static var directory: String { ConformanceFixtures.repositoryRoot + "/suites/dialstack" }

    @Test func catalogueLoadsWithTheProfile() throws {
        let catalogue = try RequirementCatalogue.load(suiteDirectory: Self.directory)
        #expect(catalogue.suite.id == "dialstack")
        #expect(catalogue.suite.profile == "dialstack")
        #expect(catalogue.requirements.allSatisfy { $0.id.hasPrefix("DIALSTACK-") })
        #expect(Profiles.named("dialstack") is DialStackProfile)
    }

    /// The profile's checks charge only requirements of its catalogue (no literal ID elsewhere).
    @Test func everyIdTheProfileChargesIsInTheCatalogue() throws {
        let catalogue = try RequirementCatalogue.load(suiteDirectory: Self.directory)
        for id in DialStackRequirement.all { #expect(catalogue[id] != nil, "\(id)") }
    }

    @Test func sectionsAreHeadingsOfTheSeedAndStatementsOurWords() throws {
        let catalogue = try RequirementCatalogue.load(suiteDirectory: Self.directory)
        let seedPath = try #require(
            [
                ProcessInfo.processInfo.environment["RINGCHECK_SEEDS"],
                ConformanceFixtures.repositoryRoot + "/../shared/seeds",
                "/work/shared/seeds",
            ].compactMap { $0.map { $0 + "/dialstack-push-wakeup.txt" } }
                .first { FileManager.default.fileExists(atPath: $0) },
            "the seed is not beside the checkout (set RINGCHECK_SEEDS)")
        let seed = try String(contentsOfFile: seedPath, encoding: .utf8)
        let lines = seed.components(separatedBy: "\n")
        for section in catalogue.suite.sections { #expect(lines.contains(section), "'\(section)'") }
        for r in catalogue.requirements { #expect(!seed.contains(r.statement), "\(r.id) copies the seed") }
    }

    @Test func everyRequirementHasAScenario() throws {
        let suite = try Suite.load(directory: Self.directory)
        #expect(suite.profile.name == "dialstack")
        let evidenced = Set(suite.scenarios.flatMap(\.requirements))
        for r in suite.catalogue.requirements { #expect(evidenced.contains(r.id), "\(r.id) has no scenario") }
    }
}
