import HTTP
import JSON
import PushMocks
import TestSupport
import Testing

/// Messages addressed by `fid` (firebase-admin 7.x sends it instead of `token`): one target, captured
/// with its address and judged by it like a registration token.
@Suite struct FCMInstallationTargetTests {
    let f = MockFixture()
    static let fid = "cYq0fF3xR2mQ7kZ1pW8vTn:APA91b" + String(repeating: "f", count: 40)

    /// The callx message addressed by `fid` instead of `token`.
    func fidMessage(_ fid: String = fid, alsoToken: Bool = false) -> JSONValue {
        let base = MockFixture.callxMessage()
        guard case .object(var m) = base["message"]! else { return base }
        if !alsoToken { m.removeAll { $0.key == "token" } }
        m.append(("fid", .string(fid)))
        return ["message": .object(m)]
    }

    func send(_ body: JSONValue) async -> HTTPResponse {
        await f.mocks.fcm.handle(f.fcmRequest(body, accessToken: await f.accessToken()))
    }

    @Test func aFidMessageIsCapturedWithItsAddress() async throws {
        let response = await send(fidMessage())
        #expect(response.status == 200)
        let capture = try #require(f.mocks.log.captures(CaptureFilter(mock: .fcm)).last)
        #expect(capture.outcome == .accepted)
        #expect(capture.deviceToken == Self.fid)
        #expect(capture.fcm?.target == FCMTarget(kind: .fid, value: Self.fid))
        #expect(f.mocks.log.captures(CaptureFilter(deviceToken: Self.fid)).count == 1)
        // Redacted like a token.
        #expect(!capture.json(revealSecrets: false).serialized().contains(Self.fid))
    }

    @Test func theControlAPIFindsAFidMessageByItsAddress() async {
        _ = await send(fidMessage())
        _ = await send(MockFixture.callxMessage())
        let r = await f.mocks.control.handle(
            HTTPRequest(method: "GET", target: "/v1/captures?mock=fcm&deviceToken=\(Self.fid)"))
        #expect(r.jsonBody?["captures"]?.arrayValue?.count == 1)
    }

    @Test func anUnregisteredFidIsNotFoundLikeAToken() async {
        f.mocks.registry.unregister(token: Self.fid, atMs: 1)
        let response = await send(fidMessage())
        #expect(response.status == 404)
        #expect(response.fcmErrorCode == "UNREGISTERED")
    }

    @Test func aFaultPlanForTheAddressAppliesToAFidMessage() async throws {
        try f.mocks.faults.install(FaultPlan(deviceToken: Self.fid, respond: FaultResponse(errorCode: "UNREGISTERED")))
        #expect(await send(MockFixture.callxMessage()).status == 200)
        let response = await send(fidMessage())
        #expect(response.status == 404 && response.fcmErrorCode == "UNREGISTERED")
    }

    @Test func fidAndTokenTogetherAreTwoTargets() async {
        let response = await send(fidMessage(alsoToken: true))
        #expect(response.status == 400 && response.googleStatus == "INVALID_ARGUMENT")
    }

    @Test func aMalformedFidIsNamedInTheError() async {
        let response = await send(fidMessage("not a fid!"))
        #expect(response.status == 400)
        #expect(response.jsonBody?.value(atPath: "error.details.1.fieldViolations.0.field") == "message.fid")
    }
}
