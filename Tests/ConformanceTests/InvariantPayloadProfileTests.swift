import JSON
import PushMocks
import TestSupport
import Testing

@testable import Callx
@testable import Conformance

@Suite struct InvariantPayloadProfileTests {
    let x = InvariantFixture()
    typealias F = InvariantFixture

    // MARK: Detection

    @Test func detectsEachKind() throws {
        #expect(try PayloadProfile.detect(["aps": [:], "callx": F.invitation()]) == .apns)
        #expect(try PayloadProfile.detect(F.fcmMessage()) == .fcm)
        #expect(try PayloadProfile.detect(F.fcmMessage()["message"]!) == .fcm)
        #expect(try PayloadProfile.detect(F.invitation()) == .invitation)
        #expect(throws: PayloadInputError.self) { try PayloadProfile.detect(["foo": 1]) }
        #expect(throws: PayloadInputError.self) { try PayloadProfile.check([1, 2]) }
    }

    @Test func bareDocumentsConform() throws {
        #expect(try PayloadProfile.check(["aps": [:], "callx": F.invitation()]).violations.isEmpty)
        let fcm = try PayloadProfile.check(F.fcmMessage())
        #expect(fcm.kind == .fcm && fcm.form == "an FCM request" && fcm.violations.isEmpty)
        let inner = try PayloadProfile.check(F.fcmMessage()["message"]!)
        #expect(inner.form == "an FCM message" && inner.violations.isEmpty)
        #expect(try PayloadProfile.check(F.invitation()).violations.isEmpty)
    }

    @Test func bareFCMMessageJudgesTheUpperTTLBoundOnly() throws {
        // No arrival time: 1s is not judged too low, 31s is above ceil((expiresAtMs − issuedAtMs)/1000) = 30.
        #expect(try PayloadProfile.check(F.fcmMessage(ttl: "1s")).violations.isEmpty)
        #expect(
            try PayloadProfile.check(F.fcmMessage(ttl: "31s")).violations.map(\.requirement.rawValue) == ["CALLX-FCM-6"]
        )
    }

    @Test func kindForcesTheReading() throws {
        // An invitation read as an APNs body has no callx: not an invitation over VoIP.
        let check = try PayloadProfile.check(F.invitation(), kind: .apns)
        #expect(check.violations.map(\.requirement.rawValue) == ["CALLX-APNS-8"])
    }

    // MARK: Captures as the control API renders them

    @Test func captureJSONIsJudgedLikeTheCapture() async throws {
        let captures = [
            await x.apns(headers: [("apns-expiration", "60"), ("apns-priority", "5")]),
            await x.apns(callx: F.signal()),
            await x.fcm(F.fcmMessage(priority: "normal", ttl: "0s")),
            await x.fcm(F.fcmMessage(ttl: "31s")),
            await x.apns(),
        ]
        for capture in captures {
            let direct = InvariantChecker.check(captures: [capture], context: InvariantContext())
            let viaJSON = try PayloadProfile.check(capture.json())
            #expect(viaJSON.violations == direct, "capture #\(capture.sequence)")
            #expect(viaJSON.form == "a capture of the \(capture.mock.rawValue) mock")
        }
    }

    @Test func capturesListGetsTheRulesAcrossPushes() async throws {
        let first = await x.apns()
        let second = await x.apns(callx: F.invitation(eventId: "evt-invite-002"), atMs: F.start + 900)
        _ = await x.f.accessToken()  // an OAuth capture in the list is skipped
        let list: JSONValue = ["captures": .array(x.f.mocks.log.captures().map { $0.json() })]
        let check = try PayloadProfile.check(list)
        #expect(check.form == "2 captures")
        #expect(check.violations.map(\.requirement.rawValue) == ["CALLX-OUTBOX-4"])
        #expect(check.violations.first?.captures == [second.sequence, first.sequence])
    }

    @Test func mixedCapturesListHasNoSingleKind() async throws {
        _ = await x.apns()
        _ = await x.fcm(F.fcmMessage(ttl: "0s"))
        let list: JSONValue = ["captures": .array(x.f.mocks.log.captures().map { $0.json() })]
        let check = try PayloadProfile.check(list)
        #expect(check.kind == nil && check.form == "2 captures")
        #expect(check.violations.map(\.requirement.rawValue) == ["CALLX-FCM-7"])
    }

    @Test func kindMustAgreeWithACapture() async throws {
        let capture = await x.apns()
        #expect(throws: PayloadInputError.self) { try PayloadProfile.check(capture.json(), kind: .fcm) }
        #expect(try PayloadProfile.check(capture.json(), kind: .apns).violations.isEmpty)
    }

    @Test func oauthCaptureIsNotAPush() async throws {
        _ = await x.f.accessToken()
        let oauth = x.f.mocks.log.captures().last!
        #expect(throws: PayloadInputError.self) { try PayloadProfile.check(oauth.json()) }
    }
}
