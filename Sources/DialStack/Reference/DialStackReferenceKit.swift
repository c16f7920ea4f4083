import Conformance
import Foundation
import PushMocks
import ReferenceBackend
import Signing

/// The dialstack reference: a customer backend of DialStack's `call.mobile_push_wakeup` webhook.
/// `serve-reference dialstack` takes its signing secret from `DIALSTACK_WEBHOOK_SECRET` (or
/// `--webhook-secret`); the embedded one gets a random secret, given to both it and `Target.webhook`.
package struct DialStackReferenceKit: ReferenceKit {
    package typealias Defect = DialStackDefect

    package init() {}

    /// Where the webhook signing secret comes from when `--webhook-secret` is not given.
    package static let secretVariable = "DIALSTACK_WEBHOOK_SECRET"

    package var profile: any Profile { DialStackProfile() }
    package let title = "the wake-up reference backend"
    package let helpIntro = """
        PROFILE dialstack (--profile dialstack): a customer backend of DialStack's wake-up webhook.
        POST /webhooks/dialstack takes signed events (x-dialstack-signature: t=…,v1=…, HMAC-SHA256 of
        "<t>.<raw body>" with the secret from \(secretVariable) or --webhook-secret); a
        call.mobile_push_wakeup wakes every device its data.user_id registered, through
        PUT|DELETE /v1/installations/{id}/push-tokens/{apnsVoip|fcm} as for callx. With DialStack's API set
        (DIALSTACK_API_URL and DIALSTACK_API_KEY, else the mocks' RINGCHECK_DIALSTACK_API_URL and _KEY;
        DIALSTACK_ACCOUNT_ID optional), each registration first enables the user's Wake-Up Hold there
        (PATCH /v1/users/{id} {"config": {"mobile_push_wakeup": true}}) and fails with 502 when it cannot.
        """
    package let summary = "the wake-up webhook backend"
    package let serveOptions: [ProfileOptionRow] = [
        .users, .log,
        .value(
            "webhook-secret", "SECRET",
            help: "the webhook signing secret (prefer \(secretVariable): argv is visible)",
            default: "$\(secretVariable)"),
        .value(
            "call-id-key", "KEY",
            help: "the key the pushes carry the webhook's call_id under (the app's call library's, e.g. id)",
            default: "call_id"),
    ]
    package let serveExamples = [
        "\(secretVariable)=whsec_… ringcheck serve-reference --profile dialstack --port 0"
    ]
    /// `serve-reference dialstack` as a child process with its built-in users (user-a, user-b, user-c): ringcheck
    /// generates the webhook secret into its environment.
    package let processTargetFile: String? = """
        profile: dialstack
        name: wake-up reference backend (child process)
        baseURL: http://127.0.0.1:${RINGCHECK_BACKEND_PORT}
        capabilities: [faults, sandbox]
        webhook: {path: /webhooks/dialstack, secretEnv: DIALSTACK_WEBHOOK_SECRET}
        users:
          a: {userId: user-a, auth: {bearer: token-user-a}}
          b: {userId: user-b, auth: {bearer: token-user-b}}
          c: {userId: user-c, auth: {bearer: token-user-c}}
        lifecycle:
          start: ["${RINGCHECK_EXECUTABLE}", serve-reference, --profile, dialstack, --port, "${RINGCHECK_BACKEND_PORT}", --quiet{DEFECTS}]
          ready: {url: "http://127.0.0.1:${RINGCHECK_BACKEND_PORT}/webhooks/dialstack"}
        """

    package func serving(_ arguments: any ReferenceArguments, defects: Set<DialStackDefect>) throws
        -> any ServedReference
    {
        try serving(arguments, defects: defects, environment: ProcessInfo.processInfo.environment)
    }

    package func serving(
        _ arguments: any ReferenceArguments, defects: Set<DialStackDefect>, environment: [String: String]
    ) throws -> ServedDialStack {
        let secret: String
        let secretSource: String
        if let given = arguments.value("webhook-secret"), !given.isEmpty {
            secret = given
            secretSource = "--webhook-secret"
        } else if let set = environment[Self.secretVariable], !set.isEmpty {
            secret = set
            secretSource = Self.secretVariable
        } else {
            throw ConfigurationError(
                message:
                    "--profile dialstack verifies DialStack's webhook signatures and needs the signing secret (the one "
                    + "DialStack returned when the webhook endpoint was created): set \(Self.secretVariable), or pass "
                    + "--webhook-secret SECRET")
        }
        let callIdKey = arguments.value("call-id-key") ?? "call_id"
        if callIdKey.isEmpty {
            throw ConfigurationError(message: "--call-id-key: give the key the pushes carry the call ID under")
        }
        var options = DialStackServer.Options(
            configuration: DialStackConfiguration(
                webhookSecret: secret, defects: defects, callIdKey: callIdKey,
                dialStackAPI: DialStackAPIAccess(environment: environment)))
        options.host = arguments.value("host") ?? "127.0.0.1"
        options.port = try arguments.int("port") ?? 8080
        if let path = arguments.value("users") {
            options.users = try ConfigurationError.reporting("--users: ") { try UserDirectory.load(path: path) }
        }
        options.logFile = arguments.value("log")
        return ServedDialStack(options: options, secretSource: secretSource)
    }

    /// Mocks and backend with accounts for `start.runs` runs of `start.userNames` (`u<run>-<name>`, bearer
    /// `token-u<run>-<name>`); tokens live in the backend's memory.
    package func startEmbedded(_ start: EmbeddedStart, defects: Set<DialStackDefect>, cleanup: any CleanupRegistry)
        async throws -> EmbeddedReference
    {
        let users = EmbeddedReference.users(
            runs: start.runs, userNames: start.userNames, handlePrefix: "dialstack", BackendUser.init)
        let mocks = try await MockStack.start()
        await cleanup.add { await mocks.stop() }
        let appId = mocks.providers.credentials.bundleID
        let providers = mocks.settings.providerSettings(bundleID: appId)
        let secret = "whsec_" + SecureRandom.alphanumeric(32, uppercaseOnly: false)
        // Wake-Up Hold through the mock DialStack API, as the seed advises, on every registration.
        let settings = Dictionary(
            mocks.settings.environment.map { ($0.name, $0.value) }, uniquingKeysWith: { a, _ in a })
        let api = DialStackAPIAccess(environment: settings).map {
            var access = $0
            access.accountId = WebhookEndpoint.defaultAccountId
            return access
        }
        let configuration = DialStackConfiguration(webhookSecret: secret, defects: defects, dialStackAPI: api)
        let backend = try DialStackServer(
            options: .init(
                configuration: configuration, users: UserDirectory(users),
                retryPolicy: PushRetryPolicy(initialBackoffMs: 300, maxBackoffMs: 2_000)),
            providers: providers)
        await cleanup.add { await backend.stop() }
        try backend.start()
        var target = Target(
            name: EmbeddedReference.name("embedded wake-up reference backend", defects: defects),
            baseURL: backend.baseURL, accounts: { EmbeddedReference.account($0, run: $1) },
            capabilities: [.faults, .sandbox], appId: appId)
        target.webhook = WebhookEndpoint(path: configuration.webhookPath, secret: secret)
        return EmbeddedReference(mocks: mocks, target: target)
    }
}

