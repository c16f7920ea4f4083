import Conformance
import ReferenceBackend
import Testing

@testable import ringcheck

/// The CLI's list of embedded references: one per profile, each a registered profile with its defects.
@Suite struct ProfileReferencesTests {
    @Test func everyReferenceIsARegisteredProfileOnceWithItsDefects() {
        let names = ProfileReferences.all.map(\.profile.name)
        #expect(Set(names).count == names.count, "\(names)")
        #expect(names.first == Profiles.defaultProfile.name)
        for reference in ProfileReferences.all {
            #expect(Profiles.named(reference.profile.name) != nil, "\(reference.profile.name) is not in Profiles.all")
            #expect(!reference.defectNames.isEmpty)
            #expect(Set(reference.defectNames).count == reference.defectNames.count)
            #expect(ProfileReferences.named(reference.profile.name)?.profile.name == reference.profile.name)
        }
        #expect(ProfileReferences.named("callx")?.defectNames == Defect.allCases.map(\.name))
        #expect(ProfileReferences.named("calx") == nil)
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
