import Conformance
import JSON

/// No secrets in pushes (seed section "Security checklist").
///
/// | finding | requirement |
/// |---|---|
/// | a media credential the backend issued in this scenario (a value from the context) | CALLX-SEC-1 (MUST) |
/// | a provider secret from the context, or PEM private-key text | CALLX-SEC-2 |
/// | a credential-looking field (`token`, `*Token`, `password`, `credential`, `iceServers`, `secret`) or a `turn:`/`turns:` URL in the payload | CALLX-SEC-1, reported as SHOULD: a heuristic of ours |
///
/// The payload searched is the whole APNs body, and for FCM the message's `data` and `android.data`
/// values (decoded when they hold JSON); `message.token` is the FCM target, not a credential. CALLX-SEC-1 has two
/// rules, the known values and the heuristic, because the heuristic is reported at another level and after
/// CALLX-SEC-2.
enum SecretRules {
    typealias R = CallxRequirement
    typealias PushRule = Rule<CallxPushSubject>

    /// The rules, in the order their findings are reported.
    static let all: [PushRule] = [mediaCredentials, providerSecrets, credentialLookingFields]

    /// The distinct `values` of at least `bytes` UTF-8 bytes that the push carries: in its body as sent or in a
    /// payload part.
    static func known(_ values: [String], atLeast bytes: Int, in s: CallxPushSubject) -> [String] {
        Set(values).filter { value in
            value.utf8.count >= bytes && s.searchedTexts.contains { $0.containsBytes(of: value) }
        }
    }

    /// CALLX-SEC-1: no media credential the backend issued in this scenario.
    static let mediaCredentials = PushRule(R.noMediaCredentials) { s, found in
        for credential in known(s.context.mediaCredentials, atLeast: 4, in: s) {
            found.add(
                "body", expected: "no media credentials in a push",
                actual: "a media credential issued in this scenario (\(SecretScan.redacted(credential)))")
        }
    }

    /// CALLX-SEC-2: no provider secret, and no PEM private key.
    static let providerSecrets = PushRule(R.noProviderSecrets) { s, found in
        for secret in known(s.context.providerSecrets, atLeast: 8, in: s) {
            found.add(
                "body", expected: "no provider secrets in a push",
                actual: "a provider secret (\(SecretScan.redacted(secret)))")
        }
        if s.push.bodyText.containsBytes(of: "PRIVATE KEY") {
            found.add("body", expected: "no provider secrets in a push", actual: "PEM private-key text")
        }
    }

    /// CALLX-SEC-1, by our heuristic (at most SHOULD): fields named like credentials, and TURN URLs.
    static let credentialLookingFields = PushRule(R.noMediaCredentials) { s, found in
        for (path, value) in s.payloads {
            for finding in SecretScan.suspiciousFields(value, at: path) {
                found.add(
                    finding.path, expected: "no media credentials in a push", actual: finding.what, level: .should)
            }
        }
    }
}
