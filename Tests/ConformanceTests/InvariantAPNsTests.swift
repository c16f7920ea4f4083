import JSON
import PushMocks
import TestSupport
import Testing

@testable import Conformance

@Suite struct InvariantAPNsTests {
    let x = InvariantFixture()

    func only(_ id: String, _ capture: Capture, sourceLocation: SourceLocation = #_sourceLocation)
        -> Violation?
    {
        let violations = x.check([capture])
        #expect(violations.map(\.requirement.rawValue) == [id], "\(violations)", sourceLocation: sourceLocation)
        return violations.first
    }

    @Test func pushTypeMustBeVoip() async throws {
        #expect(x.ids([await x.apns(headers: [("apns-push-type", "voip")])]).isEmpty)
        let alert = await x.apns(headers: [("apns-push-type", "alert")])
        #expect(alert.outcome != .accepted)  // the mock refuses an alert push to a .voip topic; still judged
        let v = try #require(only("CALLX-APNS-2", alert))
        #expect(v.level == .must)
        #expect(v.field == "headers.apns-push-type")
        #expect(v.expected == "\"voip\"" && v.actual == "\"alert\"")
        #expect(v.captures == [alert.sequence])
        let absent = await x.apns(headers: [("apns-push-type", nil)])
        #expect(absent.outcome == .accepted)  // APNs infers voip from the topic, but the seed names the header
        #expect(only("CALLX-APNS-2", absent)?.actual == "absent")
    }

    @Test func topicIsTheBundleIDWithVoip() async throws {
        let wrong = await x.apns(headers: [("apns-topic", "com.example.other.voip")])
        let v = try #require(only("CALLX-APNS-3", wrong))
        #expect(v.expected == "\"\(x.topic)\"")
        #expect(v.actual == "\"com.example.other.voip\"")
        // Without a known bundle ID only the .voip suffix is judged.
        var context = x.context()
        context.voipTopic = nil
        #expect(x.ids([await x.apns(headers: [("apns-topic", x.topic)])], context: context).isEmpty)
        let bare = await x.apns(headers: [("apns-topic", MockCredentials.defaultBundleID)])
        #expect(x.ids([bare], context: context).contains("CALLX-APNS-3"))
    }

    @Test func priorityIsTen() async throws {
        let five = await x.apns(headers: [("apns-priority", "5")])
        #expect(five.outcome == .accepted)
        let v = try #require(only("CALLX-APNS-4", five))
        #expect(v.level == .must && v.actual == "\"5\"")
        // APNs assumes 10 when the header is absent: flagged, but only as a SHOULD.
        let absent = try #require(only("CALLX-APNS-4", await x.apns(headers: [("apns-priority", nil)])))
        #expect(absent.level == .should)
    }

    @Test func expirationIsZero() async throws {
        let later = await x.apns(headers: [("apns-expiration", "1790000030")])
        #expect(later.outcome == .accepted)
        let v = try #require(only("CALLX-APNS-5", later))
        #expect(v.level == .must)
        #expect(v.description.contains("CALLX-APNS-5 MUST headers.apns-expiration: expected \"0\", got \"1790000030\""))
        #expect(only("CALLX-APNS-5", await x.apns(headers: [("apns-expiration", nil)]))?.level == .must)
    }

    @Test func onlyInvitationsAreVoipPushes() async throws {
        let ended = await x.apns(callx: InvariantFixture.signal())
        let v = try #require(only("CALLX-APNS-8", ended))
        #expect(v.level == .must && v.actual == "\"call.ended\"")
        let nothing = await x.apns(["aps": ["alert": "hi"]])
        #expect(only("CALLX-APNS-8", nothing)?.actual == "no callx")
    }

    @Test func bodyHasEmptyApsAndCallx() async throws {
        let alert = await x.apns(["aps": ["alert": "Incoming call"], "callx": InvariantFixture.invitation()])
        #expect(only("CALLX-APNS-6", alert)?.field == "aps")
        let missing = await x.apns(["callx": InvariantFixture.invitation()])
        #expect(only("CALLX-APNS-6", missing)?.actual == "absent")
    }

    @Test func requestGoesOverHTTP2ToTheDevicePath() async throws {
        let request = x.f.apnsRequest(body: MockFixture.voipBody, version: .http1_1)
        _ = await x.f.mocks.apnsProduction.handle(request)
        let capture = x.f.mocks.log.captures().last!
        let v = try #require(only("CALLX-APNS-1", capture))
        #expect(v.expected == "HTTP/2" && v.actual == "HTTP/1.1")
    }

    @Test func providerTokenIsBearer() async throws {
        let basic = await x.apns(headers: [("authorization", "basic abc")])
        #expect(only("CALLX-APNS-9", basic)?.level == .should)
    }

    @Test func hostMatchesTheRegisteredEnvironment() async throws {
        // b-pad's token is registered for the sandbox; sent through production it is a SHOULD violation.
        let wrong = await x.apns(token: InvariantFixture.sandboxToken, environment: .production)
        let v = try #require(only("CALLX-APNS-7", wrong))
        #expect(v.level == .should)
        #expect(v.actual == "APNs production")
        let right = await x.apns(token: InvariantFixture.sandboxToken, environment: .sandbox)
        #expect(x.check([right]).isEmpty)
        let phoneInSandbox = await x.apns(environment: .sandbox)
        #expect(x.ids([phoneInSandbox]) == ["CALLX-APNS-7"])
        // A token the context does not know is not judged for its environment.
        let stranger = await x.apns(token: String(repeating: "ef", count: 32), environment: .sandbox)
        #expect(x.check([stranger]).isEmpty)
    }

    @Test func rejectedCapturesAreJudgedForWhatTheBackendSent() async throws {
        _ = try x.f.mocks.faults.install(
            FaultPlan(deviceToken: InvariantFixture.phoneToken, times: 1, respond: FaultResponse(status: 429)))
        let refused = await x.apns(headers: [("apns-expiration", "60")])
        #expect(refused.outcome != .accepted)
        #expect(x.ids([refused]) == ["CALLX-APNS-5"])
    }
}
