import HTTP
import JSON
import PushMocks
import TestSupport
import Testing

@Suite struct FCMMockTests {
    let f = MockFixture()
    var fcm: FCMMock { f.mocks.fcm }

    func send(_ body: JSONValue, token: String? = nil) async -> HTTPResponse {
        let access: String
        if let token { access = token } else { access = await f.accessToken() }
        return await fcm.handle(f.fcmRequest(body, accessToken: access))
    }

    func expectInvalid(_ response: HTTPResponse, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(response.status == 400, sourceLocation: sourceLocation)
        #expect(response.googleStatus == "INVALID_ARGUMENT", sourceLocation: sourceLocation)
        #expect(response.fcmErrorCode == "INVALID_ARGUMENT", sourceLocation: sourceLocation)
        #expect(
            response.jsonBody?.value(atPath: "error.details.0.@type")
                == "type.googleapis.com/google.firebase.fcm.v1.FcmError", sourceLocation: sourceLocation)
        #expect(response.jsonBody?.value(atPath: "error.code") == 400, sourceLocation: sourceLocation)
    }

    /// The callx message with `message.<path>` replaced.
    func message(_ key: String, _ value: JSONValue?) -> JSONValue {
        let base = MockFixture.callxMessage()
        guard case .object(var m) = base["message"]! else { return base }
        m.removeAll { $0.key == key }
        if let value { m.append((key, value)) }
        return ["message": .object(m)]
    }

    func android(_ fields: JSONValue) -> JSONValue { message("android", fields) }

    // MARK: Happy path

    @Test func fullTokenExchangeThenSend() async throws {
        let response = await send(MockFixture.callxMessage())
        #expect(response.status == 200)
        let name = try #require(response.jsonBody?["name"]?.stringValue)
        #expect(name.hasPrefix("projects/ringcheck-test/messages/"))
        let capture = try #require(f.mocks.log.captures(CaptureFilter(mock: .fcm)).last)
        #expect(capture.outcome == .accepted)
        #expect(capture.deviceToken == MockFixture.fcmToken)
        let info = try #require(capture.fcm)
        #expect(info.target == FCMTarget(kind: .token, value: MockFixture.fcmToken))
        #expect(info.priority == "HIGH")
        #expect(info.ttlSeconds == 30)
        #expect(!info.hasNotification)
        #expect(info.data["callx"]?.contains("call.invited") == true)
        #expect(!info.validateOnly)
    }

    @Test func validateOnlyAnswersFakeID() async throws {
        let body = MockFixture.callxMessage().setting("validate_only", to: true)
        let response = await send(body)
        #expect(response.jsonBody?["name"] == "projects/ringcheck-test/messages/fake_message_id")
        #expect(f.mocks.log.captures().last?.fcm?.validateOnly == true)
    }

    @Test(arguments: ["high", "HIGH", "High", "normal", "NORMAL"])
    func priorityInAnyCase(priority: String) async {
        let response = await send(android(["priority": .string(priority)]))
        #expect(response.status == 200)
        #expect(f.mocks.log.captures().last?.fcm?.priority == priority.uppercased())
    }

    @Test(arguments: [("30s", 30.0), ("29.500000000s", 29.5), ("0s", 0), ("2419200s", 2_419_200), ("1.5s", 1.5)])
    func ttlDurations(ttl: String, seconds: Double) async {
        let response = await send(android(["ttl": .string(ttl)]))
        #expect(response.status == 200)
        #expect(f.mocks.log.captures().last?.fcm?.ttlSeconds == seconds)
    }

    @Test func snakeAndCamelCaseFieldsAreAccepted() async {
        let response = await send(
            android(["priority": "high", "collapse_key": "c", "restrictedPackageName": "com.x", "direct_boot_ok": true])
        )
        #expect(response.status == 200)
    }

    @Test func nullFieldsCountAsUnset() async {
        let response = await send(
            android(["priority": "high", "ttl": "30s", "notification": nil, "collapse_key": nil]).setting(
                "validate_only", to: nil))
        #expect(response.status == 200)
        #expect(f.mocks.log.captures().last?.fcm?.hasNotification == false)
    }

    @Test func notificationBlockIsRecorded() async {
        let response = await send(message("notification", ["title": "Alex", "body": "calling"]))
        #expect(response.status == 200)
        #expect(f.mocks.log.captures().last?.fcm?.hasNotification == true)
        _ = await send(android(["notification": ["title": "x", "channel_id": "calls"]]))
        #expect(f.mocks.log.captures().last?.fcm?.hasNotification == true)
    }

    @Test func otherTargets() async {
        for (kind, value) in [("topic", "calls"), ("condition", "'a' in topics"), ("fid", "fid-123")] {
            let body = message("token", nil).setting(
                "message", to: message("token", nil)["message"]!.setting(kind, to: .string(value)))
            let response = await send(body)
            #expect(response.status == 200, "\(kind)")
            #expect(f.mocks.log.captures().last?.fcm?.target?.kind.rawValue == kind)
        }
    }

    // MARK: Authentication and project

    @Test func missingAuthorizationIsUnauthenticated() async {
        let response = await fcm.handle(f.fcmRequest(MockFixture.callxMessage(), accessToken: nil))
        #expect(response.status == 401)
        #expect(response.googleStatus == "UNAUTHENTICATED")
    }

    @Test func unknownTokenIsUnauthenticated() async {
        let response = await send(MockFixture.callxMessage(), token: "ya29.made-up")
        #expect(response.status == 401)
        #expect(response.googleStatus == "UNAUTHENTICATED")
        #expect(f.mocks.log.captures().last?.outcome == .rejected(reason: "UNAUTHENTICATED"))
    }

    @Test func expiredTokenIsUnauthenticated() async {
        let token = await f.accessToken()
        f.clock.advance(seconds: 3600)
        let response = await send(MockFixture.callxMessage(), token: token)
        #expect(response.status == 401)
        #expect(response.googleStatus == "UNAUTHENTICATED")
    }

    @Test func otherProjectIsPermissionDenied() async {
        let token = await f.accessToken()
        let response = await fcm.handle(f.fcmRequest(MockFixture.callxMessage(), accessToken: token, project: "other"))
        #expect(response.status == 403)
        #expect(response.googleStatus == "PERMISSION_DENIED")
    }

    @Test func wrongPathOrMethodIsNotFound() async {
        let token = await f.accessToken()
        let get = await fcm.handle(f.fcmRequest(MockFixture.callxMessage(), accessToken: token, method: "GET"))
        #expect(get.status == 404)
        var request = f.fcmRequest(MockFixture.callxMessage(), accessToken: token)
        request.target = "/v1/projects/ringcheck-test/messages:sendAll"
        #expect(await fcm.handle(request).status == 404)
    }

    // MARK: Message validation

    @Test func invalidJSONIsInvalidArgument() async {
        let token = await f.accessToken()
        expectInvalid(await fcm.handle(f.fcmRequest(raw: Array("{nope".utf8), accessToken: token)))
        expectInvalid(await fcm.handle(f.fcmRequest(raw: [], accessToken: token)))
    }

    @Test func missingMessageIsInvalid() async {
        expectInvalid(await send(["validate_only": false]))
    }

    @Test func noTargetIsInvalid() async {
        expectInvalid(await send(message("token", nil)))
        expectInvalid(await send(message("token", "")))
    }

    @Test func twoTargetsAreInvalid() async {
        expectInvalid(await send(message("topic", "calls")))
    }

    @Test func malformedTokenIsInvalid() async {
        expectInvalid(await send(message("token", "bad token with spaces")))
        expectInvalid(await send(message("token", 42)))
    }

    @Test func dataValuesMustBeStrings() async {
        expectInvalid(await send(message("data", ["callx": ["type": "call.invited"]])))
        expectInvalid(await send(message("data", ["n": 1])))
        expectInvalid(await send(message("data", ["ok": "yes", "b": true])))
        expectInvalid(await send(message("data", "callx")))
    }

    @Test func reservedDataKeysAreInvalid() async {
        expectInvalid(await send(message("data", ["from": "x"])))
        expectInvalid(await send(message("data", ["google.x": "x"])))
    }

    @Test(arguments: ["URGENT", "max", ""])
    func badPriorityIsInvalid(priority: String) async {
        expectInvalid(await send(android(["priority": .string(priority)])))
    }

    @Test func numericPriorityIsInvalid() async {
        expectInvalid(await send(android(["priority": 10])))
    }

    @Test(arguments: ["30", "-1s", "2419201s", "1.1234567890s", "s", "30 s", "1e3s"])
    func badTTLIsInvalid(ttl: String) async {
        expectInvalid(await send(android(["ttl": .string(ttl)])))
    }

    @Test func numericTTLIsInvalid() async {
        expectInvalid(await send(android(["ttl": 30])))
    }

    @Test func unknownFieldsAreInvalid() async throws {
        let response = await send(message("priority", "high"))
        expectInvalid(response)
        let text = try #require(response.jsonBody?.value(atPath: "error.message")?.stringValue)
        #expect(text.contains("Unknown name \"priority\" at 'message'"))
        expectInvalid(await send(android(["priority": "high", "time_to_live": 30])))
        expectInvalid(await send(MockFixture.callxMessage().setting("dry_run", to: true)))
        expectInvalid(await send(message("notification", ["title": "a", "sound": "x"])))
    }

    @Test func duplicateFieldsAreInvalid() async {
        let token = await f.accessToken()
        let raw = #"{"message":{"token":"abc","token":"def"}}"#
        expectInvalid(await fcm.handle(f.fcmRequest(raw: Array(raw.utf8), accessToken: token)))
    }

    @Test func payloadOver4096BytesIsInvalid() async throws {
        // Data keys + values count: "callx" (5) + value.
        let fits = String(repeating: "x", count: 4096 - 5)
        #expect(await send(message("data", ["callx": .string(fits)])).status == 200)
        let response = await send(message("data", ["callx": .string(fits + "x")]))
        expectInvalid(response)
        #expect(response.jsonBody?.value(atPath: "error.message") == "Android message is too big")
    }

    @Test func notificationCountsTowardsTheLimit() async {
        let data: JSONValue = ["callx": .string(String(repeating: "x", count: 4000))]
        let body = message("data", data)
        let withNotification = body.setting(
            "message",
            to: body["message"]!.setting("notification", to: ["body": .string(String(repeating: "y", count: 100))]))
        expectInvalid(await send(withNotification))
    }

    // MARK: Device state

    @Test func unregisteredTokenIsNotFound() async {
        f.mocks.registry.unregister(token: MockFixture.fcmToken, atMs: 1)
        let response = await send(MockFixture.callxMessage())
        #expect(response.status == 404)
        #expect(response.googleStatus == "NOT_FOUND")
        #expect(response.fcmErrorCode == "UNREGISTERED")
    }

    @Test func foreignTokenIsSenderIDMismatch() async {
        f.mocks.registry.register(DeviceRegistry.Device(token: MockFixture.fcmToken, status: .foreignSender))
        let response = await send(MockFixture.callxMessage())
        #expect(response.status == 403)
        #expect(response.googleStatus == "PERMISSION_DENIED")
        #expect(response.fcmErrorCode == "SENDER_ID_MISMATCH")
    }

    // MARK: Errors faults produce

    @Test(arguments: [
        ("UNREGISTERED", 404, "NOT_FOUND"), ("INVALID_ARGUMENT", 400, "INVALID_ARGUMENT"),
        ("SENDER_ID_MISMATCH", 403, "PERMISSION_DENIED"), ("QUOTA_EXCEEDED", 429, "RESOURCE_EXHAUSTED"),
        ("UNAVAILABLE", 503, "UNAVAILABLE"), ("INTERNAL", 500, "INTERNAL"),
        ("THIRD_PARTY_AUTH_ERROR", 401, "UNAUTHENTICATED"),
    ])
    func everyFCMErrorHasItsStatus(code: String, status: Int, googleStatus: String) async throws {
        try f.mocks.faults.install(FaultPlan(mock: .fcm, times: 1, respond: FaultResponse(errorCode: code)))
        let response = await send(MockFixture.callxMessage())
        #expect(response.status == status)
        #expect(response.googleStatus == googleStatus)
        #expect(response.fcmErrorCode == code)
        #expect(response.jsonBody?.value(atPath: "error.code")?.intValue == status)
        #expect(f.mocks.log.captures().last?.outcome == .rejected(reason: code))
    }

    @Test func faultWithOnlyStatusPicksTheErrorCode() async throws {
        try f.mocks.faults.install(FaultPlan(mock: .fcm, respond: FaultResponse(status: 429), retryAfter: 7))
        let response = await send(MockFixture.callxMessage())
        #expect(response.status == 429)
        #expect(response.fcmErrorCode == "QUOTA_EXCEEDED")
        #expect(response.headers["retry-after"] == "7")
    }
}
