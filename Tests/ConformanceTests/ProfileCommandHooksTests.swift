import Testing

@testable import AllProfiles
@testable import Callx
@testable import Conformance
@testable import DialStack
@testable import OneSignal
@testable import PushService

/// The hooks through which a profile supplies `load`, `trigger` and `check-payload` their profile-specific
/// parts, so the CLI names no profile: which profiles offer them, and that what a profile's hook reads from
/// its options and environment is its own.
@Suite struct ProfileCommandHooksTests {
    /// Options as the CLI's parser hands them over.
    struct GivenArguments: TriggerArguments {
        var values: [String: String] = [:]
        var flags: Set<String> = []
        func value(_ name: String) -> String? { values[name] }
        func flag(_ name: String) -> Bool { flags.contains(name) }
        func int(_ name: String) throws -> Int? { values[name].flatMap { Int($0) } }
        func duration(_ name: String) throws -> Duration? { values[name].flatMap { Double($0) }.map { .seconds($0) } }
    }

    @Test func theRegistryNamesWhoHasALoadModeATriggerAndAPayloadJudge() {
        let registry = Profiles.registry
        #expect(
            registry.all.filter { $0.load != nil }.map(\.name) == ["callx", "dialstack", "push-service", "onesignal"])
        #expect(
            registry.all.filter { $0.triggerOptions != nil }.map(\.name) == ["dialstack", "push-service", "onesignal"])
        // A profile that offers none (the test probe) gets the defaults: load and trigger refuse it.
        #expect(HookTestProfile().load == nil)
        #expect(HookTestProfile().triggerOptions == nil)
        #expect(HookTestProfile().capturedPushJudge == nil)
    }

    @Test func loadOptionsAndUsersBelongToTheirProfile() {
        #expect(CallxLoad().options == ["short-ring"])
        #expect(CallxLoad().embeddedCallers == ["load-a0", "load-a1"])
        #expect(DialStackLoad().options.isEmpty)
        #expect(DialStackLoad().targetUsersAreCallees)
        #expect(DialStackLoad().embeddedCallees == ["l0", "l1", "l2", "l3", "l4", "l5"])
        #expect(PushServiceLoad().words == LoadWords(unit: "notification", invitations: "incoming-call pushes"))
        #expect(CallxLoad().words == LoadWords())
        // load --target asks a file only for the users its profile's load plays: callx's a and b, none by name
        // for the others.
        guard case .users(let callxUsers, _) = (CallxLoad() as any ProfileLoad).targetUserNeeds else {
            Issue.record("callx's load names its target users")
            return
        }
        #expect(callxUsers == ["a", "b"])
        #expect(PushServiceLoad().targetUserNeeds == .users([], why: ""))
        #expect(DialStackLoad().targetUserNeeds == .users([], why: ""))
    }

    @Test func aProfilesTriggerOptionsRefuseWhatCannotMakeAPlan() throws {
        let shared = TriggerSharedOptions(
            url: "http://127.0.0.1:9/webhooks/dialstack", user: "user-b", noDevices: false, keepDevices: false,
            settle: nil)
        let missing = #expect(throws: TriggerOptionError.self) {
            try DialStackTriggerOptions(GivenArguments(), shared: shared, environment: [:])
        }
        #expect(
            missing?.message == "--secret SECRET (or DIALSTACK_WEBHOOK_SECRET) is required: DialStack signs with it")
        let badType = #expect(throws: TriggerOptionError.self) {
            try DialStackTriggerOptions(
                GivenArguments(values: ["secret": "s", "type": "call.ringx"]), shared: shared, environment: [:])
        }
        #expect(badType?.message.contains("did you mean 'call.ringing'?") == true, "\(badType?.message ?? "")")
        let fromEnvironment = try DialStackTriggerOptions(
            GivenArguments(), shared: shared, environment: ["DIALSTACK_WEBHOOK_SECRET": "whsec_x"])
        #expect(fromEnvironment.announcement == "Triggering call.mobile_push_wakeup for user-b at \(shared.url)")
        let send = #expect(throws: TriggerOptionError.self) {
            try OneSignalTriggerOptions(
                GivenArguments(values: ["send": "vop"]), shared: shared, environment: [:])
        }
        #expect(send?.message.hasPrefix("--send 'vop' is not a kit operation; did you mean 'voip'?") == true)
    }

    @Test func aPayloadJudgesContextComesFromItsOwnOptionsThenTheEnvironment() {
        #expect(OneSignalCapturedRequests.optionRows.map(\.name) == ["app-id", "voip-app-id"])
        #expect(DialStackCapturedPushes.optionRows.map(\.name) == ["call-id"])
        #expect(DialStackCapturedPushes.optionRows.allSatisfy { $0.repeatable })
        let environment = ["RINGCHECK_ONESIGNAL_APP_ID": "", "RINGCHECK_ONESIGNAL_VOIP_APP_ID": "voip-env"]
        let fromEnvironment = OneSignalCapturedRequests.context(voipTopic: nil, options: [:], environment: environment)
        #expect(fromEnvironment.appId == nil, "an empty variable names no app")
        #expect(fromEnvironment.voipAppId == "voip-env")
        let given = OneSignalCapturedRequests.context(
            voipTopic: "t.voip", options: ["app-id": ["a"], "voip-app-id": ["v"]], environment: environment)
        #expect(given.appId == "a" && given.voipAppId == "v" && given.voipTopic == "t.voip")
        // Another profile's judge keeps the topic alone, whatever the environment says.
        let other = DialStackCapturedPushes.context(voipTopic: "t.voip", options: [:], environment: environment)
        #expect(other.appId == nil && other.voipAppId == nil && other.voipTopic == "t.voip" && other.callIds.isEmpty)
        let calls = DialStackCapturedPushes.context(
            voipTopic: nil, options: ["call-id": ["c1", "c2"]], environment: environment)
        #expect(calls.callIds == ["c1", "c2"], "every --call-id is kept")
    }

    @Test func payloadLevelsAreTheProfilesOwnCatalogue() {
        let levels = CapturedPushCheck.levels(of: DialStackProfile())
        #expect(!levels.isEmpty)
        #expect(levels.keys.allSatisfy { $0.hasPrefix("DIALSTACK-") })
        #expect(CapturedPushCheck.levels(of: HookTestProfile()).isEmpty, "no embedded suite, no levels")
    }
}
