import HTTP
import JSON
import Testing

@testable import ReferenceBackend

@Suite struct PushMessageTests {
    let settings = PushMessageSettings(fcmProjectID: "demo-project")

    /// Creates a call to user-b (VoIP phone on sandbox, FCM tablet) and sends its invitations.
    func sendInvitations(
        _ backend: BackendHarness, after ms: Int64 = 0, settings: PushMessageSettings? = nil
    ) async throws -> (String, [PushRequest]) {
        await backend.register("user-b", installation: "b-phone", token: "voip-token-1", environment: "sandbox")
        await backend.register("user-b", installation: "b-tablet", kind: .fcm, token: "fcm-token-1")
        let call = "85a4fd88-b5c3-4f79-a2cf-a7db9df06750"
        await backend.create(call)
        backend.clock.advance(ms: ms)
        let transport = FakeTransport()
        let worker = PushWorker(service: backend.service, transport: transport, settings: settings ?? self.settings)
        await worker.runOnce()
        return (call, transport.sent.sorted { $0.jobId < $1.jobId })
    }

    @Test func voipTopicIsTheBundleIDWithVoipOrTheSetting() async throws {
        let bundle = PushMessageSettings(fcmProjectID: "p", apnsBundleID: "com.example.app")
        let (_, sent) = try await sendInvitations(try BackendHarness(), settings: bundle)
        #expect(sent.first { $0.destination == .apns(.sandbox) }?.headers["apns-topic"] == "com.example.app.voip")
        let named = PushMessageSettings(fcmProjectID: "p", apnsBundleID: "com.example.app", apnsVoIPTopic: "com.x.voip")
        let (_, again) = try await sendInvitations(try BackendHarness(), settings: named)
        #expect(again.first { $0.destination == .apns(.sandbox) }?.headers["apns-topic"] == "com.x.voip")
    }

    @Test func apnsVoipInvitationIsExactlyTheSeed() async throws {
        let backend = try BackendHarness()
        let (call, sent) = try await sendInvitations(backend, after: 1_500)
        let apns = try #require(sent.first { $0.destination == .apns(.sandbox) })
        #expect(apns.method == "POST")
        #expect(apns.path == "/3/device/voip-token-1")
        #expect(apns.headers["apns-push-type"] == "voip")
        #expect(apns.headers["apns-topic"] == "com.example.calls.voip")
        #expect(apns.headers["apns-priority"] == "10")
        #expect(apns.headers["apns-expiration"] == "0")
        #expect(apns.headers["content-type"] == "application/json")
        #expect(apns.headers["authorization"] == nil)  // the transport adds the provider token
        let body = try #require(apns.json)
        #expect(body.objectValue?.map(\.key) == ["aps", "callx"])
        #expect(body["aps"] == .object([]))
        let callx = try #require(body["callx"])
        #expect(
            callx.objectValue?.map(\.key) == [
                "schemaVersion", "eventId", "type", "callId", "revision", "displayName", "handle", "issuedAtMs",
                "expiresAtMs",
            ])
        #expect(callx["type"] == "call.invited")
        #expect(callx["callId"] == .string(call))
        #expect(callx["revision"] == "1")
        #expect(callx["displayName"] == "Alex")
        #expect(callx["handle"] == "callx:user-a")
        #expect(callx["issuedAtMs"]?.int64Value == backend.clock.now)  // stamped when sent
        #expect(callx["expiresAtMs"]?.int64Value == 1_790_000_030_000)
    }

    @Test func fcmInvitationIsADataMessageWithTTLLeftAtSendTime() async throws {
        let backend = try BackendHarness()
        let (call, sent) = try await sendInvitations(backend, after: 4_200)
        let fcm = try #require(sent.first { $0.destination == .fcm })
        #expect(fcm.path == "/v1/projects/demo-project/messages:send")
        let message = try #require(fcm.json?["message"])
        #expect(message.objectValue?.map(\.key) == ["token", "android", "data"])  // no notification block
        #expect(message["token"] == "fcm-token-1")
        #expect(message["android"] == ["priority": "HIGH", "ttl": "26s"])  // 25.8 s left, whole seconds
        let text = try #require(message.value(atPath: "data.callx")?.stringValue)
        let callx = try JSONValue.parse(text)
        #expect(callx["type"] == "call.invited")
        #expect(callx["callId"] == .string(call))
        #expect(message["data"]?.objectValue?.count == 1)
    }

    @Test func ttlIsNeverZeroWhileTheInvitationIsValid() {
        let builder = PushMessageBuilder(settings: settings)
        let job = PushJob(
            jobId: 1, purpose: .invitation, callId: "c", installationId: "i", kind: .fcm, token: "t", appId: "a",
            apnsEnvironment: nil, payload: ["type": "call.invited"], validUntilMs: 10_000, attempts: 0,
            nextAttemptAtMs: 0, status: .pending)
        #expect(builder.request(for: job, nowMs: 9_999)?.json?.value(atPath: "message.android.ttl") == "1s")
        #expect(builder.request(for: job, nowMs: 0)?.json?.value(atPath: "message.android.ttl") == "10s")
        #expect(builder.request(for: job, nowMs: 10_000) == nil)
    }

    @Test func androidStopSignalsAreNormalPriorityCallxData() async throws {
        let backend = try BackendHarness()
        let (call, _) = try await sendInvitations(backend)
        await backend.answer(call, installation: "b-phone")
        let stops = try backend.jobs(call).filter { $0.purpose == .stopSignal }
        #expect(stops.map(\.installationId) == ["b-tablet"])  // never a VoIP push
        let transport = FakeTransport()
        await PushWorker(service: backend.service, transport: transport, settings: settings).runOnce()
        let request = try #require(transport.sent.first)
        let message = try #require(request.json?["message"])
        #expect(message.value(atPath: "android.priority") == "NORMAL")
        #expect(message["notification"] == nil)
        let callx = try JSONValue.parse(try #require(message.value(atPath: "data.callx")?.stringValue))
        #expect(callx["type"] == "call.ended")
        #expect(callx["reason"] == "answeredElsewhere")
        // The same event the feed carries, so the device deduplicates by eventId.
        let feed = await backend.allEvents("user-b", installation: "b-tablet")
        #expect(feed == [callx])
    }

    @Test func cancelCallerSendsStopSignalsToRingingAndroidDevices() async throws {
        let backend = try BackendHarness()
        let (call, _) = try await sendInvitations(backend)
        await backend.end(call, as: "user-a", reason: "callerCancelled")
        let stops = try backend.jobs(call).filter { $0.purpose == .stopSignal }
        #expect(stops.map(\.installationId) == ["b-tablet"])
        #expect(stops.first?.payload["reason"] == "callerCancelled")
    }

    @Test func productionRegistrationsUseProductionAPNs() async throws {
        let backend = try BackendHarness()
        await backend.register("user-b", installation: "b-phone", environment: "production", appId: "org.demo.app")
        await backend.create()
        let transport = FakeTransport()
        await PushWorker(service: backend.service, transport: transport, settings: settings).runOnce()
        #expect(transport.sent.first?.destination == .apns(.production))
        #expect(transport.sent.first?.headers["apns-topic"] == "org.demo.app.voip")
    }

    @Test func videoCallsSayVideo() async throws {
        let backend = try BackendHarness()
        await backend.register("user-b", installation: "b-phone")
        let reply = await backend.create(extra: [("video", true)])
        #expect(reply["video"] == true)
        let job = try #require(try backend.jobs(reply["callId"]?.stringValue ?? "").first)
        #expect(job.payload["video"] == true)
    }
}
