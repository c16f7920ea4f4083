import HTTP
import JSON
import PushMocks
import Signing
import TestSupport
import Testing

@Suite struct APNsMockTests {
    let f = MockFixture()
    var apns: APNsMock { f.mocks.apnsProduction }

    func send(_ request: HTTPRequest, to mock: APNsMock? = nil) async -> HTTPResponse {
        await (mock ?? apns).handle(request)
    }

    func expectRejected(
        _ response: HTTPResponse, _ status: Int, _ reason: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(response.status == status, sourceLocation: sourceLocation)
        #expect(response.apnsReason == reason, sourceLocation: sourceLocation)
        #expect(response.headers["apns-id"] != nil, sourceLocation: sourceLocation)
    }

    // MARK: Happy paths

    @Test func acceptsConformingVoIPPush() async throws {
        let id = "3B241101-E2BB-4255-8CAF-4136C566A962"
        let response = await send(f.apnsRequest(extraHeaders: [("apns-id", id)]))
        #expect(response.status == 200)
        #expect(response.body.isEmpty)
        #expect(response.headers["apns-id"] == id)
        #expect(response.headers["apns-unique-id"] == nil)
        let capture = try #require(f.mocks.log.captures().last)
        #expect(capture.outcome == .accepted)
        #expect(capture.mock == .apns && capture.environment == .production)
        #expect(capture.deviceToken == MockFixture.deviceToken)
        #expect(capture.authority == "api.push.apple.com")
        #expect(capture.apns?.pushType == "voip")
        #expect(capture.apns?.topic == "com.ringcheck.testapp.voip")
        #expect(capture.apns?.priority == 10)
        #expect(capture.apns?.expiration == 0)
        #expect(capture.apns?.apnsID == id)
        #expect(capture.apns?.providerTokenKeyID == f.keys.apnsKey.keyID)
        #expect(capture.json?.value(atPath: "callx.type") == "call.invited")
    }

    @Test func generatesApnsIDWhenAbsent() async {
        let response = await send(f.apnsRequest())
        let id = response.headers["apns-id"] ?? ""
        #expect(id.count == 36 && id.split(separator: "-").count == 5)
        // Upper-case canonical form of a version-4, variant-10 UUID, as APNs writes them.
        #expect(id.allSatisfy { "0123456789ABCDEF-".contains($0) }, "\(id)")
        #expect(Array(id)[14] == "4" && "89AB".contains(Array(id)[19]), "\(id)")
        #expect(id.split(separator: "-").map(\.count) == [8, 4, 4, 4, 12], "\(id)")
        #expect(await send(f.apnsRequest()).headers["apns-id"] != id)
    }

    @Test func sandboxAddsUniqueID() async {
        let response = await send(f.apnsRequest(authority: "api.sandbox.push.apple.com"), to: f.mocks.apnsSandbox)
        #expect(response.status == 200)
        let unique = response.headers["apns-unique-id"] ?? ""
        #expect(unique.split(separator: "-").map(\.count) == [8, 4, 4, 4, 12], "\(unique)")
        #expect(unique.allSatisfy { "0123456789abcdef-".contains($0) } && Array(unique)[14] == "4", "\(unique)")
        #expect(f.mocks.log.captures().last?.environment == .sandbox)
    }

    @Test func theCaptureKeepsTheAnswerTheClientGot() async throws {
        for mock in [f.mocks.apnsProduction, f.mocks.apnsSandbox] {
            let response = await send(f.apnsRequest(), to: mock)
            let kept = try #require(f.mocks.log.captures().last).response
            #expect(kept.status == 200 && response.status == 200)
            #expect(kept.headers == response.headers)
            #expect(kept.body.isEmpty)
            #expect(kept.directive == response.directive)
        }
        // The first accepted push of a connection lifts its stream limit: the answer carries that directive.
        let first = await send(f.apnsRequest(connectionID: 4242))
        #expect(first.directive != .none)
        #expect(try #require(f.mocks.log.captures().last).response.directive == first.directive)
    }

    @Test func acceptsHostHeaderInsteadOfAuthority() async {
        let response = await send(
            f.apnsRequest(extraHeaders: [("host", "api.push.apple.com")], authority: nil))
        #expect(response.status == 200)
        #expect(f.mocks.log.captures().last?.authority == "api.push.apple.com")
    }

