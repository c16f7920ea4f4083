import HTTP
import PushMocks
import TestSupport
import Testing

@testable import Conformance

/// A push to a token APNs refused as gone is reuse of the dead token only when it reached the mock after the
/// refusal's answer could have been sent: a copy that arrived with the refused one (a backend sending each
/// invitation twice, in the same millisecond) is the duplicate it is, whichever the mock handled first.
@Suite struct DeadTokenRefusalTests {
    static let start: Int64 = 1_790_000_000_000
    let f = MockFixture(startMs: start)
    /// Not hexadecimal: APNs answers 400 BadDeviceToken, a token that will never work.
    static let badToken = String(repeating: "zz", count: 32)
    let phone = DeviceIdentity(
        name: "b-phone", user: "b", kind: .apnsVoip, environment: .production, installationId: "i-1",
        tokens: [Self.badToken])

    @Test func aCopyThatArrivedWithTheRefusedOneIsNoReuseOneAfterItsAnswerIs() async throws {
        for round in 0..<50 {
            _ = f.mocks.log.clear()
            f.clock.set(ms: Self.start)
            // Both copies were read before the mock decided on either (the same read, the same millisecond).
            let first = f.apnsRequest(token: Self.badToken, readAt: ArrivalOrder.next())
            let copy = f.apnsRequest(token: Self.badToken, readAt: ArrivalOrder.next())
            let apns = f.mocks.apns(.production)
            // Whichever the mock handles first is the one the scenario matched as the refusal.
            let (refusedRequest, otherRequest) = round % 2 == 0 ? (first, copy) : (copy, first)
            let answer = await apns.handle(refusedRequest)
            _ = await apns.handle(otherRequest)
            let log = f.mocks.log.captures()
            let refusal = try #require(log.first)
            let duplicate = try #require(log.last)
            #expect(refusal.outcome.reason == "BadDeviceToken", "\(refusal.outcome)")
            #expect(DeadTokenRefusal.isDead(refusal, carrier: phone.kind.carrier))
            let before = DeadTokenRefusal.sentBeforeRefusal(
                f.mocks.log, consumed: [refusal.sequence], devices: [phone])
            #expect(before(duplicate), "round \(round): the copy arrived before the refusal's answer")
            // A push read after the refusal's answer was written out could have known of it: reuse.
            try #require(answer.sentStamp).markSent()
            _ = await apns.handle(f.apnsRequest(token: Self.badToken, readAt: ArrivalOrder.next()))
            let later = try #require(f.mocks.log.captures().last)
            #expect(!before(later), "round \(round): a push after the answer is reuse")
        }
    }

    /// A refusal counts from when its answer was written out, whether the mock made it off its event loop (under a
    /// fault plan: decided on another thread while the loop reads on) or on it (a refusal made there is stamped too,
    /// as the loop reads what waits on its sockets before writing it out). A copy read after the refusal was
    /// decided but before its answer was written out was sent before the backend could know (the second copy of a
    /// duplicated invitation on a busy machine): no reuse. A push read after the answer left is.
    @Test(arguments: [false, true])
    func aCopyReadBeforeTheRefusalsAnswerWasWrittenIsNoReuse(onLoop: Bool) async throws {
        let apns = f.mocks.apns(.production)
        func answer(_ request: HTTPRequest) async -> HTTPResponse? {
            onLoop ? apns.respondImmediately(to: request) : await apns.handle(request)
        }
        for round in 0..<50 {
            _ = f.mocks.log.clear()
            let answered = await answer(f.apnsRequest(token: Self.badToken, readAt: ArrivalOrder.next()))
            let stamp = try #require(answered?.sentStamp, "round \(round): the refusal's answer is stamped")
            // Read by the loop after the decision, while the answer waited to be written.
            _ = await answer(f.apnsRequest(token: Self.badToken, readAt: ArrivalOrder.next()))
            let log = f.mocks.log.captures()
            let refusal = try #require(log.first)
            let copy = try #require(log.last)
            #expect(copy.arrivalOrder > refusal.decidedOrder)
            let before = DeadTokenRefusal.sentBeforeRefusal(
                f.mocks.log, consumed: [refusal.sequence], devices: [phone])
            #expect(before(copy), "round \(round): read before the refusal's answer was written")
            stamp.markSent()
            _ = await answer(f.apnsRequest(token: Self.badToken, readAt: ArrivalOrder.next()))
            let later = try #require(f.mocks.log.captures().last)
            #expect(!before(later), "round \(round): read after the answer left: reuse")
        }
    }

