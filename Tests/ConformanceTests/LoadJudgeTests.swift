import Foundation
import HTTP
import JSON
import PushMocks
import Reports
import Testing

@testable import Callx
@testable import Conformance

/// `LoadJudge`: a load run's calls are judged one at a time as they close and then dropped, so the run's
/// memory holds its open calls only; the per-call judgement still finds each history defect, and a push
/// that comes after its call was judged is still judged.
@Suite struct LoadJudgeTests {
    static let phone = "b-phone"
    static let phoneToken = String(repeating: "ab", count: 32)
    static let tabletToken = String(repeating: "cd", count: 32)

    static func judge(levels: [String: RequirementLevel] = ["CALLX-EXP-2": .must, "CALLX-OUTBOX-4": .must]) -> LoadJudge
    {
        LoadJudge(
            context: InvariantContext(
                devices: [
                    InvariantDevice(name: phone, kind: .apnsVoip, environment: .production, tokens: [phoneToken]),
                    InvariantDevice(name: "b-tablet", kind: .apnsVoip, environment: .production, tokens: [tabletToken]),
                ]),
            installations: [phoneToken: phone, tabletToken: "b-tablet"], levels: levels, inFlightMarginMs: 1000,
            waitLimitSeconds: 20)
    }

    /// An APNs capture carrying `callx` (`call.invited` unless `type` says otherwise) to `token`.
    static func push(
        _ seq: Int, call: String, token: String = phoneToken, type: String = "call.invited", eventId: String,
        arrivalMs: Int64
    ) -> Capture {
        let callx: JSONValue = [
            "type": .string(type), "callId": .string(call), "eventId": .string(eventId), "revision": "1",
        ]
        let body: JSONValue = ["aps": [:], "callx": callx]
        var c = Capture(
            request: HTTPRequest(method: "POST", target: "/3/device/" + token, body: Array(body.serialized().utf8)),
            mock: .apns, arrivalMs: arrivalMs)
        c.sequence = seq
        c.deviceToken = token
        c.outcome = .accepted
        c.json = body
        return c
    }

    static func record(_ id: String) -> LoadCall {
        LoadCall(callId: id, script: "cancel", callerFeed: "a-caller", calleeFeeds: [phone], expiresAtMs: nil)
    }

    static func open(_ judge: LoadJudge, _ id: String) {
        judge.open(id, feeds: ["a-caller", phone], invitationTokens: [phoneToken, tabletToken])
    }

    /// Every feed of the call read to its end now (after the call closed).
    static func readFeeds(_ judge: LoadJudge) {
        for feed in ["a-caller", phone] { judge.feed(feed, entries: [], raw: [], atMs: 0, readToEnd: true) }
    }

    /// Closes call `id` with `pushes` filed, reads its feeds, and judges it as if its grace had passed.
    static func playAndJudge(_ judge: LoadJudge, _ id: String, pushes: [Capture]) {
        open(judge, id)
        for p in pushes { judge.file(p) }
        judge.close(id, record: record(id))
        readFeeds(judge)
        judge.judgeClosed(now: .now + .seconds(judge.graceSeconds + 1))
    }

    @Test func aClosedCallIsKeptForTheGraceThenJudgedAndDropped() {
        let judge = Self.judge()
        Self.open(judge, "c1")
        judge.file(Self.push(1, call: "c1", eventId: "e1", arrivalMs: 1_000))
        judge.close("c1", record: Self.record("c1"))
        Self.readFeeds(judge)
        judge.judgeClosed(now: .now)
        #expect(judge.state.withLock { $0.open.count } == 1, "judged before its grace")
        judge.judgeClosed(now: .now + .seconds(judge.graceSeconds + 1))
        #expect(judge.state.withLock { $0.open.isEmpty && $0.judged == ["c1"] })
        let found = judge.judgeAll(drained: true)
        #expect(found.pushes == 1 && found.invitations == 1)
        // (The hand-built push lacks an APNs push's headers: only the history is clean.)
        #expect(found.history.isEmpty, "\(found.history)")
    }

