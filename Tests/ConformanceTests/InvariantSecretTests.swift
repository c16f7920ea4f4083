import JSON
import PushMocks
import TestSupport
import Testing

@testable import Conformance

@Suite struct InvariantSecretTests {
    let x = InvariantFixture()
    typealias F = InvariantFixture

    @Test func knownMediaCredentialIsAMustViolation() async throws {
        let leaked = F.invitation([("room", "turn-user-7f3a:s3cr3tpass")])
        let context = x.context(credentials: ["s3cr3tpass"])
        let apns = try #require(x.check([await x.apns(callx: leaked)], context: context).first)
        #expect(apns.requirement.rawValue == "CALLX-SEC-1" && apns.level == .must)
        #expect(!apns.actual.contains("s3cr3tpass"))
        let fcm = x.check([await x.fcm(F.fcmMessage(callx: leaked))], context: context)
        #expect(fcm.map(\.requirement.rawValue) == ["CALLX-SEC-1"])
        #expect(x.check([await x.apns()], context: context).isEmpty)
    }

    @Test(arguments: ["password", "turnCredential", "iceServers", "mediaToken", "token", "clientSecret"])
    func credentialLookingFieldsAreHeuristicShoulds(field: String) async throws {
        let capture = await x.apns(callx: F.invitation([(field, "x")]))
        let v = try #require(x.check([capture]).first)
        #expect(v.requirement.rawValue == "CALLX-SEC-1" && v.level == .should)
        #expect(v.field == "callx.\(field)")
    }

    @Test func turnURLsInTheDataMapAreFound() async throws {
        let body = F.fcmMessage().setting(
            "message",
            to: F.fcmMessage()["message"]!.setting(
                "data", to: ["callx": .string(F.invitation().serialized()), "media": "turns:relay.example:443"]))
        let v = try #require(x.check([await x.fcm(body)]).first)
        #expect(v.field == "message.data.media" && v.actual == "a TURN URL" && v.level == .should)
    }

    @Test func fcmTargetTokenIsNotACredential() async {
        #expect(x.check([await x.fcm()]).isEmpty)
    }

    @Test func providerSecretsAreSEC2() async throws {
        var context = x.context()
        context.providerSecrets = ["MHcCAQEEIBvY1r7n"]
        let capture = await x.apns(callx: F.invitation([("key", "MHcCAQEEIBvY1r7n")]))
        #expect(x.check([capture], context: context).map(\.requirement.rawValue) == ["CALLX-SEC-2"])
        let pem = await x.apns(callx: F.invitation([("k", "-----BEGIN PRIVATE KEY-----")]))
        #expect(x.check([pem]).map(\.requirement.rawValue) == ["CALLX-SEC-2"])
    }
}