/// `serve-reference dialstack`: the wake-up backend with the push settings from `RINGCHECK_*`.
package struct ServedDialStack: ServedReference {
    package var options: DialStackServer.Options
    /// Where the secret came from, for the summary (never the secret itself).
    package var secretSource: String

    package var host: String { options.host }
    package var port: Int { options.port }

    package func start() async throws -> RunningReference {
        let providers = try ConfigurationError.reporting { try PushProviderSettings.fromEnvironment() }
        let server = try DialStackServer(options: options, providers: providers)
        try server.start()
        return RunningReference(banner: summary(server, providers), stop: { await server.stop() })
    }

    /// Where Wake-Up Hold is enabled, or that it is not (the key is never shown).
    var dialStackLine: String {
        guard let api = options.configuration.dialStackAPI else {
            return "no API set (DIALSTACK_API_URL): Wake-Up Hold is left alone"
        }
        return "\(api.baseURL): users.update on each registration"
            + (api.accountId.map { ", account \($0)" } ?? "")
    }

    package func summary(_ server: DialStackServer, _ providers: PushProviderSettings) -> String {
        """
        ringcheck serve-reference: listening on \(server.baseURL)
          profile      dialstack (wake-up webhook backend)
          webhook      POST \(server.webhookURL), secret from \(secretSource)
          users        \(options.users.users.map { "\($0.userId) (Bearer \($0.bearerToken))" }.joined(separator: ", "))
          APNs         \(providers.apnsURL) (production), \(providers.apnsSandboxURL) (sandbox), topic \(providers.apnsVoIPTopic)
          FCM          \(providers.fcmURL)
          DialStack    \(dialStackLine)
          defects      \(ServedReferenceText.defectsLine(options.configuration.defects))
        Press Ctrl-C to stop.
        """
    }
}

/// DialStack brings its reference: the customer backend of its wake-up webhook.
extension DialStackProfile: ReferenceKitProvider {
    package var referenceKit: any ReferenceKit { DialStackReferenceKit() }
}

/// The engine's view of the defect switches (`ReferenceKitDefect` asks what `ReferenceDefect` has).
extension DialStackDefect: ReferenceKitDefect {}