    /// An acceptance made on the loop carries no stamp: the dead-token rule never asks when it left, and a stamp
    /// costs an allocation per push.
    @Test func anAcceptanceMadeOnTheLoopCarriesNoStamp() throws {
        let accepted = try #require(
            f.mocks.apns(.production).respondImmediately(
                to: f.apnsRequest(token: MockFixture.deviceToken, readAt: ArrivalOrder.next())))
        #expect(accepted.status == 200 && accepted.sentStamp == nil)
    }

    /// A push to the refused token on connection `id`, accepted at `opened`, read now (`MockFixture.apnsRequest`).
    private func push(connection id: UInt64, openedAt opened: UInt64, first: Bool) -> HTTPRequest {
        f.apnsRequest(token: Self.badToken, connection: id, openedAt: opened, first: first)
    }

    /// Clears the log and refuses the bad token as the first push of connection 1: where that connection was
    /// accepted, and the refusal's answer.
    private func refusalOnConnectionOne() async -> (opened: UInt64, answer: HTTPResponse) {
        _ = f.mocks.log.clear()
        let opened = ArrivalOrder.next()
        return (opened, await f.mocks.apns(.production).handle(push(connection: 1, openedAt: opened, first: true)))
    }

    /// An APNs connection takes one stream until a provider token is accepted, so a client sending two copies at
    /// once opens a second connection for the second; on a busy machine its handshake ends, and the copy is read,
    /// after the refusal of the first was answered. The client opened that connection to send the copy before the
    /// answer left: no reuse. A push that opens a connection accepted after the answer, or that is not the first
    /// request on the early connection, is.
    @Test func aCopyOnAConnectionOpenedBeforeTheAnswerIsNoReuse() async throws {
        let apns = f.mocks.apns(.production)
        for round in 0..<50 {
            let (_, answer) = await refusalOnConnectionOne()
            // The client opens a second connection for the copy while the first push waits for its answer.
            let secondOpened = ArrivalOrder.next()
            try #require(answer.sentStamp).markSent()
            _ = await apns.handle(push(connection: 2, openedAt: secondOpened, first: true))
            // After the answer left: a second request on that connection, and the first on a new one.
            _ = await apns.handle(push(connection: 2, openedAt: secondOpened, first: false))
            _ = await apns.handle(push(connection: 3, openedAt: ArrivalOrder.next(), first: true))
            let log = f.mocks.log.captures()
            try #require(log.count == 4)
            let before = DeadTokenRefusal.sentBeforeRefusal(f.mocks.log, consumed: [log[0].sequence], devices: [phone])
            #expect(log[1].arrivalOrder > log[0].sentOrder ?? 0)
            #expect(before(log[1]), "round \(round): the copy's connection was opened before the answer left")
            #expect(!before(log[2]), "round \(round): the connection's next request left after the answer")
            #expect(!before(log[3]), "round \(round): a connection opened after the answer")
        }
    }

    /// On the refusal's own HTTP/2 connection the client had the refusal once it acknowledged the PING sent right
    /// after it (`Capture.readOrder`): a copy read there after the answer was written but before that ACK was sent
    /// before the backend could have read it (no reuse), a push read after the ACK is reuse. Another connection
    /// keeps the write: a push read there after the answer left is reuse, ACK or not.
    @Test func onTheRefusalsConnectionThePingAckMarksWhenTheClientHadIt() async throws {
        let apns = f.mocks.apns(.production)
        for round in 0..<50 {
            let (opened, answer) = await refusalOnConnectionOne()
            let stamp = try #require(answer.sentStamp)
            #expect(stamp.awaitingRead, "a refusal asks its client to say it read it")
            stamp.markSent()
            _ = await apns.handle(push(connection: 1, openedAt: opened, first: false))
            _ = await apns.handle(push(connection: 2, openedAt: ArrivalOrder.next(), first: true))
            stamp.markRead()
            _ = await apns.handle(push(connection: 1, openedAt: opened, first: false))
            let log = f.mocks.log.captures()
            try #require(log.count == 4)
            #expect(log[0].readOrder > log[0].sentOrder ?? 0)
            let before = DeadTokenRefusal.sentBeforeRefusal(f.mocks.log, consumed: [log[0].sequence], devices: [phone])
            #expect(before(log[1]), "round \(round): on the refusal's connection, before the client's ACK")
            #expect(!before(log[2]), "round \(round): another connection, after the answer was written")
            #expect(!before(log[3]), "round \(round): on the refusal's connection, after the client's ACK")
        }
    }
}
