import JSON
import PushMocks
import TestSupport
import Testing

@testable import Conformance
@testable import PushService

/// Pushes are tied to the `notify` that caused them by content, never by the millisecond they arrived in: two
/// requests sent in the same millisecond, a service that nests a notification's data (OneSignal's `custom.a`), one
/// that drops it, and two requests alike, each judged the same way however often it runs and in whatever order.
@Suite struct PushServiceAttributionTests {
    typealias T = PushServiceInvariantTests
    static let start = T.start
    let f = MockFixture(startMs: start)

    /// An alert and an incoming call to the same user, both sent in the push's own millisecond.
    static func sameMillisecond() -> [PushServiceNotification] {
        let alert = PushServiceNotification(
            marker: "r1-n1",
            body: [
                "headings": ["en": "Hello"], "contents": ["en": "News"],
                "data": ["room": "abc", .init(PushServiceNotification.markerKey): "r1-n1"],
            ], sentAtMs: start, status: 200, id: "n1", devices: ["b-phone"], users: ["b"])
        let call = PushServiceNotification(
            marker: "r1-n2",
            body: [
                "call": [
                    "action": "incoming", "id": .string(T.callId), "caller_name": "A", "handle": "0901",
                    "avatar": "https://a", "is_video": false, "timeout": 45,
                ],
                "data": [.init(PushServiceNotification.markerKey): "r1-n2"],
            ], sentAtMs: start, status: 200, id: "n2", devices: ["b-phone"], users: ["b"])
        return [alert, call]
    }

    /// The alert as a service that nests `data` sends it: `custom.a` holds the data, the marker with it.
    func nestedAlert(data: JSONValue) async -> Capture {
        f.clock.set(ms: Self.start)
        let body: JSONValue = [
            "aps": ["alert": ["title": "Hello", "body": "News"]], "custom": ["i": "x-1", "a": data],
        ]
        let request = f.apnsRequest(
            token: T.alertToken,
            headers: [("apns-push-type", "alert"), ("apns-topic", f.mocks.credentials.bundleID)],
            body: Array(body.serialized().utf8))
        _ = await f.mocks.apns(.production).handle(request)
        return f.mocks.log.captures().last!
    }

    func judge(_ c: Capture, _ notifications: [PushServiceNotification]) -> (
        violations: [Violation], notes: [String]
    ) {
        PushServiceInvariants.judge(
            [PushServiceJudgedPush(capture: c, device: T.phone)], notifications: notifications,
            bundleId: f.mocks.credentials.bundleID, voipTopic: f.mocks.credentials.voipTopic)
    }

    /// Time would credit the nested alert to the call sent in the same millisecond (CALL-1, PAYLOAD-1, PAYLOAD-2);
    /// its nested marker ties it to its own request, every time and whichever order the requests are listed in.
    @Test func aNestedMarkerTiesThePushInTheSameMillisecondEveryTime() async {
        let nested = await nestedAlert(data: ["room": "abc", .init(PushServiceNotification.markerKey): "r1-n1"])
        for round in 0..<200 {
            let sent = round % 2 == 0 ? Self.sameMillisecond() : Self.sameMillisecond().reversed()
            let found = judge(nested, Array(sent))
            #expect(found.violations.isEmpty && found.notes.isEmpty, "round \(round): \(found)")
        }
    }

    /// Without any marker, the alert's title, text and data still say which request it answers.
    @Test func withoutTheMarkerTheContentTiesThePush() async {
        let dropped = await nestedAlert(data: ["room": "abc"])
        for round in 0..<200 {
            let sent = round % 2 == 0 ? Self.sameMillisecond() : Self.sameMillisecond().reversed()
            let found = judge(dropped, Array(sent))
            #expect(found.violations.isEmpty && found.notes.isEmpty, "round \(round): \(found)")
        }
    }

    /// Two requests alike in the same millisecond and a push without the marker: it could answer either, so it is
    /// unattributed — a note, no requirement charged — and the counts of neither request are judged on it.
    @Test func aPushThatFitsTwoRequestsAlikeIsUnattributed() async {
        let twin = Self.sameMillisecond()[0]
        var other = twin
        other.marker = "r1-n3"
        other.id = "n3"
        let dropped = await nestedAlert(data: ["room": "abc"])
        for round in 0..<200 {
            let sent = round % 2 == 0 ? [twin, other] : [other, twin]
            let found = judge(dropped, sent)
            #expect(found.violations.isEmpty, "round \(round): \(found.violations)")
            #expect(found.notes.count == 1 && found.notes[0].contains("unattributed"), "round \(round)")
            #expect(
                PushServiceAttribution.of(dropped, PushServicePush(dropped)!, device: T.phone, sent)
                    == .unattributed([0, 1]))
            let counts = PushServiceCounts.expected(
                for: twin, devices: [T.phone], captures: [dropped], notifications: sent)
            #expect(counts.ambiguous == ["b-phone"])
        }
    }

    /// A service that drops `data` still reports counts ringcheck can check: the push is tied to its request by
    /// content, so the device counts as reached (no false COUNT-2), and the call sent with it as not reached.
    @Test func theCountsTieAPushWithoutDataByContent() async {
        let dropped = await nestedAlert(data: ["room": "abc"])
        let sent = Self.sameMillisecond()
        let alert = PushServiceCounts.expected(
            for: sent[0], devices: [T.phone], captures: [dropped], notifications: sent)
        #expect(alert.admits(successful: 1, failed: 0, errored: 0), "\(alert)")
        let call = PushServiceCounts.expected(
            for: sent[1], devices: [T.phone], captures: [dropped], notifications: sent)
        #expect(call.successful == 0 && call.ambiguous.isEmpty, "\(call)")
    }
}
