import Foundation
import Testing

@testable import AllProfiles
@testable import Conformance

/// What every profile's catalogue must satisfy: it loads as the profile's, its IDs carry the profile's prefix,
/// every ID the profile's code charges is in it, its sections are headings of the seed and its statements are
/// our words, and every requirement has a scenario. Shared by the profiles' catalogue tests.
struct ProfileCatalogueChecks {
    var profile: String
    var profileType: any Profile.Type
    var idPrefix: String
    /// The seed's file name in the shared seeds folder.
    var seedFile: String
    /// The IDs the profile's code charges.
    var charged: [RequirementID]
    /// Whether the seed's headings are Markdown (`# Title`) rather than plain lines.
    var markdownHeadings = false

    var directory: String { ConformanceFixtures.repositoryRoot + "/suites/" + profile }

    func catalogueLoadsWithTheProfile() throws {
        let catalogue = try RequirementCatalogue.load(suiteDirectory: directory)
        #expect(catalogue.suite.id == profile)
        #expect(catalogue.suite.profile == profile)
        #expect(catalogue.requirements.allSatisfy { $0.id.hasPrefix(idPrefix) })
        let registered = try #require(Profiles.named(profile))
        #expect(type(of: registered) == profileType)
    }

    /// The profile charges only requirements of its catalogue (no ID it does not define); with `exactly`,
    /// every requirement is charged by its code.
    func chargedIdsAreInTheCatalogue(exactly: Bool = false) throws {
        let catalogue = try RequirementCatalogue.load(suiteDirectory: directory)
        for id in charged { #expect(catalogue[id.rawValue] != nil, "\(id)") }
        if exactly { #expect(Set(catalogue.requirements.map(\.id)) == Set(charged.map(\.rawValue))) }
    }

    func sectionsAreHeadingsOfTheSeedAndStatementsOurWords() throws {
        let catalogue = try RequirementCatalogue.load(suiteDirectory: directory)
        let seedPath = try #require(
            ConformanceFixtures.seed(seedFile), "the seed is not beside the checkout (set RINGCHECK_SEEDS)")
        let seed = try String(contentsOfFile: seedPath, encoding: .utf8)
        var lines = seed.components(separatedBy: "\n")
        if markdownHeadings {
            lines = lines.filter { $0.hasPrefix("#") }.map { String($0.drop { $0 == "#" || $0 == " " }) }
        }
        for section in catalogue.suite.sections { #expect(lines.contains(section), "'\(section)'") }
        for r in catalogue.requirements { #expect(!seed.contains(r.statement), "\(r.id) copies the seed") }
    }

    func everyRequirementHasAScenario() throws {
        let suite = try Suite.load(directory: directory)
        #expect(suite.profile.name == profile)
        let evidenced = Set(suite.scenarios.flatMap(\.requirements))
        for r in suite.catalogue.requirements { #expect(evidenced.contains(r.id), "\(r.id) has no scenario") }
    }
}
