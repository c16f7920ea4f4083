import Foundation
import Signing

extension TargetFileDecoder {
    /// `webhook: {path: /…, secret: S | ${NAME}}` or `{path, secretEnv: NAME}`: where the backend takes signed
    /// webhooks and the secret both sides sign with. `${NAME}` is read from ringcheck's environment now;
    /// `secretEnv` makes ringcheck generate a secret and give it to the backend it starts as that variable.
    mutating func decodeWebhook(_ entry: YAMLMapEntry?, into file: inout TargetFile, root: YAMLNode) {
        let needsOne = file.profile == DialStackProfile.profileName
        guard let entry else {
            if needsOne {
                d.error(
                    root.mark, "webhook",
                    "a \(DialStackProfile.profileName) target needs webhook: {path: /…, secret: … or secretEnv: NAME} (where it receives signed webhooks)"
                )
            }
            return
        }
        guard
            let f = d.mapping(entry.value, "webhook", known: ["path", "secret", "secretEnv"], required: ["path"])
        else { return }
        let path = f["path"].flatMap { d.nonEmptyString($0.value, "webhook.path") }
        if let path, !path.hasPrefix("/"), let e = f["path"] {
            d.error(e.value.mark, "webhook.path", "'\(path)' is not a path under baseURL (/…)")
        }
        var secret: String?
        switch (f["secret"], f["secretEnv"]) {
        case (let e?, nil):
            secret = d.nonEmptyString(e.value, "webhook.secret").flatMap { expandSecret($0, mark: e.value.mark) }
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
            file.webhookSecretVariable = name
            secret = generated
        case (_?, _?):
            d.error(f["secretEnv"]!.keyMark, "webhook", "give either 'secret' or 'secretEnv', not both")
        case (nil, nil):
            d.error(entry.value.mark, "webhook", "missing 'secret' (or 'secretEnv: NAME' for ringcheck to make one)")
        }
        guard let path, let secret else { return }
        file.webhook = WebhookEndpoint(path: path, secret: secret)
    }

    /// A literal secret, or `${NAME}` read from ringcheck's environment (an unset or empty one is an error).
    mutating func expandSecret(_ text: String, mark: YAMLMark) -> String? {
        guard text.hasPrefix("${"), text.hasSuffix("}") else { return text }
        let name = String(text.dropFirst(2).dropLast())
        guard Self.isVariableName(name) else {
            d.error(mark, "webhook.secret", "'\(text)' is not ${NAME} with an environment variable name")
            return nil
        }
        guard let value = ProcessInfo.processInfo.environment[name], !value.isEmpty else {
            d.error(mark, "webhook.secret", "\(name) is not set in ringcheck's environment (webhook.secret: \(text))")
            return nil
        }
        return value
    }

    /// `dialstackUserId:` (any profile's user ID) only in a file written for that profile.
    mutating func checkProfileUserIds(_ users: YAMLNode?, _ file: TargetFile) {
        guard let users else { return }
        for entry in users.entries ?? [] {
            let accounts = entry.value.items ?? [entry.value]
            for (i, account) in accounts.enumerated() {
                for field in account.entries ?? [] {
                    guard let profile = Self.profileUserIdKeys.first(where: { $0.key == field.key })?.profile,
                        file.profile != profile
                    else { continue }
                    let path = "users.\(entry.key)" + (entry.value.items == nil ? "" : "[\(i)]")
                    d.error(field.keyMark, path, "'\(field.key)' applies to a target file with profile: \(profile)")
                }
            }
        }
    }

    static func isVariableName(_ s: String) -> Bool {
        guard let first = s.first, first == "_" || (first.isASCII && first.isLetter) else { return false }
        return s.allSatisfy { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
    }
}
