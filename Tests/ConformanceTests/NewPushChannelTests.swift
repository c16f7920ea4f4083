import HTTP
import JSON
import PushMocks
import Reports
import TestSupport
import Testing

@testable import AllProfiles
@testable import Conformance

/// A pager service written as a new mock would be, with a push channel of its own (`pager`): its
/// tokens (`pg-` and 20 digits), its real host, the answer that means a token is gone, the header
/// that holds its credential, its name in reports. The engine learns all of it from the provider.
///
/// `POST|GET /page/<token>` pages the device holding `token`, answered with `?answer=STATUS` (200 by
/// default); the listener doubles as the target of the tests below, so a `probe` step pages.
final class PagerMock: MockProvider {
    static let id = MockProviderID("pager")
    static let channels = [PushChannel.pager]
    static let impersonatedHosts = [ImpersonatedHost(name: "pager.example.net", ports: [443])]
    static let settingNames = ["RINGCHECK_PAGER_URL"]
    static let listeners = [MockListener(name: "pager", tls: false)]
    static let displayName = "Pager"
    static let credentialHeaders = ["authorization", "x-pager-key"]

    static func newDeviceToken(for channel: PushChannel) -> String {
        "pg-" + String((0..<20).map { _ in "0123456789".randomElement()! })
    }

    static func isWellFormedDeviceToken(_ token: String, for channel: PushChannel) -> Bool {
        token.hasPrefix("pg-") && token.count == 23 && token.dropFirst(3).allSatisfy(\.isASCII)
            && token.dropFirst(3).allSatisfy(\.isNumber)
    }

    static func realHost(of capture: Capture) -> String { "pager.example.net" }
    static func meansTokenGone(_ answer: FaultResponse) -> Bool { answer.status == 410 }

    let log: CaptureLog
    init(log: CaptureLog) { self.log = log }

    static func make(_ context: MockProviderContext) -> [any MockProvider] { [PagerMock(log: context.log)] }

    func settings(_ context: inout MockSettingsContext) throws -> [(name: String, value: String)] {
        [("RINGCHECK_PAGER_URL", context.baseURL)]
    }

    func handle(_ request: HTTPRequest) async -> HTTPResponse {
        var capture = Capture(request: request, mock: Self.id, arrivalMs: request.arrivalMs)
        let token = request.path.hasPrefix("/page/") ? String(request.path.dropFirst(6)) : ""
        capture.deviceToken = token
        capture.secrets = [CaptureSecret(value: token, replacement: Redaction.shortToken(token))]
        let status = request.query["answer"].flatMap { Int($0) } ?? 200
        capture.response = .text(status, status == 200 ? "paged\n" : "gone\n")
        capture.outcome = status == 200 ? .accepted : .rejected(reason: "Gone")
        _ = log.record(capture)
        return capture.response
    }
}

extension PushChannel {
    static let pager = PushChannel("pager", carrier: PagerMock.self)
}

