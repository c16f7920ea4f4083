import JSON
import PushMocks
import Testing

@testable import Conformance
@testable import OneSignal

/// The OneSignal invariants as a pure function: what a conforming request looks like, the caller's options
/// overriding the VoIP defaults, both auth schemes, and delivery judged against OneSignal's answer.
@Suite struct OneSignalInvariantTests {
    static let standard = OneSignalApp(role: .standard, appID: "11111111-1111-4111-8111-111111111111", apiKey: "ks")
    static let voip = OneSignalApp(role: .voip, appID: "22222222-2222-4222-8222-222222222222", apiKey: "kv")

    static func op(_ kind: OneSignalOperation.Kind, options: JSONValue? = nil, delivered: Bool? = true)
        -> OneSignalOperation
    {
        OneSignalOperation(
            kind: kind, externalId: kind == .pushBroadcast ? nil : "r1-b", title: kind == .voipPush ? nil : "t",
            body: kind == .voipPush ? nil : "b", data: ["ringcheckRun": "r1"], options: options, unconfigured: false,
            sentAtMs: 100, answeredAtMs: 110, delivered: delivered)
    }

    static func voipBody(ttl: JSONValue = 30) -> JSONValue {
        [
            "app_id": .string(voip.appID), "include_aliases": ["external_id": ["r1-b"]], "target_channel": "push",
            "data": ["ringcheckRun": "r1"], "apns_push_type_override": "voip", "content_available": true, "ttl": ttl,
        ]
    }

    static func request(_ body: JSONValue, auth: String = "Key kv", recipients: Int = 1) -> OneSignalRequest {
        OneSignalRequest(
            sequence: 1, arrivalMs: 105, authorization: auth, body: body, status: 200, recipients: recipients)
    }

    @Test func aConformingVoipRequestBreaksNothingWithEitherScheme() {
        for auth in ["Key kv", "Basic kv"] {
            let v = OneSignalInvariants.check(
                [Self.request(Self.voipBody(), auth: auth)], operations: [Self.op(.voipPush)],
                standard: Self.standard, voip: Self.voip)
            #expect(v.isEmpty, "\(v)")
        }
    }

    @Test func theCallersTTLOverridesTheVoipDefault() {
        let given = OneSignalInvariants.check(
            [Self.request(Self.voipBody(ttl: 60))], operations: [Self.op(.voipPush, options: ["ttl": 60])],
            standard: Self.standard, voip: Self.voip)
        #expect(given.isEmpty, "\(given)")
        let notGiven = OneSignalInvariants.check(
            [Self.request(Self.voipBody(ttl: 60))], operations: [Self.op(.voipPush)], standard: Self.standard,
            voip: Self.voip)
        #expect(notGiven.map(\.requirement) == ["ONESIGNAL-VOIP-4"])
    }

    @Test func theStandardKeyOnAVoipPushFailsOnlyTheVoipApp() {
        let v = OneSignalInvariants.check(
            [Self.request(Self.voipBody(), auth: "Key ks")], operations: [Self.op(.voipPush)],
            standard: Self.standard, voip: Self.voip)
        #expect(v.map(\.requirement) == ["ONESIGNAL-VOIP-1"] && v[0].field == "headers.authorization")
    }

    @Test func deliveredIsJudgedAgainstTheAnswer() {
        let noRequest = OneSignalInvariants.check(
            [], operations: [Self.op(.pushToUser)], standard: Self.standard, voip: Self.voip)
        #expect(noRequest.map(\.requirement) == ["ONESIGNAL-DELIV-1"])
        let reached = OneSignalInvariants.check(
            [Self.request(Self.voipBody())], operations: [Self.op(.voipPush, delivered: false)],
            standard: Self.standard, voip: Self.voip)
        #expect(reached.map(\.requirement) == ["ONESIGNAL-DELIV-2"])
        let zero = OneSignalInvariants.check(
            [Self.request(Self.voipBody(), recipients: 0)], operations: [Self.op(.voipPush, delivered: false)],
            standard: Self.standard, voip: Self.voip)
        #expect(zero.isEmpty)
    }
}
