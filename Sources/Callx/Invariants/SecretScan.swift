import Conformance
import JSON

/// Where the secret rules (`SecretRules`) look in a push, and what they flag by name.
enum SecretScan {
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
        default:
            return [("", body)]
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
                if exactKeys.contains(lower) || lower.hasSuffix("token")
                    || keyFragments.contains(where: lower.containsBytes)
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
