import HTTP
import JSON
import PushMocks
import TestSupport
import Testing

@testable import Callx
@testable import Conformance

/// Genuine captures for invariant tests: requests are fed to in-process mocks on a manual clock, so each
/// capture is exactly what the mocks record (sequence, arrival, environment, headers, body, outcome).
struct InvariantFixture {
    static let start: Int64 = 1_790_000_000_000
    static let callId = "85a4fd88-b5c3-4f79-a2cf-a7db9df06750"
    static let phoneToken = MockFixture.deviceToken
    static let sandboxToken = String(repeating: "cd", count: 32)
    static let tabletToken = MockFixture.fcmToken

    let f = MockFixture(startMs: start)
    var topic: String { f.mocks.credentials.voipTopic }

    /// A conforming invitation issued at `start`, expiring 30 s later; `changes` replace or add members
    /// (a nil value removes one).
    static func invitation(
        callId: String = callId, eventId: String = "evt-invite-001", issuedAtMs: Int64 = start,
        expiresAtMs: Int64 = start + 30_000, _ changes: [(String, JSONValue?)] = []
    ) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("schemaVersion", 1), ("eventId", .string(eventId)), ("type", "call.invited"),
            ("callId", .string(callId)), ("revision", "1"), ("displayName", "Alex"), ("handle", "callx:user-a"),
            ("issuedAtMs", .int(issuedAtMs)), ("expiresAtMs", .int(expiresAtMs)),
        ]
        for (key, value) in changes {
            members.removeAll { $0.key == key }
            if let value { members.append((key, value)) }
        }
        return .object(members)
    }

    /// A stop signal as the reference backend sends it.
    static func signal(_ type: String = "call.ended", reason: String? = "callerCancelled", revision: String = "2")
        -> JSONValue
    {
        var members: [(key: String, value: JSONValue)] = [
            ("schemaVersion", 1), ("eventId", "evt-end-002"), ("type", .string(type)), ("callId", .string(callId)),
            ("revision", .string(revision)), ("occurredAtMs", .int(start + 5000)),
        ]
        if let reason { members.append(("reason", .string(reason))) }
        return .object(members)
    }

    /// The context of a scenario with an APNs phone (production), an APNs pad (sandbox) and an FCM tablet.
    func context(calls: [CallTimeline] = [], margin: Int64 = 1000, credentials: [String] = []) -> InvariantContext {
        InvariantContext(
            devices: [
                InvariantDevice(name: "b-phone", kind: .apnsVoip, environment: .production, tokens: [Self.phoneToken]),
                InvariantDevice(name: "b-pad", kind: .apnsVoip, environment: .sandbox, tokens: [Self.sandboxToken]),
                InvariantDevice(name: "b-tablet", kind: .fcm, tokens: [Self.tabletToken]),
            ], voipTopic: topic, calls: calls, inFlightMarginMs: margin, mediaCredentials: credentials)
    }

    // MARK: Sending

    /// Sends an APNs push with `body` (default: an invitation) at `atMs` (default start + 200 ms) and
    /// returns its capture. `headers` replace the conforming VoIP headers (nil removes one).
    func apns(
        _ body: JSONValue? = nil, callx: JSONValue = invitation(), headers: [(String, String?)] = [],
        token: String = phoneToken, environment: APNsEnvironment = .production, atMs: Int64 = start + 200
    ) async -> Capture {
        f.clock.set(ms: atMs)
        let payload = body ?? ["aps": .object([]), "callx": callx]
        let request = f.apnsRequest(token: token, headers: headers, body: payload.bytes())
        _ = await f.mocks.apns(environment).handle(request)
        return f.mocks.log.captures().last!
    }

    /// An FCM send request carrying `callx` as the `data.callx` string.
    static func fcmMessage(
        callx: JSONValue = invitation(), priority: JSONValue? = "HIGH", ttl: JSONValue? = "30s",
        token: String = tabletToken, extra: [(String, JSONValue)] = [], android extraAndroid: [(String, JSONValue)] = []
    ) -> JSONValue {
        var android: [(key: String, value: JSONValue)] = []
        if let priority { android.append(("priority", priority)) }
        if let ttl { android.append(("ttl", ttl)) }
        android += extraAndroid.map { (key: $0.0, value: $0.1) }
        var message: [(key: String, value: JSONValue)] = [
            ("token", .string(token)), ("android", .object(android)), ("data", ["callx": .string(callx.serialized())]),
        ]
        message += extra.map { (key: $0.0, value: $0.1) }
        return ["message": .object(message)]
    }

    /// Sends `body` to the FCM mock at `atMs` and returns its capture.
    func fcm(_ body: JSONValue = fcmMessage(), atMs: Int64 = start + 200) async -> Capture {
        f.clock.set(ms: atMs)
        let token = await f.accessToken()
        f.clock.set(ms: atMs)
        _ = await f.mocks.fcm.handle(f.fcmRequest(body, accessToken: token))
        return f.mocks.log.captures(CaptureFilter(mock: .fcm)).last!
    }

    // MARK: Checking

    func check(_ captures: [Capture], events: [ObservedEvent] = [], context: InvariantContext? = nil)
        -> [Violation]
    {
        InvariantChecker.check(captures: captures, events: events, context: context ?? self.context())
    }

    func ids(_ captures: [Capture], events: [ObservedEvent] = [], context: InvariantContext? = nil) -> [String] {
        check(captures, events: events, context: context).map(\.requirement.rawValue)
    }
}

@Suite struct InvariantFixtureTests {
    @Test func conformingPushesAreAcceptedAndClean() async {
        let x = InvariantFixture()
        let apns = await x.apns()
        let pad = await x.apns(token: InvariantFixture.sandboxToken, environment: .sandbox)
        let fcm = await x.fcm()
        #expect(apns.outcome == .accepted)
        #expect(pad.outcome == .accepted)
        #expect(fcm.outcome == .accepted)
        let violations = x.check([apns, pad, fcm])
        #expect(violations.isEmpty, "\(violations)")
    }

    @Test func oauthCapturesAreNotPushes() async {
        let x = InvariantFixture()
        _ = await x.f.accessToken()
        let oauth = x.f.mocks.log.captures().last!
        #expect(oauth.mock == .oauth)
        #expect(PushDocument(capture: oauth) == nil)
        #expect(x.check([oauth]).isEmpty)
    }
}