    @Test func acceptsAlertPushToBundleTopic() async {
        let response = await send(
            f.apnsRequest(
                headers: [
                    ("apns-push-type", "alert"), ("apns-topic", "com.ringcheck.testapp"), ("apns-expiration", nil),
                ],
                body: Array(#"{"aps":{"alert":"hi"}}"#.utf8)))
        #expect(response.status == 200)
    }

    @Test func infersVoIPFromTopicWithoutPushType() async {
        let response = await send(f.apnsRequest(headers: [("apns-push-type", nil)]))
        #expect(response.status == 200)
        let info = f.mocks.log.captures().last?.apns
        #expect(info?.pushType == nil && info?.effectivePushType == "voip")
    }

    @Test func concurrentPushesWithOneTokenAllSucceed() async {
        let statuses = await withTaskGroup(of: Int.self) { group in
            for i in 0..<40 {
                group.addTask { await apns.handle(f.apnsRequest(connectionID: UInt64(i % 4))).status }
            }
            var all: [Int] = []
            for await s in group { all.append(s) }
            return all
        }
        #expect(statuses.allSatisfy { $0 == 200 })
        #expect(f.mocks.log.count == 40)
        #expect(Set(f.mocks.log.captures().map(\.sequence)).count == 40)
    }

    // MARK: Method, path, token

    @Test func rejectsOtherMethods() async {
        expectRejected(await send(f.apnsRequest(method: "GET")), 405, "MethodNotAllowed")
    }

    @Test(arguments: ["/3/devices/abc", "/", "/4/device/ab", "/3/device/\(MockFixture.deviceToken)/extra"])
    func rejectsBadPaths(path: String) async {
        expectRejected(await send(f.apnsRequest(path: path)), 404, "BadPath")
    }

    @Test(arguments: ["/3/device/", "/3/device"])
    func rejectsMissingDeviceToken(path: String) async {
        expectRejected(await send(f.apnsRequest(path: path)), 400, "MissingDeviceToken")
    }

    @Test(arguments: ["xyz", "abcd", String(repeating: "g", count: 64), String(repeating: "a", count: 63)])
    func rejectsMalformedDeviceTokens(token: String) async {
        expectRejected(await send(f.apnsRequest(token: token)), 400, "BadDeviceToken")
    }

    @Test func acceptsUppercaseAndLongerTokens() async {
        #expect(await send(f.apnsRequest(token: MockFixture.deviceToken.uppercased())).status == 200)
        #expect(await send(f.apnsRequest(token: String(repeating: "ab", count: 100))).status == 200)
    }

    // MARK: Headers

    @Test func rejectsBadMessageIDWithFreshID() async {
        let response = await send(f.apnsRequest(extraHeaders: [("apns-id", "not-a-uuid")]))
        expectRejected(response, 400, "BadMessageId")
        #expect(response.headers["apns-id"] != "not-a-uuid")
    }

    @Test func rejectsDuplicateHeaders() async {
        let response = await send(f.apnsRequest(extraHeaders: [("apns-topic", "com.ringcheck.testapp.voip")]))
        expectRejected(response, 400, "DuplicateHeaders")
    }

    @Test func rejectsMissingTopic() async {
        expectRejected(await send(f.apnsRequest(headers: [("apns-topic", nil)])), 400, "MissingTopic")
    }

    @Test func rejectsMalformedTopic() async {
        expectRejected(await send(f.apnsRequest(headers: [("apns-topic", "com.ringcheck testapp")])), 400, "BadTopic")
    }

    /// The mock remembers what it read from the last header list and the last topic: one mock judging
    /// alternating good and bad headers must judge each request by its own.
    @Test func judgesEachRequestByItsOwnHeadersInTurn() async {
        let good = f.apnsRequest()
        var bad = good
        bad.headers.set("apns-topic", "com.ringcheck testapp")
        #expect(await send(good).status == 200)
        expectRejected(await send(bad), 400, "BadTopic")
        #expect(await send(good).status == 200)
        expectRejected(await send(f.apnsRequest(headers: [("apns-priority", "7")])), 400, "BadPriority")
        #expect(await send(good).status == 200)
        expectRejected(await send(bad), 400, "BadTopic")
    }

    @Test(arguments: ["com.other.app.voip", "com.ringcheck.testapp.widget", "com.ringcheck"])
    func rejectsOtherAppsTopics(topic: String) async {
        expectRejected(await send(f.apnsRequest(headers: [("apns-topic", topic)])), 400, "TopicDisallowed")
    }

    @Test func voipNeedsVoIPTopic() async {
        let response = await send(f.apnsRequest(headers: [("apns-topic", "com.ringcheck.testapp")]))
        expectRejected(response, 400, "DeviceTokenNotForTopic")
    }

    @Test(arguments: ["call", "VOIP", ""])
    func rejectsUnknownPushTypes(pushType: String) async {
        expectRejected(await send(f.apnsRequest(headers: [("apns-push-type", pushType)])), 400, "InvalidPushType")
    }

    @Test(arguments: ["7", "high", "", "10.0"])
    func rejectsBadPriorities(priority: String) async {
        expectRejected(await send(f.apnsRequest(headers: [("apns-priority", priority)])), 400, "BadPriority")
    }

    @Test func backgroundMustNotUsePriority10() async {
        let background: [(String, String?)] = [
            ("apns-push-type", "background"), ("apns-topic", "com.ringcheck.testapp"), ("apns-priority", "10"),
        ]
        let body = Array(#"{"aps":{"content-available":1}}"#.utf8)
        expectRejected(await send(f.apnsRequest(headers: background, body: body)), 400, "BadPriority")
        let five = background.dropLast() + [("apns-priority", "5")]
        #expect(await send(f.apnsRequest(headers: Array(five), body: body)).status == 200)
    }

    @Test(arguments: ["soon", "-1", "1.5", ""])
    func rejectsBadExpiration(expiration: String) async {
        expectRejected(
            await send(f.apnsRequest(headers: [("apns-expiration", expiration)])), 400, "BadExpirationDate")
    }

    @Test func limitsCollapseIDTo64Bytes() async {
        let ok = await send(f.apnsRequest(extraHeaders: [("apns-collapse-id", String(repeating: "c", count: 64))]))
        #expect(ok.status == 200)
        let long = await send(f.apnsRequest(extraHeaders: [("apns-collapse-id", String(repeating: "c", count: 65))]))
        expectRejected(long, 400, "BadCollapseId")
    }

    // MARK: Payload

    @Test func rejectsEmptyPayload() async {
        expectRejected(await send(f.apnsRequest(body: [])), 400, "PayloadEmpty")
    }

    static func payload(size: Int) -> [UInt8] {
        let prefix = Array(#"{"aps":{},"pad":""#.utf8)
        let suffix = Array(#""}"#.utf8)
        return prefix + [UInt8](repeating: UInt8(ascii: "x"), count: size - prefix.count - suffix.count) + suffix
    }

    @Test func voipPayloadLimitIs5120() async {
        #expect(await send(f.apnsRequest(body: Self.payload(size: 5120))).status == 200)
        expectRejected(await send(f.apnsRequest(body: Self.payload(size: 5121))), 413, "PayloadTooLarge")
    }

    @Test func alertPayloadLimitIs4096() async {
        let alert: [(String, String?)] = [("apns-push-type", "alert"), ("apns-topic", "com.ringcheck.testapp")]
        #expect(await send(f.apnsRequest(headers: alert, body: Self.payload(size: 4096))).status == 200)
        expectRejected(
            await send(f.apnsRequest(headers: alert, body: Self.payload(size: 4097))), 413, "PayloadTooLarge")
    }

    @Test(arguments: ["[1]", "not json", "\"s\"", "{\"aps\":", "null"])
    func rejectsNonObjectPayloadsWithADocumentedReason(body: String) async {
        let response = await send(f.apnsRequest(body: Array(body.utf8)))
        expectRejected(response, 400, "PayloadEmpty")
        // Clients decode `reason` into Apple's list: an answer outside it crashes some of them.
        #expect(APNsReason(rawValue: response.apnsReason ?? "") != nil)
    }

    @Test func emptyPayloadIsPayloadEmpty() async {
        expectRejected(await send(f.apnsRequest(body: [])), 400, "PayloadEmpty")
    }

    @Test func everyReasonTheMockCanGiveIsApples() {
        let documented: Set<String> = [
            "BadCollapseId", "BadDeviceToken", "BadExpirationDate", "BadMessageId", "BadPriority", "BadTopic",
            "DeviceTokenNotForTopic", "DuplicateHeaders", "IdleTimeout", "InvalidPushType", "MissingDeviceToken",
            "MissingTopic", "PayloadEmpty", "TopicDisallowed", "BadCertificate", "BadCertificateEnvironment",
            "ExpiredProviderToken", "Forbidden", "InvalidProviderToken", "MissingProviderToken", "BadPath",
            "MethodNotAllowed", "Unregistered", "ExpiredToken", "PayloadTooLarge", "TooManyProviderTokenUpdates",
            "TooManyRequests", "InternalServerError", "ServiceUnavailable", "Shutdown",
        ]
        #expect(Set(APNsReason.allCases.map(\.rawValue)) == documented)
    }

    // MARK: Device registry

    @Test func sandboxTokenSentToProductionIsBadDeviceToken() async {
        f.mocks.registry.register(token: MockFixture.deviceToken, environment: .sandbox)
        expectRejected(await send(f.apnsRequest()), 400, "BadDeviceToken")
        #expect(await send(f.apnsRequest(), to: f.mocks.apnsSandbox).status == 200)
    }

    @Test func productionTokenSentToSandboxIsBadDeviceToken() async {
        f.mocks.registry.register(token: MockFixture.deviceToken.uppercased(), environment: .production)
        expectRejected(await send(f.apnsRequest(), to: f.mocks.apnsSandbox), 400, "BadDeviceToken")
        #expect(await send(f.apnsRequest()).status == 200)
    }

    @Test func unregisteredTokenAnswers410WithTimestamp() async throws {
        f.mocks.registry.unregister(token: MockFixture.deviceToken, atMs: 1_789_999_000_000)
        let response = await send(f.apnsRequest())
        expectRejected(response, 410, "Unregistered")
        #expect(response.jsonBody?["timestamp"]?.int64Value == 1_789_999_000_000)
    }

    @Test func expiredTokenAnswers410() async {
        f.mocks.registry.register(DeviceRegistry.Device(token: MockFixture.deviceToken, status: .expired))
        let response = await send(f.apnsRequest())
        expectRejected(response, 410, "ExpiredToken")
        #expect(response.jsonBody?["timestamp"] != nil)
    }

    /// A PushKit token takes only VoIP pushes and an alert token never one, as APNs answers: 400
    /// DeviceTokenNotForTopic; a token whose kind is unknown takes both.
    @Test func aTokenRefusesPushesOfTheOtherFamily() async {
        let alertHeaders: [(String, String?)] = [
            ("apns-push-type", "alert"), ("apns-topic", f.mocks.credentials.bundleID), ("apns-priority", "10"),
        ]
        let alertBody = Array(#"{"aps":{"alert":"hi"}}"#.utf8)
        #expect(await send(f.apnsRequest()).status == 200)
        #expect(await send(f.apnsRequest(headers: alertHeaders, body: alertBody)).status == 200)

        f.mocks.registry.register(token: MockFixture.deviceToken, environment: .production, tokenKind: .alert)
        expectRejected(await send(f.apnsRequest()), 400, "DeviceTokenNotForTopic")
        #expect(await send(f.apnsRequest(headers: alertHeaders, body: alertBody)).status == 200)

        f.mocks.registry.register(token: MockFixture.deviceToken, environment: .production, tokenKind: .voip)
        #expect(await send(f.apnsRequest()).status == 200)
        expectRejected(await send(f.apnsRequest(headers: alertHeaders, body: alertBody)), 400, "DeviceTokenNotForTopic")
    }

    // MARK: Reasons only faults produce

    @Test(arguments: [
        "IdleTimeout", "BadCertificate", "BadCertificateEnvironment", "Forbidden", "TooManyRequests",
        "InternalServerError", "ServiceUnavailable", "Shutdown", "ExpiredToken",
    ])
    func faultReasonsCarryTheirStatus(reason: String) async throws {
        try f.mocks.faults.install(FaultPlan(mock: .apns, times: 1, respond: FaultResponse(reason: reason)))
        let response = await send(f.apnsRequest())
        let expected = try #require(APNsReason(rawValue: reason)).status
        expectRejected(response, expected, reason)
        #expect(await send(f.apnsRequest()).status == 200)
    }

    @Test func everyFactsReasonHasTheDocumentedStatus() {
        let facts: [Int: [String]] = [
            400: [
                "BadCollapseId", "BadDeviceToken", "BadExpirationDate", "BadMessageId", "BadPriority", "BadTopic",
                "DeviceTokenNotForTopic", "DuplicateHeaders", "IdleTimeout", "InvalidPushType", "MissingDeviceToken",
                "MissingTopic", "PayloadEmpty", "TopicDisallowed",
            ],
            403: [
                "BadCertificate", "BadCertificateEnvironment", "ExpiredProviderToken", "Forbidden",
                "InvalidProviderToken", "MissingProviderToken",
            ],
            404: ["BadPath"], 405: ["MethodNotAllowed"], 410: ["Unregistered", "ExpiredToken"],
            413: ["PayloadTooLarge"],
            429: ["TooManyProviderTokenUpdates", "TooManyRequests"], 500: ["InternalServerError"],
            503: ["ServiceUnavailable", "Shutdown"],
        ]
        for (status, reasons) in facts {
            for reason in reasons { #expect(APNsReason(rawValue: reason)?.status == status, "\(reason)") }
        }
    }
}
