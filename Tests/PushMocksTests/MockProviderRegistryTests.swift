import HTTP
import JSON
import PushMocks
import TestSupport
import Testing

/// A webhook receiver written as a new mock would be: one type conforming to `MockProvider`, added to
/// the stack's provider list (in the product: one line in `MockProviders.registered`).
final class WebhookReceiverMock: MockProvider {
    static let id = MockProviderID("webhook")
    static let impersonatedHosts: [ImpersonatedHost] = []
    static let settingNames = ["RINGCHECK_WEBHOOK_RECEIVER_URL"]

    let log: CaptureLog
    init(log: CaptureLog) { self.log = log }

    static func make(_ context: MockProviderContext) -> [any MockProvider] { [WebhookReceiverMock(log: context.log)] }

    static let listeners = [MockListener(name: "webhook", tls: false)]

    func settings(_ context: inout MockSettingsContext) throws -> [(name: String, value: String)] {
        [("RINGCHECK_WEBHOOK_RECEIVER_URL", context.baseURL + "/hooks")]
    }

    func handle(_ request: HTTPRequest) async -> HTTPResponse {
        _ = log.record(Capture(request: request, mock: Self.id, arrivalMs: request.arrivalMs))
        return .text(200, "OK\n")
    }
}

@Suite struct MockProviderRegistryTests {
    @Test func theRegisteredProvidersKeepTheirNames() {
        #expect(MockProviderID.allCases.map(\.rawValue) == ["apns", "fcm", "oauth", "onesignal", "dialstack"])
        #expect(MockProviderID(rawValue: "apns") == .apns && MockProviderID(rawValue: "webhook") == nil)
        #expect(MockProviderID(rawValue: "onesignal") == .onesignal)
        #expect(MockProviderID(rawValue: "dialstack") == .dialstack)
        #expect(PushChannel.allCases.map(\.rawValue) == ["apnsVoip", "fcm"])
        #expect(PushChannel.allCases.map(\.provider) == [.apns, .fcm])
        #expect(PushChannel(rawValue: "apns") == nil && PushChannel(rawValue: "apnsVoip") == .apnsVoip)
        #expect(APNsEnvironment.allCases.map(\.rawValue) == ["sandbox", "production"])
        #expect(
            ImpersonatedHost.allNames
                == "api.push.apple.com api.sandbox.push.apple.com api.development.push.apple.com "
                + "fcm.googleapis.com oauth2.googleapis.com api.onesignal.com onesignal.com")
        #expect(
            throws: FaultPlanError(messages: [
                "mock must be one of apns, fcm, oauth, onesignal, dialstack (got 'webhook')"
            ])
        ) {
            try FaultPlan(json: ["mock": "webhook", "respond": ["status": 500]])
        }
    }

    @Test func aNewProviderGetsItsListenerItsSettingAndItsCaptures() async throws {
        let mocks = try await MockStackHarness.start {
            $0.providers = MockProviders.registered + [WebhookReceiverMock.self]
        }
        let url = try #require(mocks.settings.extra.first { $0.name == "RINGCHECK_WEBHOOK_RECEIVER_URL" }?.value)
        #expect(url.hasPrefix("http://127.0.0.1:") && url.hasSuffix("/hooks"))
        // Written after the built-in settings, read back the same way.
        let names = mocks.settings.environment.map(\.name)
        #expect(
            names.firstIndex(of: "RINGCHECK_WEBHOOK_RECEIVER_URL")
                == names.firstIndex(of: "RINGCHECK_CONTROL_URL")! + 1 + OneSignalMock.settingNames.count
                + DialStackAPIMock.settingNames.count
        )
        let env = Dictionary(mocks.settings.environment.map { ($0.name, $0.value) }) { $1 }
        #expect(
            try MockSettings(environment: env, providers: MockProviders.registered + [WebhookReceiverMock.self])
                == mocks.settings)
        #expect(
            try MockSettings(environment: env).extra.map(\.name)
                == OneSignalMock.settingNames + DialStackAPIMock.settingNames)

        let r = try await mocks.clients.curl(url, method: "POST", body: #"{"type":"call.ringing"}"#)
        #expect(r.status == 200 && r.body == "OK\n", "\(r)")
        let captured = mocks.log.captures(CaptureFilter(mock: WebhookReceiverMock.id))
        #expect(captured.count == 1 && captured.first?.path == "/hooks")
        #expect(captured.first?.json(revealSecrets: false)["mock"] == "webhook")
        // The built-in mocks still answer on their own listeners.
        #expect(try await mocks.clients.apnsPush(jwt: "x").status == 403)
    }

    /// `ringcheck mocks --port NAME=PORT` takes every listener's name and every provider's ID; an
    /// added provider's listener is one more.
    @Test func portNamesAreTheListenersAndTheProviders() {
        #expect(
            MockProviders.portNames().map { "\($0.name)=\($0.listener)" } == [
                "apns=apns", "apnsSandbox=apnsSandbox", "google=google", "onesignal=onesignal", "dialstack=dialstack",
                "fcm=google",
                "oauth=google", "control=control",
            ])
        #expect(MockProviders.listener(forPortName: "fcm") == "google")
        #expect(MockProviders.listener(forPortName: "webhook") == nil)
        #expect(
            MockProviders.listener(
                forPortName: "webhook", registered: MockProviders.registered + [WebhookReceiverMock.self]) == "webhook")
    }

    /// The endpoint and credential lines `ringcheck mocks` prints come from the providers.
    @Test func theProvidersSayTheirConsoleLines() async throws {
        let mocks = try await MockStackHarness.start {
            $0.providers = MockProviders.registered + [WebhookReceiverMock.self]
        }
        let lines = mocks.stack.providers.all.map { $0.consoleLines(mocks.settings) }
        let endpoints = lines.flatMap(\.endpoints)
        #expect(endpoints.first == "  APNs (production)  \(mocks.settings.apnsURL)      POST /3/device/<token>")
        #expect(endpoints.contains("  APNs (sandbox)     \(mocks.settings.apnsSandboxURL)"))
        #expect(endpoints.contains { $0.hasPrefix("  OneSignal REST     https://127.0.0.1:") })
        // A provider that says nothing of its own shows its settings.
        let hook = try #require(mocks.settings.extra.first { $0.name == "RINGCHECK_WEBHOOK_RECEIVER_URL" })
        #expect(endpoints.last == "  RINGCHECK_WEBHOOK_RECEIVER_URL \(hook.value)")
        #expect(lines.flatMap(\.credentials).contains("  Service account    \(mocks.settings.fcmServiceAccountFile)"))
    }
}
