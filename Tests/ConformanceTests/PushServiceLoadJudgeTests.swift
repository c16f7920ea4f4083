import PushMocks
import Testing

@testable import Conformance
@testable import PushService

/// `PushServiceLoadJudge` over hand-made notifications and pushes: a unit is judged once its notifications
/// settled and then dropped, and a push that comes after that is still judged against what it had reached.
@Suite struct PushServiceLoadJudgeTests {
    typealias H = PushServiceLoadHistoryTests

    @Test func aSecondPushAfterItsNotificationWasJudgedIsStillFound() async throws {
        let j = PushServiceLoadJudge(
            devices: [H.phone, H.pixel], faulted: [], levels: [:], bundleId: "com.example.app",
            voipTopic: "com.example.app.voip", lingerMs: 0)
        j.open("0")
        j.expect("m1", in: "0")
        var r = H.record("m1")
        r.counts = (2, 0, 0, 1_200)
        r.settleMs = 200
        j.add(r, to: "0")
        j.file(H.push(1, "m1", token: H.phone.token!))
        j.file(H.push(2, "m1", token: H.pixel.token!))
        j.sent("0")
        // Its one notification settled already: once it is due to be read (`firstRead`, 100 ms), the unit is found
        // settled and judged. Counted in rounds of at least 20 ms, not against a clock: a test process starved for
        // half a minute (all tests start at once on two cores) still gets its rounds.
        for _ in 0..<1_500 {
            if j.idle { break }
            #expect(j.nextToRead() == nil, "nothing is left to read")
            j.judgeSettled()
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(j.idle)
        #expect(j.findings.history.isEmpty, "\(j.findings.history)")
        j.file(H.push(3, "m1", token: H.phone.token!))
        let found = j.findings.history
        #expect(found.map(\.rule) == [.oncePerDevice], "\(found)")
        #expect(found.first?.message.hasPrefix("notification m1") == true, "\(found)")
        #expect(j.findings.pushes == 3)
    }
}
