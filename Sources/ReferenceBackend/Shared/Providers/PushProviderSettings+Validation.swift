import Foundation

// MARK: - Checking the settings before the first push

extension PushProviderSettings {
    /// The settings this process's `RINGCHECK_*` variables give, checked: a `PushProviderSettingsError` when
    /// they cannot be read, `PushProviderSettingsProblems` naming each one that cannot work.
    public static func fromEnvironment() throws -> PushProviderSettings {
        let settings = try PushProviderSettings(environment: ProcessInfo.processInfo.environment)
        let problems = settings.problems()
        guard problems.isEmpty else { throw PushProviderSettingsProblems(problems: problems) }
        return settings
    }

    /// Every setting that cannot work, each naming its variable and value: a URL that is not an
    /// http(s) URL with a host, a CA file that cannot be read or holds no certificate, a key or
    /// service-account file that cannot be read. A backend started with any of these would fail
    /// every push it sends, so it refuses to start instead.
    public func problems() -> [String] {
        var out: [String] = []
        var urls = [
            ("RINGCHECK_APNS_URL", apnsURL), ("RINGCHECK_APNS_SANDBOX_URL", apnsSandboxURL),
            ("RINGCHECK_FCM_URL", fcmURL),
        ]
        if let oauthTokenURL { urls.append(("RINGCHECK_OAUTH_TOKEN_URL", oauthTokenURL)) }
        for (name, value) in urls where !Self.isHTTPURL(value) {
            out.append("\(name)=\(value): not an http:// or https:// URL with a host (such as https://127.0.0.1:8443)")
        }
        if let caFile {
            do {
                if !(try TextFile.read(caFile)).contains("-----BEGIN CERTIFICATE-----") {
                    out.append("RINGCHECK_CA_FILE=\(caFile): holds no PEM certificate")
                }
            } catch {
                out.append("RINGCHECK_CA_FILE=\(error)")
            }
        }
        for (name, path) in [
            ("RINGCHECK_APNS_KEY_FILE", apnsKeyFile), ("RINGCHECK_FCM_SERVICE_ACCOUNT", fcmServiceAccountFile),
        ] {
            do { _ = try TextFile.bytes(path) } catch { out.append("\(name)=\(error)") }
        }
        return out
    }

    /// `http://` or `https://`, then a host (optionally `:port`), then an optional path; no spaces.
    static func isHTTPURL(_ text: String) -> Bool {
        let rest: Substring
        if text.hasPrefix("https://") {
            rest = text.dropFirst("https://".count)
        } else if text.hasPrefix("http://") {
            rest = text.dropFirst("http://".count)
        } else {
            return false
        }
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let host = authority.hasPrefix("[") ? authority : authority.prefix { $0 != ":" }
        guard !host.isEmpty, !text.contains(where: { $0 == " " || $0.isNewline }) else { return false }
        if let colon = authority.lastIndex(of: ":"), !authority.hasSuffix("]") {
            guard let port = Int(authority[authority.index(after: colon)...]), (1...65535).contains(port) else {
                return false
            }
        }
        return true
    }
}

/// Push settings that are set but cannot work: the backend refuses to start (exit 2) naming each.
public struct PushProviderSettingsProblems: Error, Sendable, CustomStringConvertible {
    public var problems: [String]

    public init(problems: [String]) { self.problems = problems }

    public var description: String {
        "the push settings cannot work, so every push would fail:\n"
            + problems.map { "  " + $0 }.joined(separator: "\n")
    }
}
