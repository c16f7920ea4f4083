import HTTP
import PushMocks
import TestSupport
import Testing

@testable import Callx

/// CALLX-E2E-3's "after the restart" leaves out a push that was on its way before the restart began: read by the
/// mocks before it, or sent on a connection the backend opened for it before it (a second copy of the invitation
/// whose connection's handshake a busy machine delayed), whichever the mock handled first and although all
/// arrived in the same millisecond. A push read after the restart began, on a connection opened after it or as
/// a later request on an early one, is after the restart.
@Suite struct AfterTheRestartTests {
    static let start: Int64 = 1_790_000_000_000
    let f = MockFixture(startMs: start)
    static let token = String(repeating: "ab", count: 32)

    @Test func aCopyReadBeforeTheRestartBeganIsNotAfterItOneReadAfterIs() async throws {
        let apns = f.mocks.apns(.production)
        for round in 0..<20 {
            _ = f.mocks.log.clear()
            f.clock.set(ms: Self.start)
            let before = f.apnsRequest(token: Self.token, readAt: ArrivalOrder.next())
            let restart = ArrivalOrder.next()
            let after = f.apnsRequest(token: Self.token, readAt: ArrivalOrder.next())
            let (firstHandled, secondHandled) = round % 2 == 0 ? (before, after) : (after, before)
            _ = await apns.handle(firstHandled)
            _ = await apns.handle(secondHandled)
            let log = f.mocks.log.captures()
            let copy = try #require(log.first { $0.arrivalOrder == before.arrivalOrder })
            let late = try #require(log.first { $0.arrivalOrder == after.arrivalOrder })
            #expect(copy.arrivalMs == late.arrivalMs, "the same millisecond")
            let leftOut = AfterTheRestart.arrivedBeforeRestart(requirement: "CALLX-E2E-3", restartOrder: restart)
            #expect(leftOut(copy), "round \(round): read before the restart began")
            #expect(!leftOut(late), "round \(round): read after the restart began")
            // Only CALLX-E2E-3's "after" is the restart, and only once the backend was restarted.
            #expect(!AfterTheRestart.arrivedBeforeRestart(requirement: "CALLX-EXP-2", restartOrder: restart)(copy))
            #expect(!AfterTheRestart.arrivedBeforeRestart(requirement: "CALLX-E2E-3", restartOrder: nil)(copy))
        }
    }

    @Test func aCopyOnAConnectionOpenedBeforeTheRestartBeganIsNotAfterIt() async throws {
        for round in 0..<20 {
            let opened = ArrivalOrder.next()
            let restart = ArrivalOrder.next()
            // The first is read after the restart began, on the connection the backend opened for it before.
            let pushes = try await f.pushesAroundAnEarlyConnection(token: Self.token, openedAt: opened)
            #expect(pushes.early.arrivalOrder > restart)
            let leftOut = AfterTheRestart.arrivedBeforeRestart(requirement: "CALLX-E2E-3", restartOrder: restart)
            #expect(leftOut(pushes.early), "round \(round): its connection was opened for it before the restart began")
            #expect(!leftOut(pushes.later), "round \(round): a later request on that connection")
            #expect(!leftOut(pushes.late), "round \(round): a connection opened after the restart began")
        }
    }
}
