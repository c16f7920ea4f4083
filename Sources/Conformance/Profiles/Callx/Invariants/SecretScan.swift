import JSON

/// No secrets in pushes (seed section "Security checklist").
///
/// | finding | requirement |
/// |---|---|
/// | a media credential the backend issued in this scenario (a value from the context) | CALLX-SEC-1 (MUST) |
/// | a credential-looking field (`token`, `*Token`, `password`, `credential`, `iceServers`, `secret`) or a `turn:`/`turns:` URL in the payload | CALLX-SEC-1, reported as SHOULD: a heuristic of ours |
/// | a provider secret from the context, or PEM private-key text | CALLX-SEC-2 |
///
/// The payload searched is the whole APNs body, and for FCM the message's `data` and `android.data`
/// values (decoded when they hold JSON); `message.token` is the FCM target, not a credential.
enum SecretScan {
    static func check(_ push: PushDocument, context: InvariantContext, into r: inout ViolationRecorder) {
        let payloads = payloads(of: push)
        let texts = [push.bodyText] + payloads.map { $0.value.serialized() }
        // MARK: Known values
        for credential in Set(context.mediaCredentials) where credential.utf8.count >= 4 {
            if texts.contains(where: { $0.contains(credential) }) {
                r.add(
                    "CALLX-SEC-1", "body", expected: "no media credentials in a push",
                    actual: "a media credential issued in this scenario (\(redacted(credential)))")
            }
        }
        for secret in Set(context.providerSecrets) where secret.utf8.count >= 8 {
            if texts.contains(where: { $0.contains(secret) }) {
                r.add(
                    "CALLX-SEC-2", "body", expected: "no provider secrets in a push",
                    actual: "a provider secret (\(redacted(secret)))")
            }
        }
        if push.bodyText.contains("PRIVATE KEY") {
            r.add("CALLX-SEC-2", "body", expected: "no provider secrets in a push", actual: "PEM private-key text")
        }
        // MARK: Fields that look like credentials
        for (path, value) in payloads {
            for finding in suspiciousFields(value, at: path) {
                r.add(
                    "CALLX-SEC-1", finding.path, expected: "no media credentials in a push", actual: finding.what,
                    heuristic: true)
            }
        }
    }

    /// The parts of the push that carry the app's payload, with their paths.
    static func payloads(of push: PushDocument) -> [(path: String, value: JSONValue)] {
        guard let body = push.body else { return [] }
        switch push.kind {
        case .apns:
            return [("", body)]
        case .fcm:
            var out: [(String, JSONValue)] = []
            for (prefix, map) in [
                ("message.data", push.message?["data"]), ("message.android.data", push.message?["android"]?["data"]),
            ] {
                guard case .object(let members)? = map else { continue }
                for (key, value) in members {
                    let decoded = value.stringValue.flatMap { try? JSONValue.parse($0) }
                    if let decoded, case .object = decoded {
                        out.append((prefix + "." + key + "→", decoded))
                    } else {
                        out.append((prefix, .object([(key, value)])))
                    }
                }
            }
            return out
        }
    }

    static let exactKeys: Set<String> = ["token", "iceservers", "username"]
    static let keyFragments = ["password", "credential", "secret", "iceserver"]

    /// Fields named like credentials, and TURN URLs, anywhere in `value`.
    static func suspiciousFields(_ value: JSONValue, at path: String) -> [(path: String, what: String)] {
        func join(_ key: String) -> String { path.isEmpty || path.hasSuffix("→") ? path + key : path + "." + key }
        switch value {
        case .object(let members):
            var out: [(String, String)] = []
            for (key, member) in members {
                let lower = key.lowercased()
                if exactKeys.contains(lower) || lower.hasSuffix("token") || keyFragments.contains(where: lower.contains)
                {
                    out.append((join(key), "a field named \(key)"))
                }
                out += suspiciousFields(member, at: join(key))
            }
            return out
        case .array(let items):
            return items.enumerated().flatMap { suspiciousFields($0.element, at: join(String($0.offset))) }
        case .string(let s):
            let lower = s.lowercased()
            return lower.hasPrefix("turn:") || lower.hasPrefix("turns:") ? [(path, "a TURN URL")] : []
        default:
            return []
        }
    }

    /// The first and last two characters, so a report shows which value without repeating it.
    static func redacted(_ s: String) -> String {
        s.count <= 6 ? "…" : String(s.prefix(2)) + "…" + String(s.suffix(2))
    }
}
