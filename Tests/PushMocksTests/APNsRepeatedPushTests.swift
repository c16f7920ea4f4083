import HTTP
import TestSupport
import Testing

@testable import PushMocks

/// A request that repeats an accepted push (the same header list in memory, target and body, as the
/// HTTP/2 server hands a client's repeated requests) skips the checks that read the request alone,
/// and is judged exactly as a first request would be all the same.
@Suite struct APNsRepeatedPushTests {
    let f = MockFixture()
    var apns: APNsMock { f.mocks.apnsProduction }

    /// `request` again, sharing its header list and body (as the HTTP/2 server's repeated requests do).
    func again(_ request: HTTPRequest) -> HTTPRequest { request }

    @Test func aRepeatIsRecognisedOnlyWithTheSameHeaderListTargetAndBody() async {
        let first = f.apnsRequest()
        #expect(await apns.handle(first).status == 200)
        #expect(apns.repeatedPushes.withLock { $0.find(again(first)) } != nil)

        // Another head (as on another connection) with the same list, target and body: still a repeat.
        var elsewhere = again(first)
        elsewhere.connection = MockFixture.connection(9)
        #expect(!elsewhere.sharesHead(with: first))
        #expect(apns.repeatedPushes.withLock { $0.find(elsewhere) } != nil)
        // Equal fields in another list: compared by address, not by value.
        #expect(apns.repeatedPushes.withLock { $0.find(f.apnsRequest()) } == nil)
        var otherBody = again(first)
        otherBody.body = Array(#"{"aps":{},"x":1}"#.utf8)
        #expect(apns.repeatedPushes.withLock { $0.find(otherBody) } == nil)
        var otherTarget = again(first)
        otherTarget.target = "/3/device/" + String(repeating: "ab", count: 32)
        #expect(apns.repeatedPushes.withLock { $0.find(otherTarget) } == nil)
        var otherMethod = again(first)
        otherMethod.method = "PUT"
        #expect(apns.repeatedPushes.withLock { $0.find(otherMethod) } == nil)
        var changedHeaders = again(first)
        changedHeaders.headers.set("apns-priority", "5")
        #expect(apns.repeatedPushes.withLock { $0.find(changedHeaders) } == nil)
    }

    @Test func rejectedPushesAreNotRemembered() async {
        let rejected = f.apnsRequest(headers: [("apns-priority", "7")])
        #expect(await apns.handle(rejected).status == 400)
        #expect(apns.repeatedPushes.withLock { $0.find(again(rejected)) } == nil)
        #expect(await apns.handle(again(rejected)).apnsReason == "BadPriority")
    }

    @Test func aRepeatIsCapturedInFullWithItsOwnApnsID() async throws {
        let first = f.apnsRequest()
        let one = await apns.handle(first)
        let two = await apns.handle(again(first))
        let three = await apns.handle(again(first))
        #expect(one.status == 200 && two.status == 200 && three.status == 200)
        #expect(one.headers["apns-id"] != two.headers["apns-id"])
        let captures = f.mocks.log.captures()
        try #require(captures.count == 3)
        // Repeats share what the checks found; each keeps its own apns-id.
        #expect(captures[0].apns?.apnsID == one.headers["apns-id"])
        #expect(captures[2].apns?.apnsID == three.headers["apns-id"])
        #expect(captures[2].apns?.topic == captures[0].apns?.topic)
        let info = try #require(captures[1].apns)
        #expect(info.apnsID == two.headers["apns-id"])
        #expect(info.pushType == "voip" && info.effectivePushType == "voip")
        #expect(info.topic == "com.ringcheck.testapp.voip")
        #expect(info.priority == 10 && info.expiration == 0)
        #expect(info.providerTokenKeyID == f.keys.apnsKey.keyID)
        #expect(captures[1].outcome == .accepted)
        #expect(captures[1].deviceToken == MockFixture.deviceToken)
        #expect(captures[1].secrets == captures[0].secrets)
    }

    @Test func aRepeatAfterTheProviderTokenExpiredIsRejected() async throws {
        let first = f.apnsRequest()
        #expect(await apns.handle(first).status == 200)
        f.clock.advance(seconds: 3601)
        let response = await apns.handle(again(first))
        #expect(response.status == 403)
        #expect(response.apnsReason == "ExpiredProviderToken")
        // Captured as a first request with that token is: the token's key ID and the apns-id, no more.
        #expect(await apns.handle(f.apnsRequest()).apnsReason == "ExpiredProviderToken")
        let captures = f.mocks.log.captures()
        let repeated = try #require(captures[1].apns)
        var fresh = try #require(captures[2].apns)
        #expect(repeated.apnsID == response.headers["apns-id"])
        #expect(repeated.providerTokenKeyID == f.keys.apnsKey.keyID && repeated.topic == nil)
        fresh.apnsID = repeated.apnsID
        #expect(repeated == fresh)
    }

    @Test func aRepeatToADeviceUnregisteredSinceIsRejected() async {
        let first = f.apnsRequest()
        #expect(await apns.handle(first).status == 200)
        f.mocks.registry.unregister(token: MockFixture.deviceToken, atMs: f.clock.nowMs)
        let response = await apns.handle(again(first))
        #expect(response.status == 410)
        #expect(response.apnsReason == "Unregistered")
        // The rejected repeat's capture still shows what the checks read.
        let info = f.mocks.log.captures().last?.apns
        #expect(info?.topic == "com.ringcheck.testapp.voip" && info?.pushType == "voip")
        #expect(info?.apnsID == response.headers["apns-id"])
        #expect(info?.providerTokenKeyID == f.keys.apnsKey.keyID)
    }

    @Test func theSameHeaderListWithAnotherBodyIsJudgedAgain() async {
        let first = f.apnsRequest()
        #expect(await apns.handle(first).status == 200)
        var notJSON = again(first)
        notJSON.body = Array("{not json".utf8)
        #expect(await apns.handle(notJSON).apnsReason == "PayloadEmpty")
        var badToken = again(first)
        badToken.target = "/3/device/xyz"
        #expect(await apns.handle(badToken).apnsReason == "BadDeviceToken")
    }

    @Test func aRepeatOnANewConnectionRaisesItsStreamLimit() async {
        let first = f.apnsRequest(connectionID: 7)
        #expect(
            await apns.handle(first).directive == .setMaxConcurrentStreams(APNsMock.authenticatedMaxConcurrentStreams))
        var elsewhere = again(first)
        elsewhere.connection = MockFixture.connection(8)
        #expect(
            await apns.handle(elsewhere).directive
                == .setMaxConcurrentStreams(APNsMock.authenticatedMaxConcurrentStreams))
        #expect(await apns.handle(again(elsewhere)).directive == .none)
    }
}
