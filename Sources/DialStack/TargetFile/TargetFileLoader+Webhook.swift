import Conformance
import Foundation
import Signing

extension TargetFileDecoder {
    /// `webhook: {path: /…, secret: S | ${NAME}}` or `{path, secretEnv: NAME}`: where the backend takes signed
    /// webhooks and the secret both sides sign with. `${NAME}` is read from ringcheck's environment now;
    /// `secretEnv` makes ringcheck generate a secret and give it to the backend it starts as that variable.
    /// `answerTimeout` (a duration, at least the 15 s latency bound; default 45s) is how long ringcheck waits for
    /// each webhook's answer; `accountId` (default `acct_ringcheck`) the events' `account_id`.
    mutating func decodeWebhook(_ entry: YAMLMapEntry?, into file: inout TargetFile, root: YAMLNode)
        -> DialStackTargetConfiguration?
    {
        let needsOne = file.profile == DialStackProfile.profileName
        guard let entry else {
            if needsOne {
                d.error(
                    root.mark, "webhook",
                    "a \(DialStackProfile.profileName) target needs webhook: {path: /…, secret: … or secretEnv: NAME} (where it receives signed webhooks)"
                )
            }
            return nil
        }
        guard
            let f = d.mapping(
                entry.value, "webhook", known: ["path", "secret", "secretEnv", "answerTimeout", "accountId"],
                required: ["path"])
        else { return nil }
        let path = f["path"].flatMap { d.nonEmptyString($0.value, "webhook.path") }
        if let path, !path.hasPrefix("/"), let e = f["path"] {
            d.error(e.value.mark, "webhook.path", "'\(path)' is not a path under baseURL (/…)")
        }
        var secret: String?
        var secretVariable: String?
        switch (f["secret"], f["secretEnv"]) {
        case (let e?, nil):
            secret = d.nonEmptyString(e.value, "webhook.secret").flatMap {
                expandSecret($0, mark: e.value.mark, field: "webhook.secret")
            }
        case (nil, let e?):
            guard let name = d.nonEmptyString(e.value, "webhook.secretEnv") else { break }
            if !Self.isVariableName(name) {
                d.error(e.value.mark, "webhook.secretEnv", "'\(name)' is not an environment variable name")
                break
            }
            guard var lifecycle = file.lifecycle, lifecycle.start != nil else {
                d.error(
                    e.keyMark, "webhook",
                    "'secretEnv' needs lifecycle.start: ringcheck hands the secret it generates to the backend it starts (give 'secret' for a backend started otherwise)"
                )
                break
            }
            if lifecycle.environment[name] != nil {
                d.error(e.value.mark, "webhook.secretEnv", "lifecycle.environment already sets \(name)")
                break
            }
            let generated = "whsec_" + SecureRandom.alphanumeric(32, uppercaseOnly: false)
            lifecycle.environment[name] = generated
            file.lifecycle = lifecycle
            secretVariable = name
            secret = generated
        case (_?, _?):
            d.error(f["secretEnv"]!.keyMark, "webhook", "give either 'secret' or 'secretEnv', not both")
        case (nil, nil):
            d.error(entry.value.mark, "webhook", "missing 'secret' (or 'secretEnv: NAME' for ringcheck to make one)")
        }
        var answerTimeoutSeconds = DialStackTiming.webhookAnswerTimeoutSeconds
        if let e = f["answerTimeout"], let timeout = d.duration(e.value, "webhook.answerTimeout") {
            let boundSeconds = Double(DialStackTiming.latencyBoundMs) / 1000
            if Double(timeout.milliseconds) / 1000 < boundSeconds {
                d.error(
                    e.value.mark, "webhook.answerTimeout",
                    "\(e.value.scalarText ?? "?") is shorter than the \(Int(boundSeconds)) s latency bound: a backend that answers after its pushes would read as a harness error, not a late push (DIALSTACK-LAT-1)"
                )
            } else {
                answerTimeoutSeconds = Double(timeout.milliseconds) / 1000
            }
        }
        let accountId = f["accountId"].flatMap { d.nonEmptyString($0.value, "webhook.accountId") }
        guard let path, let secret, f["accountId"] == nil || accountId != nil else { return nil }
        return DialStackTargetConfiguration(
            webhook: WebhookEndpoint(
                path: path, secret: secret, answerTimeoutSeconds: answerTimeoutSeconds,
                accountId: accountId ?? DialStackEvent.defaultAccountId),
            secretVariable: secretVariable)
    }
}
