import Foundation
import TestSupport
import Testing

@testable import Conformance

@Suite struct OneSignalCatalogueTests {
    static var directory: String { ConformanceFixtures.repositoryRoot + "/suites/onesignal" }

    @Test func catalogueLoadsWithTheProfile() throws {
        let catalogue = try RequirementCatalogue.load(suiteDirectory: Self.directory)
        #expect(catalogue.suite.id == "onesignal")
        #expect(catalogue.suite.profile == "onesignal")
        #expect(catalogue.requirements.allSatisfy { $0.id.hasPrefix("ONESIGNAL-") })
        #expect(Profiles.named("onesignal") is OneSignalProfile)
    }

    /// The profile's checks charge only requirements of its catalogue, and every requirement is charged by one.
    @Test func theProfileChargesExactlyTheCatalogue() throws {
        let catalogue = try RequirementCatalogue.load(suiteDirectory: Self.directory)
        for id in OneSignalRequirement.all { #expect(catalogue[id] != nil, "\(id)") }
        #expect(Set(catalogue.requirements.map(\.id)) == Set(OneSignalRequirement.all))
    }

    @Test func sectionsAreHeadingsOfTheSeedAndStatementsOurWords() throws {
        let catalogue = try RequirementCatalogue.load(suiteDirectory: Self.directory)
        let seedPath = try #require(
            [
                ProcessInfo.processInfo.environment["RINGCHECK_SEEDS"],
                ConformanceFixtures.repositoryRoot + "/../shared/seeds",
                "/work/shared/seeds",
            ].compactMap { $0.map { $0 + "/onesignal-kit-voip.txt" } }
                .first { FileManager.default.fileExists(atPath: $0) },
            "the seed is not beside the checkout (set RINGCHECK_SEEDS)")
        let seed = try String(contentsOfFile: seedPath, encoding: .utf8)
        let headings = seed.components(separatedBy: "\n").filter { $0.hasPrefix("#") }.map {
            $0.drop { $0 == "#" || $0 == " " }
        }
        for section in catalogue.suite.sections { #expect(headings.contains(Substring(section)), "'\(section)'") }
        for r in catalogue.requirements { #expect(!seed.contains(r.statement), "\(r.id) copies the seed") }
    }

    @Test func everyRequirementHasAScenario() throws {
        let suite = try Suite.load(directory: Self.directory)
        #expect(suite.profile.name == "onesignal")
        let evidenced = Set(suite.scenarios.flatMap(\.requirements))
        for r in suite.catalogue.requirements { #expect(evidenced.contains(r.id), "\(r.id) has no scenario") }
    }
}
