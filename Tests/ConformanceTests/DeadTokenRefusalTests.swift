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

    @Test func aCopyThatArrivedWithTheRefusedOneIsNoReuseOneAfterItsAnswerIs() async throws {
        let phone = DeviceIdentity(
            name: "b-phone", user: "b", kind: .apnsVoip, environment: .production, installationId: "i-1",
            tokens: [Self.badToken])
        for round in 0..<50 {
            _ = f.mocks.log.clear()
            f.clock.set(ms: Self.start)
            // Both copies were read before the mock decided on either (the same read, the same millisecond).
            let first = f.apnsRequest(token: Self.badToken, readAt: ArrivalOrder.next())
            let copy = f.apnsRequest(token: Self.badToken, readAt: ArrivalOrder.next())
            let apns = f.mocks.apns(.production)
            // Whichever the mock handles first is the one the scenario matched as the refusal.
            let (refusedRequest, otherRequest) = round % 2 == 0 ? (first, copy) : (copy, first)
            _ = await apns.handle(refusedRequest)
            _ = await apns.handle(otherRequest)
            let log = f.mocks.log.captures()
            let refusal = try #require(log.first)
            let duplicate = try #require(log.last)
            #expect(refusal.outcome.reason == "BadDeviceToken", "\(refusal.outcome)")
            #expect(DeadTokenRefusal.isDead(refusal, carrier: phone.kind.carrier))
            let before = DeadTokenRefusal.sentBeforeRefusal(
                f.mocks.log, consumed: [refusal.sequence], devices: [phone])
            #expect(before(duplicate), "round \(round): the copy arrived before the refusal's answer")
            // A push read after the mock recorded the refusal could have known of it: reuse.
            _ = await apns.handle(f.apnsRequest(token: Self.badToken, readAt: ArrivalOrder.next()))
            let later = try #require(f.mocks.log.captures().last)
            #expect(!before(later), "round \(round): a push after the answer is reuse")
        }
    }
}
