import Foundation
import JSON
import PushMocks
import TestSupport
import Testing

@testable import Callx
@testable import Conformance

@Suite struct InvariantEventTests {
    typealias F = InvariantFixture

    static func event(
        _ eventId: String, type: String = "call.ended", callId: String = F.callId, revision: String,
        reason: String? = "remoteEnded"
    ) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("schemaVersion", 1), ("eventId", .string(eventId)), ("type", .string(type)),
            ("callId", .string(callId)), ("revision", .string(revision)), ("occurredAtMs", .int(F.start + 1)),
        ]
        if type == "call.accepted" { members.append(("answeredByInstallationId", "installation-b1")) }
        if let reason, type == "call.ended" { members.append(("reason", .string(reason))) }
        return .object(members)
    }

    func check(_ events: [ObservedEvent]) -> [Violation] {
        InvariantChecker.check(captures: [], events: events, context: InvariantContext())
    }

    @Test func increasingRevisionsAndUniqueIdsPass() {
        let events = [
            ObservedEvent(feed: "a", json: Self.event("e1", type: "call.accepted", revision: "2")),
            ObservedEvent(feed: "a", json: Self.event("e2", revision: "3")),
            ObservedEvent(feed: "b-phone", json: Self.event("e2", revision: "3")),  // the same event in another feed
            ObservedEvent(feed: "a", json: Self.event("e2", revision: "3")),  // read again: judged once
            ObservedEvent(feed: "a", json: Self.event("e3", callId: "call-2", revision: "1")),
        ]
        #expect(check(events).isEmpty, "\(check(events))")
    }

    @Test func revisionsMustIncreasePerCallInAFeed() throws {
        let events = [
            ObservedEvent(feed: "a", json: Self.event("e1", type: "call.accepted", revision: "9")),
            ObservedEvent(feed: "a", json: Self.event("e2", revision: "10")),  // decimal, not text, order
            ObservedEvent(feed: "a", json: Self.event("e3", revision: "10", reason: "other")),
        ]
        let v = try #require(check(events).first)
        #expect(check(events).count == 1)
        #expect(v.requirement.rawValue == "CALLX-EVT-3" && v.level == .should && v.field == "revision")
        #expect(v.events == [2, 1])
    }

    @Test func eventIdsNameOneEvent() throws {
        let events = [
            ObservedEvent(feed: "a", json: Self.event("e1", revision: "2")),
            ObservedEvent(feed: "b-phone", json: Self.event("e1", revision: "2", reason: "callerCancelled")),
        ]
        let v = try #require(check(events).first)
        #expect(v.requirement.rawValue == "CALLX-EVT-3" && v.field == "eventId")
        #expect(v.events == [1, 0])
    }

    @Test func eventIdsClashWithInvitations() async throws {
        let x = InvariantFixture()
        let invite = await x.apns()
        let events = [ObservedEvent(feed: "a", json: Self.event("evt-invite-001", revision: "2"))]
        let v = try #require(x.check([invite], events: events).first)
        #expect(v.requirement.rawValue == "CALLX-EVT-3")
        #expect(v.captures == [invite.sequence] && v.events == [0])
    }

    @Test func stopSignalsMayRepeatTheirFeedEvent() async {
        let x = InvariantFixture()
        let signal = await x.fcm(F.fcmMessage(callx: F.signal(), priority: "NORMAL", ttl: nil))
        let events = [ObservedEvent(feed: "b-tablet", json: F.signal())]
        #expect(x.check([signal], events: events).isEmpty)
    }

    /// A feed event reaches the invariants read back through the target's value maps, a stop signal as the
    /// backend sent it: the two are compared in the same words. A shared word (a many-to-one map) agrees with
    /// each value that shares it, and still not with another.
    @Test func aStopSignalInTheTargetsWordsRepeatsItsFeedEventReadBack() async throws {
        let x = InvariantFixture()
        var context = x.context()
        context.values = ValueMaps([
            "reason": ["callerCancelled": "hangup", "remoteEnded": "hangup", "declined": "decline"]
        ])
        // Only the eventId identity is judged here (a reason outside the seed's words is another rule's).
        func evt3(_ pushes: [Capture], _ feedReason: String, _ context: InvariantContext?) -> [String] {
            x.ids(
                pushes, events: [ObservedEvent(feed: "b-tablet", json: F.signal(reason: feedReason))], context: context
            )
            .filter { $0 == "CALLX-EVT-3" }
        }
        func signal(_ reason: String) async -> Capture {
            await x.fcm(F.fcmMessage(callx: F.signal(reason: reason), priority: "NORMAL", ttl: nil))
        }
        // The feed's "decline" was read back as declined; the signal says "decline".
        let declined = await signal("decline")
        #expect(evt3([declined], "declined", context) == [])
        // The feed's "hangup" cannot be read back and stays; the signal says "hangup" too.
        let hangup = await signal("hangup")
        #expect(evt3([hangup], "hangup", context) == [])
        // A shared word is callerCancelled or remoteEnded, never declined: the same eventId on both is a clash.
        #expect(evt3([hangup], "declined", context) == ["CALLX-EVT-3"])
        // Without maps the words are compared as they are.
        #expect(evt3([declined], "declined", nil) == ["CALLX-EVT-3"])
    }

    @Test func eventFields() {
        let bad: JSONValue = [
            "schemaVersion": "1", "eventId": "bad id", "type": "call.accepted", "callId": .string(F.callId),
            "revision": 2, "occurredAtMs": 1.5,
        ]
        let paths = check([ObservedEvent(feed: "a", json: bad)]).map(\.field)
        #expect(paths == ["schemaVersion", "eventId", "revision", "occurredAtMs", "answeredByInstallationId"])
        #expect(check([ObservedEvent(feed: "a", json: "text")]).map(\.requirement.rawValue) == ["CALLX-EVT-2"])
    }

    /// An invitation over signaling carries the invitation's fields (seed: "The invitation fields"):
    /// issuedAtMs instead of occurredAtMs, eventId and revision optional; what it does carry is judged.
    @Test func anInvitationInAFeedHasTheInvitationsFields() {
        func invitation(revision: JSONValue? = nil) -> JSONValue {
            var members: [(key: String, value: JSONValue)] = [
                ("schemaVersion", 1), ("type", "call.invited"), ("callId", .string(F.callId)),
                ("displayName", "User A"), ("handle", "callx:user-a"), ("issuedAtMs", .int(F.start)),
                ("expiresAtMs", .int(F.start + 30_000)),
            ]
            if let revision { members.append(("revision", revision)) }
            return .object(members)
        }
        #expect(check([ObservedEvent(feed: "b", json: invitation())]).isEmpty)
        #expect(check([ObservedEvent(feed: "b", json: invitation(revision: 1))]).map(\.field) == ["revision"])
        let accepted: JSONValue = [
            "schemaVersion": 1, "eventId": "e1", "type": "call.accepted", "callId": .string(F.callId),
            "revision": "2", "answeredByInstallationId": "installation-b1",
        ]
        #expect(check([ObservedEvent(feed: "a", json: accepted)]).map(\.field) == ["occurredAtMs"])
    }
}