@Suite struct NewPushChannelTests {
    @Test func theChannelSaysItsTokensHostAndGoneAnswers() {
        let token = PushChannel.pager.newDeviceToken()
        #expect(PushChannel.pager.isWellFormed(deviceToken: token), "\(token)")
        #expect(!PushChannel.pager.isWellFormed(deviceToken: RandomText.hex(bytes: 32)))
        #expect(PushChannel.pager.provider == PagerMock.id && !PushChannel.pager.hasEnvironments)
        #expect(PagerMock.meansTokenGone(FaultResponse(status: 410)))
        #expect(!PagerMock.meansTokenGone(FaultResponse(status: 404)))
        // The built-in channels' tokens pass their own mocks' checks.
        for channel in [PushChannel.apnsVoip, .fcm] {
            let t = channel.newDeviceToken()
            #expect(channel.isWellFormed(deviceToken: t), "\(channel): \(t)")
            #expect(!channel.isWellFormed(deviceToken: ""))
        }
        #expect(
            PushChannel.apnsVoip.newDeviceToken().count == 64 && PushChannel.fcm.newDeviceToken().contains(":APA91b"))
    }

    static let scenario = """
        id: pager.push
        title: A push on a channel the engine was never told of
        requirements: [CALLX-E2E-1, CALLX-SEC-1]
        devices:
          b-pager: {user: b, kind: apnsVoip, registered: false}
        steps:
          - probe: {as: a, path: "/page/${devices.b-pager.token}", status: 200}
          - expectPush:
              to: b-pager
              within: 30s
              requirement: CALLX-E2E-1
              save: paged
              match: {kind: pager, host: pager.example.net, deviceToken: $devices.b-pager.token, headers.authorization: "Bearer <redacted>"}
          - probe: {as: a, path: "/page/${devices.b-pager.token}?answer=410", status: 410}
          - expectPush: {to: b-pager, within: 1s, requirement: CALLX-E2E-1}
        """

    /// The scenario above run by the engine over mocks with the pager added and its device made a
    /// pager (the suite's decoder knows the registered channels only): the first page is matched to
    /// the device by the provider's rules, the refused one is summarised in the provider's name, and
    /// no report shows the token whole.
    @Test func anAddedProvidersPushesAreMatchedRedactedAndSummarised() async throws {
        var options = MockStack.Options.forTests
        options.providers = MockProviders.registered + [PagerMock.self]
        let mocks = try await MockStack.start(options)
        defer { mocks.stop() }
        let pagerURL = try #require(mocks.settings.extra.first { $0.name == "RINGCHECK_PAGER_URL" }?.value)
        var suite = try ProfileEngineTests.suite(Self.scenario, profile: HookTestProfile())
        suite.scenarios[0].devices[0] = VirtualDevice(name: "b-pager", user: "b", kind: .pager, registered: false)
        let target = Target(
            name: "pager", baseURL: pagerURL,
            accounts: { TargetUser(userId: "u-\($0)", bearerToken: "secret-\($0)-\($1)") },
            capabilities: [], appId: "app")
        let engine = try ScenarioEngine(
            target: target, mocks: mocks, catalogue: suite.catalogue, profile: HookTestProfile(),
            scenarioTimeout: .seconds(600))
        defer { engine.shutdown() }
        let result = await engine.run(suite.scenarios[0], run: 0)

        let pages = mocks.log.captures(CaptureFilter(mock: PagerMock.id))
        #expect(pages.count == 2)
        let token = try #require(pages.first?.deviceToken)
        #expect(PushChannel.pager.isWellFormed(deviceToken: token))
        // Matched: the first expectPush passed (its kind, host, token and redacted credential held);
        // the second found only the refused page, and says who refused it.
        // (The probe profile's invariant counts the refused page as well: the engine judged it as b-pager's.)
        let failures = result.failures.map { "\($0.requirement ?? "-") \($0.check): \($0.actual)" }
        #expect(result.failures.count == 2, "\(failures)")
        #expect(result.failures.contains { $0.check == "probe invariant" && $0.actual == "1 refused" }, "\(failures)")
        let refusal = try #require(result.failures.first { $0.check.hasPrefix("steps[3] expectPush to b-pager") })
        #expect(refusal.actual.hasPrefix("Pager refused 1 push to b-pager: 410 Gone"), "\(refusal.actual)")
        // Redacted: the token appears in no report text, only its short form.
        let texts =
            result.timeline.flatMap { [$0.summary, $0.detail ?? ""] }
            + result.failures.flatMap {
                [$0.check, $0.expected, $0.actual] + $0.evidence.flatMap { [$0.title, $0.text] }
            }
        #expect(!texts.contains { $0.contains(token) })
        #expect(texts.contains { $0.contains(Redaction.shortToken(token)) })
        #expect(result.timeline.contains { $0.kind == .push && $0.summary.hasPrefix("pager ") })
    }

    /// The provider's endpoint line for `ringcheck mocks` comes from its settings when it says none.
    @Test func anAddedProviderHasAConsoleLine() {
        let settings = MockSettings(
            apnsURL: "", apnsSandboxURL: "", fcmURL: "", oauthTokenURL: "", caFile: "", apnsKeyFile: "", apnsKeyID: "",
            apnsTeamID: "", apnsBundleID: "", fcmServiceAccountFile: "", fcmProjectID: "", controlURL: "")
        var withPager = settings
        withPager.extra = [.init(name: "RINGCHECK_PAGER_URL", value: "http://127.0.0.1:4000")]
        let lines = PagerMock(log: CaptureLog()).consoleLines(withPager)
        #expect(lines.endpoints == ["  RINGCHECK_PAGER_URL http://127.0.0.1:4000"] && lines.credentials.isEmpty)
    }
}
