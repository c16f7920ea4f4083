import Testing

@testable import AllProfiles
@testable import Callx
@testable import Conformance

/// The registered profiles: each once, each with its shipped suite naming it.
@Suite struct ProfileRegistryTests {
    @Test func everyProfileIsRegisteredOnceWithASuiteThatNamesIt() throws {
        #expect(!Profiles.all.isEmpty)
        #expect(Set(Profiles.names).count == Profiles.names.count, "\(Profiles.names)")
        #expect(Profiles.defaultProfile.name == "callx")
        for profile in Profiles.all {
            #expect(Profiles.named(profile.name)?.name == profile.name)
            #expect(profile.suiteDirectory == "suites/\(profile.name)")
            #expect(!profile.summary.isEmpty && !profile.summary.contains("\n"))
            let suite = try Suite.load(directory: ConformanceFixtures.repositoryRoot + "/" + profile.suiteDirectory)
            #expect(suite.profile.name == profile.name)
            #expect(suite.catalogue.suite.profile == profile.name)
        }
    }

    @Test func anUnknownNameIsNoProfileAndTheMessageSuggestsTheNearest() {
        #expect(Profiles.named("calx") == nil)
        #expect(Profiles.named("") == nil)
        #expect(Profiles.unknownMessage("calx").hasPrefix("unknown profile 'calx' (did you mean 'callx'?)"))
        #expect(
            Profiles.unknownMessage("zzzzzzzz")
                == "unknown profile 'zzzzzzzz' (profiles: \(Profiles.names.joined(separator: ", ")))")
    }

    @Test func callxKeepsItsStepsTypeAndSuite() {
        let callx = CallxProfile()
        #expect(callx.defaultPushType == "call.invited")
        #expect(callx.suiteDirectory == "suites/callx")
        // Its steps are not the engine's generic ones.
        #expect(Set(callx.stepKeywords).isDisjoint(with: Step.kinds))
        #expect(Set(callx.requestStepKeywords).isSubset(of: Set(callx.stepKeywords)))
    }
}
