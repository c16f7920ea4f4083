import JSON
import PushMocks
import Testing

@testable import Conformance
@testable import OneSignal

/// OneSignal requests are tied to the operation that caused them by content, never by arrival time: a kit that
/// answers before it sends has its standard request arrive after the next (VoIP) operation began.
@Suite struct OneSignalAttributionTests {
    typealias T = OneSignalInvariantTests

    static func standardBody(title: String = "t") -> JSONValue {
        [
            "app_id": .string(T.standard.appID), "include_aliases": ["external_id": ["r1-b"]],
            "target_channel": "push", "headings": ["en": .string(title)], "contents": ["en": "b"],
            "data": ["ringcheckRun": "r1"],
        ]
    }

    static func request(_ body: JSONValue, arrivalMs: Int64, sequence: Int, auth: String) -> OneSignalRequest {
        OneSignalRequest(
            sequence: sequence, arrivalMs: arrivalMs, authorization: auth, body: body, status: 200, recipients: 1)
    }

    /// The standard push's request arrives after the VoIP operation began: time would charge VOIP-1…5 to it.
    @Test func aLateStandardRequestIsJudgedAsTheStandardPushItIs() {
        var standard = T.op(.pushToUser)
        standard.sentAtMs = 100
        standard.answeredAtMs = 101
        var voip = T.op(.voipPush)
        voip.sentAtMs = 102
        voip.answeredAtMs = 110
        for round in 0..<100 {
            var requests = [
                Self.request(Self.standardBody(), arrivalMs: 103, sequence: 1, auth: "Key ks"),
                Self.request(T.voipBody(), arrivalMs: 103, sequence: 2, auth: "Key kv"),
            ]
            if round % 2 == 1 { requests.reverse() }
            let found = OneSignalInvariants.judge(
                requests, operations: [standard, voip], standard: T.standard, voip: T.voip)
            #expect(found.violations.isEmpty, "round \(round): \(found.violations)")
            // What it is instead: the standard push's request left after its operation answered.
            #expect(
                found.notes == [
                    "OneSignal request #1 was sent after operation #1 (pushToUser) answered: the kit answered before it asked OneSignal"
                ],
                "round \(round): \(found.notes)")
        }
        // A request in before its operation's answer gets no such note.
        var timely = standard
        timely.answeredAtMs = 103
        let found = OneSignalInvariants.judge(
            [Self.request(Self.standardBody(), arrivalMs: 103, sequence: 1, auth: "Key ks")], operations: [timely],
            standard: T.standard, voip: T.voip)
        #expect(found.violations.isEmpty && found.notes.isEmpty, "\(found)")
    }

    /// Two operations alike and one request: it fits either, so it is unattributed (a note, no rule charged), and
    /// neither operation's `delivered` is judged on it.
    @Test func aRequestFittingTwoOperationsAlikeIsUnattributed() {
        let op = T.op(.pushToUser)
        let request = Self.request(Self.standardBody(), arrivalMs: 120, sequence: 1, auth: "Key ks")
        let found = OneSignalInvariants.judge(
            [request], operations: [op, op], standard: T.standard, voip: T.voip)
        #expect(found.violations.isEmpty, "\(found.violations)")
        #expect(found.notes.count == 1 && found.notes[0].contains("unattributed"))
        // A title of its own ties it again.
        let own = Self.request(Self.standardBody(title: "mine"), arrivalMs: 120, sequence: 1, auth: "Key ks")
        var mine = op
        mine.title = "mine"
        #expect(
            OneSignalAttribution.of(own, [op, mine], standard: T.standard, voip: T.voip) == .request(1))
    }
}
