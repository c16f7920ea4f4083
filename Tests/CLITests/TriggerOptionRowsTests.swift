import AllProfiles
import Conformance
import DialStack
import PushService
import Testing

@testable import RingcheckCLI

/// `trigger`'s options are built from the rows each profile declares: shared options first, then each profile's
/// rows in registry order, an option two profiles declare being one row that joins their sentences.
@Suite struct TriggerOptionRowsTests {
    let options = TriggerCommand.configuration.options

    @Test func everyProfilesRowIsOneOptionWhoseHelpHasTheProfilesSentence() throws {
        let names = options.map(\.name)
        #expect(Set(names).count == names.count, "an option is listed twice: \(names)")
        for (profile, kind) in TriggerCommand.profiles {
            for row in kind.optionRows {
                let option = try #require(options.first { $0.name == row.name }, "no --\(row.name)")
                #expect(option.help.contains("\(profile): \(row.help)"), "--\(row.name): \(option.help)")
                #expect(option.valueName == row.valueName && option.number == row.number, "--\(row.name)")
            }
        }
    }

    @Test func sharedOptionsComeFirstThenEachProfilesInRegistryOrder() throws {
        let names = options.map(\.name)
        let firstOwn = try #require(names.firstIndex(of: "secret"))
        #expect(names.prefix(firstOwn).contains("json") && names.prefix(firstOwn).contains("no-devices"))
        // push-service's rows (its --ttl last) before onesignal's.
        #expect(try #require(names.firstIndex(of: "ttl")) < #require(names.firstIndex(of: "data")))
        #expect(TriggerCommand.profiles.map(\.name) == Profiles.all.filter { $0.triggerOptions != nil }.map(\.name))
    }

    @Test func anOptionTwoProfilesDeclareJoinsTheirSentencesAndDefaults() throws {
        let send = try #require(options.first { $0.name == "send" })
        #expect(send.help == "push-service: call or notification; onesignal: user, broadcast or voip.")
        #expect(send.defaultDescription == "push-service: call; onesignal: user")
        let heading = try #require(options.first { $0.name == "heading" })
        #expect(heading.defaultDescription == "ringcheck", "one default when the profiles agree")
        let url = try #require(options.first { $0.name == "url" })
        #expect(url.help.hasPrefix("dialstack: ") && url.help.hasSuffix("base URL. Required."), "\(url.help)")
        let user = try #require(options.first { $0.name == "user" })
        #expect(user.defaultDescription == "push-service: a fresh ringcheck-trigger-… ID")
    }

    @Test func aProfilesOwnOptionsAreItsRowsLessTheSharedOnes() {
        for (_, kind) in TriggerCommand.profiles {
            #expect(Set(kind.ownOptions) == Set(kind.optionRows.map(\.name)).subtracting(TriggerSharedOptions.names))
        }
        #expect(PushServiceTriggerOptions.ownOptions.contains("ttl"))
        #expect(!DialStackTriggerOptions.ownOptions.contains("user"))
    }
}
