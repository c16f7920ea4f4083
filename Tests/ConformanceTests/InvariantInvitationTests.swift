import JSON
import PushMocks
import TestSupport
import Testing

@testable import Callx
@testable import Conformance

/// The invitation rules, each with a passing and a failing value, over APNs and FCM alike.
@Suite struct InvariantInvitationTests {
    let x = InvariantFixture()
    typealias F = InvariantFixture

    /// Requirement IDs for an APNs push and an FCM message carrying `invitation` (must agree).
    func ids(_ invitation: JSONValue, context: InvariantContext? = nil) async -> [String] {
        let apns = x.check([await x.apns(callx: invitation)], context: context).map(\.requirement.rawValue)
        // The FCM message may add a ttl finding when the times change; compare the rest.
        let fcm = x.check([await x.fcm(F.fcmMessage(callx: invitation))], context: context).map(\.requirement.rawValue)
            .filter { $0 != "CALLX-FCM-6" }
        #expect(apns == fcm, "APNs \(apns) and FCM \(fcm) disagree")
        return apns
    }

    static let cases: [(String, JSONValue?, String?)] = [
        // (field, value (nil removes it), the requirement it breaks or nil when fine)
        ("schemaVersion", 2, "CALLX-INV-1"),
        ("schemaVersion", "1", "CALLX-INV-1"),
        ("schemaVersion", .number("1.0"), "CALLX-INV-1"),
        ("schemaVersion", nil, "CALLX-INV-1"),
        ("callId", "call_1.a:b-c", nil),
        ("callId", "-starts-with-dash", "CALLX-INV-2"),
        ("callId", .string(String(repeating: "a", count: 128)), nil),
        ("callId", .string(String(repeating: "a", count: 129)), "CALLX-INV-2"),
        ("callId", "has space", "CALLX-INV-2"),
        ("callId", 42, "CALLX-INV-2"),
        ("callId", nil, "CALLX-INV-2"),
        ("displayName", .string(String(repeating: "é", count: 128)), nil),  // 256 bytes
        ("displayName", .string(String(repeating: "é", count: 128) + "x"), "CALLX-INV-3"),  // 257 bytes
        ("displayName", "", "CALLX-INV-3"),
        ("displayName", nil, "CALLX-INV-3"),
        ("handle", .string(String(repeating: "h", count: 256)), nil),
        ("handle", .string(String(repeating: "h", count: 257)), "CALLX-INV-3"),
        ("handle", true, "CALLX-INV-3"),
        ("revision", "0", nil),
        ("revision", "12", nil),
        ("revision", "012", "CALLX-INV-4"),
        ("revision", "+1", "CALLX-INV-4"),
        ("revision", "1.0", "CALLX-INV-4"),
        ("revision", 1, "CALLX-INV-4"),
        ("revision", nil, nil),
        ("issuedAtMs", nil, nil),
        ("issuedAtMs", 0, nil),
        ("issuedAtMs", "1790000000000", "CALLX-INV-4"),
        ("issuedAtMs", 1_790_000_000_000.5, "CALLX-INV-4"),
        ("issuedAtMs", -1, "CALLX-INV-4"),
        ("expiresAtMs", .number("9007199254740992"), "CALLX-INV-4"),
        ("expiresAtMs", .number("1.79000003e12"), "CALLX-INV-4"),
        ("video", true, nil),
        ("video", false, nil),
        ("video", "true", "CALLX-INV-4"),
        ("eventId", "evt:1_a.b-c", nil),
        ("eventId", nil, "CALLX-INV-5"),
        ("eventId", "evt invite", "CALLX-INV-5"),
        ("expiresAtMs", .int(F.start), "CALLX-INV-6"),  // not after issuedAtMs
        ("unknownField", "extra members are allowed", nil),
    ]

    @Test(arguments: cases.indices)
    func field(index: Int) async {
        let (field, value, requirement) = Self.cases[index]
        let found = await ids(F.invitation([(field, value)]))
        #expect(found == (requirement.map { [$0] } ?? []), "\(field) = \(String(describing: value))")
    }

    @Test func typeMustBeCallInvitedForABareInvitation() throws {
        let check = try PayloadProfile.check(F.invitation([("type", "call.invite")]), kind: .invitation)
        #expect(check.violations.map(\.requirement.rawValue) == ["CALLX-INV-1"])
        #expect(check.violations.first?.field == "type")
    }

    @Test func levelsComeFromTheCatalogue() async {
        let violations = x.check([await x.apns(callx: F.invitation([("eventId", nil), ("revision", "01")]))])
        #expect(violations.map(\.level) == [.should, .must])
        var context = x.context()
        context.levels.levels["CALLX-INV-4"] = .should
        #expect(
            x.check([await x.apns(callx: F.invitation([("revision", "01")]))], context: context).first?.level == .should
        )
    }

    /// The seed's create body has no video field: a call whose create did not say (video nil) is not
    /// judged on `video`, whatever the invitation carries; one created as a video call is.
    @Test func videoIsJudgedOnlyWhenTheCreateAskedForIt() async {
        let unasked = x.context(calls: [CallTimeline(callId: F.callId, expiresAtMs: F.start + 30_000)])
        #expect(await ids(F.invitation(), context: unasked).isEmpty)
        #expect(await ids(F.invitation([("video", false)]), context: unasked).isEmpty)
        let asked = x.context(calls: [CallTimeline(callId: F.callId, expiresAtMs: F.start + 30_000, video: true)])
        #expect(await ids(F.invitation(), context: asked) == ["CALLX-INV-6"])
    }

    @Test func expiryAndVideoMatchTheCall() async {
        let call = CallTimeline(callId: F.callId, expiresAtMs: F.start + 30_000, video: true)
        let context = x.context(calls: [call])
        #expect(await ids(F.invitation([("video", true)]), context: context).isEmpty)
        #expect(await ids(F.invitation(), context: context) == ["CALLX-INV-6"])
        let otherExpiry = F.invitation(expiresAtMs: F.start + 20_000, [("video", true)])
        let apns = x.check([await x.apns(callx: otherExpiry)], context: context)
        #expect(apns.map(\.requirement.rawValue) == ["CALLX-INV-6"])
        #expect(apns.first?.expected == "the call's expiresAtMs \(F.start + 30_000)")
    }

    @Test func violationPathsPointIntoTheDataString() async {
        let v = x.check([await x.fcm(F.fcmMessage(callx: F.invitation([("revision", "01")])))])
        #expect(v.first?.field == "message.data.callx→revision")
        let a = x.check([await x.apns(callx: F.invitation([("revision", "01")]))])
        #expect(a.first?.field == "callx.revision")
    }
}
