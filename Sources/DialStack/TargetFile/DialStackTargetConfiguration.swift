import Conformance

/// The dialstack profile's part of a target file: where the backend receives DialStack's signed webhooks
/// (`webhook:`).
struct DialStackTargetConfiguration: ProfileConfiguration {
    var webhook: WebhookEndpoint
    /// With `webhook.secretEnv`: the variable of the backend's lifecycle environment that carries the secret
    /// ringcheck generated.
    var secretVariable: String? = nil

    /// The signing secret: reports redact it.
    var secrets: [String] { [webhook.secret] }
}

/// A backend's webhook receiver: the path ringcheck posts signed events to and the shared signing secret.
public struct WebhookEndpoint: Sendable, Equatable {
    /// Path under the target's base URL, e.g. `/webhooks/dialstack`.
    public var path: String
    /// The secret both sides sign with (a secret: reports redact it).
    public var secret: String
    /// How long ringcheck waits for the webhook's answer (`webhook.answerTimeout`): longer than the seed's 30 s
    /// budget, so a backend that answers only after its pushes, however slowly, has its latency judged
    /// (DIALSTACK-LAT-1) instead of the run stopping on a harness error.
    public var answerTimeoutSeconds: Double
    /// The `account_id` of the events ringcheck sends (`webhook.accountId`), for a backend that acts only on its own
    /// DialStack account's events.
    public var accountId: String
    /// The `account_id` ringcheck's events carry when the target file gives none.
    public static let defaultAccountId = "acct_ringcheck"

    public init(
        path: String, secret: String, answerTimeoutSeconds: Double = DialStackTiming.webhookAnswerTimeoutSeconds,
        accountId: String = defaultAccountId
    ) {
        self.path = path
        self.secret = secret
        self.answerTimeoutSeconds = answerTimeoutSeconds
        self.accountId = accountId
    }
}

extension Target {
    /// Where the backend receives signed webhooks a profile sends (the `dialstack` profile's
    /// `call.mobile_push_wakeup`); nil when the target takes none.
    public var webhook: WebhookEndpoint? {
        get { profileConfiguration[DialStackTargetConfiguration.self]?.webhook }
        set { profileConfiguration[DialStackTargetConfiguration.self] = newValue.map { .init(webhook: $0) } }
    }
}

extension TargetFile {
    /// Where the backend receives signed webhooks (`webhook:`), with the secret both sides sign with.
    public var webhook: WebhookEndpoint? { profileConfiguration[DialStackTargetConfiguration.self]?.webhook }
    /// With `webhook.secretEnv`: the variable of the backend's lifecycle environment that carries the secret
    /// ringcheck generated (the secret itself is in `webhook` and in `lifecycle.environment`).
    public var webhookSecretVariable: String? {
        profileConfiguration[DialStackTargetConfiguration.self]?.secretVariable
    }
}
