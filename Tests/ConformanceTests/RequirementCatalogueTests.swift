import Foundation
import TestSupport
import Testing

@testable import AllProfiles
@testable import Conformance

@Suite struct RequirementCatalogueTests {
    @Test func shippedCatalogueLoads() throws {
        let catalogue = try RequirementCatalogue.load(suiteDirectory: ConformanceFixtures.callxSuite)
        #expect(catalogue.suite.id == "callx")
        #expect(catalogue.requirements.count >= 60)
        #expect(Set(catalogue.ids).count == catalogue.ids.count)
        #expect(catalogue["CALLX-APNS-5"]?.level == .must)
        #expect(catalogue["CALLX-ARB-1"]?.level == .must)
        #expect(catalogue["CALLX-TOK-7"]?.level == .should)
        for r in catalogue.requirements {
            #expect(r.id.hasPrefix("CALLX-"))
            #expect(!r.statement.isEmpty && !r.statement.contains("\n"))
        }
    }

    @Test func catalogueCoversEverySectionOfTheSeed() throws {
        let catalogue = try RequirementCatalogue.load(suiteDirectory: ConformanceFixtures.callxSuite)
        for section in catalogue.suite.sections {
            #expect(catalogue.requirements.contains { $0.section == section }, "no requirement for \(section)")
        }
        // Every listed section is a heading of the seed, and no line that looks like a heading is missing.
        let seedPath = try #require(
            ConformanceFixtures.callxSeed, "the seed is not beside the checkout (set RINGCHECK_SEEDS)")
        let lines = try String(contentsOfFile: seedPath, encoding: .utf8).components(separatedBy: "\n")
        for section in catalogue.suite.sections {
            #expect(lines.contains(section), "'\(section)' is not a line of the seed")
        }
        let headings = [
            "What your backend does", "Data model", "Endpoints", "Idempotency and arbitration",
            "iOS: APNs VoIP invitation", "Android: FCM invitation", "The invitation fields",
            "Android: push signals (3.0.1)", "Signaling events", "Security checklist", "Test it end to end",
        ]
        #expect(catalogue.suite.sections == headings)
    }

    @Test func statementsAreOurOwnWords() throws {
        let catalogue = try RequirementCatalogue.load(suiteDirectory: ConformanceFixtures.callxSuite)
        let seedPath = try #require(
            ConformanceFixtures.callxSeed, "the seed is not beside the checkout (set RINGCHECK_SEEDS)")
        let seed = try String(contentsOfFile: seedPath, encoding: .utf8)
        for r in catalogue.requirements {
            #expect(!seed.contains(r.statement), "\(r.id) copies the seed")
        }
    }

    @Test func validationReportsEveryProblem() throws {
        let dir = TemporaryDirectory()
        try dir.write(
            "suite.yaml", "id: callx\nversion: \"1\"\ntitle: t\nseed: s.txt\nsections: [One, Two]\n")
        try dir.write(
            "requirements.yaml",
            """
            requirements:
              - {id: CALLX-A-1, level: MUST, statement: x, section: One}
              - {id: CALLX-A-1, level: MAY, statement: "", section: Onne}
              - {id: callx-b-01, level: SHOULD, statement: y, section: One, extra: 1}
            """)
        let error = #expect(throws: SuiteLoadError.self) { try RequirementCatalogue.load(suiteDirectory: dir.path) }
        let text = error?.description ?? ""
        #expect(text.contains("duplicate requirement ID 'CALLX-A-1'"))
        #expect(text.contains("'MAY' is not one of 'MUST', 'SHOULD'"))
        #expect(text.contains("requirements[1].statement: must not be empty"))
        #expect(text.contains("(did you mean 'One'?)"))
        #expect(text.contains("requirements[2]: unknown field 'extra'"))
        #expect(text.contains("'callx-b-01' is not shaped"))
        #expect(text.contains("no requirement comes from section 'Two'"))
    }

    @Test func suiteFileTypesAreChecked() throws {
        let dir = TemporaryDirectory()
        try dir.write("suite.yaml", "id: callx\nversion: 1\ntitle: t\nseed: s.txt\nsections: [One]\n")
        try dir.write("requirements.yaml", "requirements: []\n")
        let error = #expect(throws: SuiteLoadError.self) { try RequirementCatalogue.load(suiteDirectory: dir.path) }
        #expect(
            error?.errors.first?.description
                == "\(dir.path)/suite.yaml:2:10: version: expected text, got number (quote it to make it text)")
    }
}
