import AllProfiles
import Conformance
import Foundation
import Testing

@testable import RingcheckCLI

/// The per-profile parts of `trigger`, `load` and `validate --help` are the registered profiles' own text
/// (`TriggerProfileOptions.helpSection`/`examples`, `ProfileLoad.helpSection`, `TargetProbing.probeSummary`),
/// in registry order; the commands keep only the general prose. In process: the configurations as built.
@Suite struct RegistryHelpTests {
    @Test func triggersHelpHasEachProfilesSectionAndExamplesInRegistryOrder() {
        let help = TriggerCommand.configuration
        let sections = TriggerCommand.profiles.map { $0.options.helpSection }
        #expect(sections.allSatisfy { !$0.isEmpty && help.discussion.contains($0) })
        let at = sections.compactMap { help.discussion.range(of: $0)?.lowerBound }
        #expect(at == at.sorted() && at.count == sections.count)
        #expect(help.examples == TriggerCommand.profiles.flatMap { $0.options.examples })
        // Wherever the prose wraps.
        let prose = help.discussion.replacingOccurrences(of: "\n", with: " ")
        #expect(prose.contains("PROFILE is \(TriggerCommand.profiles.map(\.name).sentenceList("or"))."))
    }

    @Test func loadsHelpHasEachProfilesSection() {
        let discussion = LoadCommand.configuration.discussion
        let sections = Profiles.all.compactMap { $0.load?.helpSection }
        #expect(sections.count == LoadCommand.profiles.count)
        for (name, section) in zip(LoadCommand.profiles, sections) {
            #expect(section.hasPrefix("\(name): ") && discussion.contains(section), "\(name)")
        }
    }

    @Test func validatesHelpNamesWhatEachProbeTries() {
        let discussion = ValidateCommand.configuration.discussion
        for profile in Profiles.all {
            guard let probing = profile as? any TargetProbing, !probing.probeSummary.isEmpty else { continue }
            #expect(discussion.contains("\(profile.name): \(probing.probeSummary)"), "\(profile.name)")
        }
    }

    @Test func aListReadsAsASentence() {
        #expect(["a", "b", "c"].sentenceList("or") == "a, b or c")
        #expect(["a", "b"].sentenceList("and") == "a and b")
        #expect(["a"].sentenceList("or") == "a")
        #expect([String]().sentenceList("or") == "")
    }
}
