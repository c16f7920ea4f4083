import Foundation
import HTTP
import JSON
import PushMocks
import ReferenceBackend

/// The mocks on real sockets and the reference backend wired to them, as a user would run them:
/// the backend reads the mocks' `RINGCHECK_*` settings and pushes over TLS; users play through
/// `api` over HTTP.
public final class ReferenceStack: Sendable {
    public let mocks: MockStack
    public let server: ReferenceBackendServer
    public let transport: ProviderPushTransport
    public let api: ReferenceAPIClient

    /// Starts mocks and backend. `tokenClock` drives the provider- and OAuth-token caches (and
    /// `mockOptions.clock` the mocks), so tests can move token time without sleeping.
    public static func start(
        defects: Set<CallxDefect> = [], ringSeconds: Int = 30, database: Database.Location = .inMemory,
        retryPolicy: PushRetryPolicy = PushRetryPolicy(initialBackoffMs: 300, maxBackoffMs: 2_000, idlePollMs: 250),
        mockOptions: MockStack.Options = .forTests,
        tokenClock: @escaping MillisecondClock = SystemClock.milliseconds, logFile: String? = nil,
        apiShape: APIShape = .reference
    ) async throws -> ReferenceStack {
        let mocks = try await MockStack.start(mockOptions)
        do {
            let settings = try PushProviderSettings(environment: mocks.settings.environmentDictionary)
            let transport = try ProviderPushTransport(settings: settings, clock: tokenClock)
            let server = try ReferenceBackendServer(
                options: .init(
                    database: database,
                    configuration: ReferenceBackendConfiguration(
                        ringSeconds: ringSeconds, defects: defects, apiShape: apiShape),
                    retryPolicy: retryPolicy, logFile: logFile),
                transport: transport)
            try server.start()
            return ReferenceStack(
                mocks: mocks, server: server, transport: transport, api: try ReferenceAPIClient(baseURL: server.baseURL)
            )
        } catch {
            await mocks.stop()
            throw error
        }
    }

    private init(
        mocks: MockStack, server: ReferenceBackendServer, transport: ProviderPushTransport, api: ReferenceAPIClient
    ) {
        self.mocks = mocks
        self.server = server
        self.transport = transport
        self.api = api
    }

    public func stop() async {
        await server.stop()
        api.client.shutdown()
        await mocks.stop()
    }

    /// The app ID (bundle ID) the APNs mock expects.
    public var appId: String { mocks.providers.credentials.bundleID }

    // MARK: Captured pushes

    /// Pushes (APNs or FCM) captured for `callId`, oldest first.
    public func pushes(callId: String) -> [Capture] {
        mocks.log.captures { $0.callx?["callId"]?.stringValue == callId }
    }

    /// Waits until `count` pushes for `callId` matching `predicate` were captured; returns what was found.
    public func waitForPushes(
        callId: String, count: Int, timeout: Duration = pushWaitLimit,
        where predicate: @escaping @Sendable (Capture) -> Bool = { _ in true }
    ) async -> [Capture] {
        await mocks.log.waitFor(
            count: count, matching: { $0.callx?["callId"]?.stringValue == callId && predicate($0) }, timeout: timeout)
    }
}

extension MockSettings {
    /// The settings as an environment dictionary.
    public var environmentDictionary: [String: String] {
        Dictionary(environment.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 })
    }
}

extension Capture {
    /// The `callx` object of a captured push: APNs `callx`, or FCM `data.callx` parsed from its string.
    public var callx: JSONValue? {
        if mock == .apns { return json?["callx"] }
        if mock == .fcm, let text = fcm?.data["callx"] ?? json?.value(atPath: "message.data.callx")?.stringValue {
            return try? JSONValue.parse(text)
        }
        return nil
    }

    /// The callx `type` (`call.invited`, `call.ended`, …).
    public var callxType: String? { callx?["type"]?.stringValue }
}
