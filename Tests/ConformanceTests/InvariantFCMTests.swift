import JSON
import PushMocks
import TestSupport
import Testing

@testable import Callx
@testable import Conformance

@Suite struct InvariantFCMTests {
    let x = InvariantFixture()
    typealias F = InvariantFixture

    func only(_ id: String, _ capture: Capture, sourceLocation: SourceLocation = #_sourceLocation)
        -> Violation?
    {
        let violations = x.check([capture])
        #expect(violations.map(\.requirement.rawValue) == [id], "\(violations)", sourceLocation: sourceLocation)
        return violations.first
    }

    // MARK: Priority and notification

    @Test(arguments: ["HIGH", "high", "High"])
    func invitationPriorityHighInAnyCase(priority: String) async {
        #expect(x.check([await x.fcm(F.fcmMessage(priority: .string(priority)))]).isEmpty)
    }

    @Test func invitationAtNormalOrDefaultPriorityIsAViolation() async throws {
        let normal = try #require(only("CALLX-FCM-3", await x.fcm(F.fcmMessage(priority: "NORMAL"))))
        #expect(normal.level == .must && normal.field == "message.android.priority")
        #expect(only("CALLX-FCM-3", await x.fcm(F.fcmMessage(priority: nil)))?.actual.hasPrefix("absent") == true)
    }

    @Test func invitationIsDataOnly() async throws {
        let top = await x.fcm(F.fcmMessage(extra: [("notification", ["title": "Alex"])]))
        #expect(top.outcome == .accepted)
        #expect(only("CALLX-FCM-4", top)?.field == "message.notification")
        let android = await x.fcm(F.fcmMessage(android: [("notification", ["title": "Alex"])]))
        #expect(only("CALLX-FCM-4", android)?.field == "message.android.notification")
    }

    // MARK: data.callx

    @Test func callxMustBeAString() async throws {
        var body = F.fcmMessage()
        let message = body["message"]!.setting("data", to: ["callx": F.invitation()])
        body = ["message": message]
        let capture = await x.fcm(body)
        #expect(capture.outcome != .accepted)  // FCM refuses non-string data values; still judged
        let v = try #require(only("CALLX-FCM-5", capture))
        #expect(v.actual == "an object")
        let notJSON = ["message": message.setting("data", to: ["callx": "{not json"])] as JSONValue
        #expect(only("CALLX-FCM-5", await x.fcm(notJSON))?.actual.contains("invalid JSON at byte") == true)
    }

    /// FCM v1's `android.data` overrides `message.data` (`FCMAppData`): a callx only there is judged, and named
    /// where it was read.
    @Test func callxInAndroidDataIsJudged() async throws {
        func moved(_ body: JSONValue) -> JSONValue {
            let message = body["message"]!
            let android = message["android"]!.setting("data", to: message["data"]!)
            return ["message": message.setting("android", to: android).setting("data", to: .null)]
        }
        let conforming = await x.fcm(moved(F.fcmMessage()))
        #expect(conforming.outcome == .accepted && conforming.fcm?.data["callx"] != nil)
        #expect(x.check([conforming]).isEmpty)
        #expect(only("CALLX-FCM-3", await x.fcm(moved(F.fcmMessage(priority: "NORMAL")))) != nil)
        let ended = await x.fcm(moved(F.fcmMessage(callx: F.signal(reason: nil), priority: "NORMAL")))
        #expect(only("CALLX-FCM-9", ended)?.field == "message.android.data.callx→reason")
    }

    @Test func messageTargetsAToken() async throws {
        var message = F.fcmMessage()["message"]!
        if case .object(var members) = message {
            members.removeAll { $0.key == "token" }
            members.append(("topic", "calls"))
            message = .object(members)
        }
        #expect(only("CALLX-FCM-2", await x.fcm(["message": message]))?.actual == "a topic target")
    }

    /// firebase-admin 7.x addresses an installation with `fid` instead of `token`: judged alike.
    @Test func fidAddressedMessagesAreJudgedLikeTokenOnes() async throws {
        var message = F.fcmMessage()["message"]!
        if case .object(var members) = message {
            members.removeAll { $0.key == "token" }
            members.insert(("fid", .string(F.tabletToken)), at: 0)
            message = .object(members)
        }
        let capture = await x.fcm(["message": message])
        #expect(x.check([capture]).isEmpty, "\(x.check([capture]))")
        #expect(PushDocument(capture: capture)?.deviceToken == F.tabletToken)
        // An empty fid is no address.
        let empty = await x.fcm(["message": message.setting("fid", to: "")])
        #expect(only("CALLX-FCM-2", empty)?.field == "message.fid")
    }

    @Test func nonCallxMessagesAreNotJudged() async {
        let body: JSONValue = ["message": ["token": .string(F.tabletToken), "data": ["chat": "hello"]]]
        #expect(x.check([await x.fcm(body)]).isEmpty)
    }

    // MARK: TTL

    @Test func ttlZeroIsNeverAllowed() async throws {
        let v = try #require(only("CALLX-FCM-7", await x.fcm(F.fcmMessage(ttl: "0s"))))
        #expect(v.level == .must && v.actual == "\"0s\"")
    }

    @Test func ttlMustBeWholeSecondsAndPresent() async throws {
        #expect(only("CALLX-FCM-6", await x.fcm(F.fcmMessage(ttl: "29.5s")))?.expected == "whole seconds")
        #expect(x.check([await x.fcm(F.fcmMessage(ttl: "30.000000000s"))]).isEmpty)
        #expect(only("CALLX-FCM-6", await x.fcm(F.fcmMessage(ttl: nil)))?.actual.hasPrefix("absent") == true)
    }

    /// Issued at start, expiring 30 s later, arriving at start + 200 ms: ttl ∈ [floor(29.8), ceil(30)] = [29, 30].
    @Test(arguments: [("28s", false), ("29s", true), ("30s", true), ("31s", false)])
    func ttlWindowFromIssuedToArrival(ttl: String, ok: Bool) async {
        let violations = x.check([await x.fcm(F.fcmMessage(ttl: .string(ttl)))])
        #expect(violations.isEmpty == ok, "\(violations)")
        if !ok { #expect(violations.map(\.requirement.rawValue) == ["CALLX-FCM-6"]) }
    }

    /// Issued 100 ms after start, arriving 1.5 s after start: [floor(28.5), ceil(29.9)] = [28, 30].
    @Test(arguments: [("27s", false), ("28s", true), ("30s", true), ("31s", false)])
    func ttlWindowWithLateArrival(ttl: String, ok: Bool) async {
        let callx = F.invitation(issuedAtMs: F.start + 100)
        let capture = await x.fcm(F.fcmMessage(callx: callx, ttl: .string(ttl)), atMs: F.start + 1500)
        let violations = x.check([capture])
        #expect(violations.isEmpty == ok, "\(violations)")
    }

    @Test func ttlViolationNamesBothBounds() async throws {
        let v = try #require(only("CALLX-FCM-6", await x.fcm(F.fcmMessage(ttl: "3600s"))))
        #expect(v.expected.contains("at least 29s"))
        #expect(v.expected.contains("at most 30s (ceil((expiresAtMs − issuedAtMs)/1000))"))
        #expect(v.actual == "\"3600s\"")
    }

    @Test func ttlWithoutIssuedAtUsesTheCallsCreationTime() async throws {
        let callx = F.invitation([("issuedAtMs", nil)])
        let capture = await x.fcm(F.fcmMessage(callx: callx, ttl: "31s"))
        // Without issuedAtMs or a known creation time only the lower bound is judged.
        #expect(x.check([capture]).isEmpty)
        let call = CallTimeline(callId: F.callId, createdAtMs: F.start, expiresAtMs: F.start + 30_000)
        let v = try #require(x.check([capture], context: x.context(calls: [call])).first)
        #expect(v.requirement.rawValue == "CALLX-FCM-6")
        #expect(v.expected.contains("createdAtMs"))
    }

    // MARK: Stop signals

    @Test func stopSignalsAtNormalPriority() async throws {
        #expect(x.check([await x.fcm(F.fcmMessage(callx: F.signal(), priority: "NORMAL", ttl: nil))]).isEmpty)
        #expect(x.check([await x.fcm(F.fcmMessage(callx: F.signal(), priority: nil, ttl: nil))]).isEmpty)
        #expect(x.check([await x.fcm(F.fcmMessage(callx: F.signal(), priority: "normal", ttl: nil))]).isEmpty)
        let accepted = F.signal("call.accepted", reason: nil)
        #expect(x.check([await x.fcm(F.fcmMessage(callx: accepted, priority: "normal", ttl: "5s"))]).isEmpty)
        let high = try #require(only("CALLX-FCM-8", await x.fcm(F.fcmMessage(callx: F.signal(), priority: "HIGH"))))
        #expect(high.level == .must)
    }

    @Test func endedSignalCarriesAReason() async throws {
        let v = try #require(
            only("CALLX-FCM-9", await x.fcm(F.fcmMessage(callx: F.signal(reason: nil), priority: "NORMAL"))))
        #expect(v.level == .should)
    }
}
