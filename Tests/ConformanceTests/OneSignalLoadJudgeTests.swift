import JSON
import Testing

@testable import Conformance
@testable import OneSignal

/// `OneSignalLoadJudge` over hand-made operations and requests: requests are filed under the operation they name
/// among many open ones alike, an operation is judged on one request, and a second request (before or after its
/// operation was judged) is found naming the operation.
@Suite struct OneSignalLoadJudgeTests {
    static let standard = OneSignalInvariantTests.standard
    static let voip = OneSignalInvariantTests.voip

    static func judge() -> OneSignalLoadJudge {
        OneSignalLoadJudge(standard: standard, voip: voip, levels: [:], lingerMs: 0)
    }

    /// Operation `i`: a push to user `u<i>` marked `m<i>`, with the same title and text as every other.
    static func entry(_ i: Int) -> OneSignalLoadJudge.Entry {
        OneSignalLoadJudge.Entry(
            index: i,
            operation: OneSignalOperation(
                kind: .pushToUser, externalId: "u\(i)", title: "t", body: "b", data: ["ringcheckRun": .string("m\(i)")],
                options: nil, unconfigured: false, sentAtMs: 100, answeredAtMs: 100, delivered: nil),
            name: "operation #\(i) pushToUser to u\(i)", marker: "m\(i)")
    }

    static func request(_ i: Int, sequence: Int) -> OneSignalRequest {
        OneSignalRequest(
            sequence: sequence, arrivalMs: 105, authorization: "Key ks",
            body: [
                "app_id": .string(standard.appID), "include_aliases": ["external_id": [.string("u\(i)")]],
                "headings": ["en": "t"], "contents": ["en": "b"], "data": ["ringcheckRun": .string("m\(i)")],
            ], status: 200, recipients: 1)
    }

    @Test func eachOperationIsJudgedOnItsOwnRequestAmongManyOpen() {
        let j = Self.judge()
        for i in 0..<20 { j.open(Self.entry(i)) }
        for i in (0..<20).reversed() { j.file(Self.request(i, sequence: 100 + i)) }
        for i in 0..<20 { j.close(i, delivered: true, answeredAtMs: 110) }
        j.judgeClosed()
        #expect(j.findings.history.isEmpty, "\(j.findings.history)")
        #expect(j.findings.requests == 20 && j.findings.delivered == 20)
    }

    @Test func aSecondRequestIsFoundNamingTheOperationBeforeOrAfterItWasJudged() {
        let j = Self.judge()
        j.open(Self.entry(1))
        j.open(Self.entry(2))
        j.file(Self.request(1, sequence: 1))
        j.file(Self.request(1, sequence: 2))
        j.file(Self.request(2, sequence: 3))
        j.close(1, delivered: true, answeredAtMs: 110)
        j.close(2, delivered: true, answeredAtMs: 110)
        j.judgeClosed()
        j.file(Self.request(2, sequence: 4))
        let found = j.findings.history
        #expect(found.map(\.rule) == [.oneRequest, .oneRequest], "\(found)")
        #expect(found.map(\.callId) == ["m1", "m2"])
        #expect(found[0].message.hasPrefix("operation #1 pushToUser to u1: one request expected, 2 OneSignal requests"))
        #expect(found[1].message.contains("request #4 came"), "\(found[1].message)")
    }

    @Test func anOperationWithoutRequestIsFoundAndChargedToItsOptions() {
        let j = Self.judge()
        var e = Self.entry(1)
        e.operation.options = ["ttl": 60]
        j.open(e)
        j.close(1, delivered: false, answeredAtMs: 110)
        j.judgeClosed()
        let found = j.findings.history
        #expect(found.map(\.requirement) == ["ONESIGNAL-OPT-1"], "\(found)")
        #expect(found.first?.message.contains("no OneSignal request reached the mock") == true)
    }
}