    @Test func aSecondInvitationToOneDeviceIsFoundInItsCallsOwnJudgement() {
        let judge = Self.judge()
        Self.open(judge, "c1")
        Self.open(judge, "c2")
        judge.file(Self.push(1, call: "c1", eventId: "e1", arrivalMs: 1_000))
        judge.file(Self.push(2, call: "c2", eventId: "e2", arrivalMs: 1_001))
        judge.file(Self.push(3, call: "c1", eventId: "e3", arrivalMs: 1_002))
        for id in ["c1", "c2"] { judge.close(id, record: Self.record(id)) }
        let found = judge.judgeAll(drained: true)
        let second = found.history.filter { $0.rule == .oneInvitation }
        #expect(second.map(\.callId) == ["c1"], "\(found.history)")
        #expect(found.invariants.contains { $0.requirement == "CALLX-OUTBOX-4" && $0.callId == "c1" })
    }

    @Test func anEventIdReusedByAnotherCallIsFoundAcrossJudgements() {
        let judge = Self.judge()
        Self.playAndJudge(judge, "c1", pushes: [Self.push(1, call: "c1", eventId: "same", arrivalMs: 1_000)])
        Self.open(judge, "c2")
        judge.file(Self.push(2, call: "c2", eventId: "same", arrivalMs: 2_000))
        judge.close("c2", record: Self.record("c2"))
        let found = judge.judgeAll(drained: true)
        #expect(found.invariants.contains { $0.requirement == "CALLX-INV-5" && $0.callId == "c2" }, "\(found)")
    }

    @Test func anInvitationArrivingAfterItsCallWasJudgedIsLate() {
        let judge = Self.judge()
        Self.playAndJudge(judge, "c1", pushes: [])
        judge.file(Self.push(7, call: "c1", eventId: "e9", arrivalMs: 90_000))
        // A push for a call the run never placed is not the run's.
        judge.file(Self.push(8, call: "elsewhere", eventId: "e10", arrivalMs: 90_001))
        let found = judge.judgeAll(drained: true)
        #expect(found.history.map(\.requirement) == ["CALLX-EXP-2"], "\(found.history)")
        #expect(found.history.first?.callId == "c1")
        #expect(found.history.first?.level == .must)
        #expect(found.pushes == 1)
    }

    /// A late invitation is charged at the level the catalogue the judge was given says, not one of its own.
    @Test func aLateInvitationIsChargedAtTheCataloguesLevel() {
        let judge = Self.judge(levels: ["CALLX-EXP-2": .should])
        Self.playAndJudge(judge, "c1", pushes: [])
        judge.file(Self.push(7, call: "c1", eventId: "e9", arrivalMs: 90_000))
        let found = judge.judgeAll(drained: true)
        #expect(found.history.map(\.level) == [.should], "\(found.history)")
    }

    @Test func aWaitForInvitationsEndsWhenEachDeviceGotOneOrAtItsTimeout() async {
        let judge = Self.judge()
        Self.open(judge, "c1")
        async let waited = judge.waitForInvitations("c1", count: 2, timeout: .seconds(3_600))
        judge.file(Self.push(1, call: "c1", eventId: "e1", arrivalMs: 1))
        judge.file(Self.push(2, call: "c1", token: Self.tabletToken, eventId: "e1", arrivalMs: 2))
        #expect(await waited)
        Self.open(judge, "c2")
        #expect(await judge.waitForInvitations("c2", count: 1, timeout: .milliseconds(10)) == false)
    }

    @Test func aDivertedLogKeepsNothingAndHandsEveryCaptureOn() {
        let log = CaptureLog()
        let judge = Self.judge()
        Self.open(judge, "c1")
        log.divert(to: { judge.file($0) })
        log.record(Self.push(0, call: "c1", eventId: "e1", arrivalMs: 1))
        #expect(log.count == 0 && log.lastSequence == 1)
        #expect(judge.state.withLock { $0.open["c1"]?.captures.map(\.sequence) } == [1])
        log.divert(to: nil)
        log.record(Self.push(0, call: "c1", eventId: "e2", arrivalMs: 2))
        #expect(log.count == 1)
    }
}
