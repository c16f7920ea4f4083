import AllProfiles
import Conformance
import ReferenceBackend
import Testing

@testable import RingcheckCLI

/// The CLI's reference kits (`ReferenceKits.registered.all`): one per profile, each a registered profile with its defects,
/// and the one list `serve-reference` and `run` read.
@Suite struct ProfileReferencesTests {
    @Test func everyReferenceIsARegisteredProfileOnceWithItsDefects() {
        let names = ReferenceKits.registered.all.map { $0.name }
        #expect(Set(names).count == names.count, "\(names)")
        #expect(names.first == Profiles.defaultProfile.name)
        for kit in ReferenceKits.registered.all {
            #expect(Profiles.named(kit.name) != nil, "\(kit.name) is not in Profiles.all")
            #expect(!kit.defectNames.isEmpty)
            #expect(Set(kit.defectNames).count == kit.defectNames.count)
            #expect(ReferenceKits.registered.named(kit.name)?.name == kit.name)
        }
        #expect(ReferenceKits.registered.named("callx")?.defectNames == CallxDefect.allCases.map(\.name))
        #expect(ReferenceKits.registered.named("calx") == nil)
    }

    /// `serve-reference`'s profiles (positional and `--profile`), its help and defect errors, and `run`'s
    /// embedded references and `--reference-defect` are all read from `ReferenceKits.registered.all`.
    @Test func serveReferenceAndRunTakeTheirReferencesFromTheRegistry() throws {
        let serve = ServeReferenceCommand.configuration
        let run = RunCommand.configuration
        for kit in ReferenceKits.registered.all {
            for args in [[kit.name], ["--profile", kit.name], [kit.name, "--profile", kit.name]] {
                let chosen = try ServeReferenceCommand.kit(ArgumentParser.parse(args, for: serve))
                #expect(chosen.name == kit.name, "\(args)")
            }
            #expect(serve.discussion.contains(kit.helpSection), "\(kit.name)'s section is missing from the help")
            #expect(kit.defectNames.allSatisfy { serve.discussion.contains($0) })
            #expect(RunCommand.defectHelp.contains("\(kit.name): " + kit.defectNames.joined(separator: ", ")))
            let command = try RunCommand(arguments: ArgumentParser.parse(["--profile", kit.name], for: run))
            #expect(try command.referenceDefects(for: kit.name).0.name == kit.name)
            var wrong = command
            wrong.defectNames = [kit.defectNames[0] + "x"]
            #expect {
                _ = try wrong.referenceDefects(for: kit.name)
            } throws: { error in
                let text = "\(error)"
                return kit.defectNames.allSatisfy { text.contains($0) }
                    && text.contains("did you mean '\(kit.defectNames[0])'?")
            }
        }
        #expect(ReferenceKits.registered.namesSentence.hasSuffix(" or " + ReferenceKits.registered.all.last!.name))
        #expect(
            serve.options.contains { $0.name == "profile" && $0.help.contains(ReferenceKits.registered.namesSentence) })
        #expect(throws: UsageError.self) {
            _ = try ServeReferenceCommand.kit(ArgumentParser.parse(["nope"], for: serve))
        }
        #expect(throws: UsageError.self) {
            _ = try ServeReferenceCommand.kit(ArgumentParser.parse(["callx", "--profile", "dialstack"], for: serve))
        }
        #expect(
            try ServeReferenceCommand.kit(ArgumentParser.parse([], for: serve)).name == Profiles.defaultProfile.name)
    }

    @Test func aTargetFileAndProfileMustAgree() {
        #expect(RunCommand.profileConflict(option: nil, file: "dialstack", path: "t.yaml") == nil)
        #expect(RunCommand.profileConflict(option: "callx", file: nil, path: "t.yaml") == nil)
        #expect(RunCommand.profileConflict(option: "callx", file: "callx", path: "t.yaml") == nil)
        #expect(
            RunCommand.profileConflict(option: "callx", file: "dialstack", path: "t.yaml")
                == "the target file t.yaml says profile: dialstack, but --profile is callx; make them agree (or leave --profile out)"
        )
    }

    @Test func theWorstVerdictDecidesTheExitCode() {
        #expect(RunCommand.worst([]) == .success)
        #expect(RunCommand.worst([.success, .success]) == .success)
        #expect(RunCommand.worst([.success, .nonConformant]) == .nonConformant)
        #expect(RunCommand.worst([.nonConformant, .inconclusive, .success]) == .inconclusive)
        #expect(RunCommand.worst([.inconclusive, .usage, .nonConformant]) == .usage)
        #expect(RunCommand.verdictText(.nonConformant) == "non-conformant")
    }
}
