/// Where the wake-up reference reaches DialStack's own API, to turn Wake-Up Hold on for a user (the seed's
/// "Enabling Wake-Up Hold": `dialstack.users.update(userId, { config: { mobile_push_wakeup: true } },
/// { dialstackAccount: accountId })`, "for example, when they register a device token"). Nil in a
/// configuration: the backend never calls it.
public struct DialStackAPIAccess: Sendable, Equatable {
    /// The API's base URL; `PATCH {baseURL}/v1/users/{userId}` updates a user.
    public var baseURL: String
    /// The secret API key, sent as `Authorization: Bearer <key>`. Never logged.
    public var apiKey: String
    /// The DialStack account the users belong to (`dialstackAccount`), sent as `DialStack-Account`; nil sends none.
    public var accountId: String?
    /// A PEM file of CAs to trust instead of the system store (the mocks' CA).
    public var caFile: String?

    /// The variables `serve-reference --profile dialstack` reads it from: the backend's own names first, then the
    /// mocks' (`RINGCHECK_DIALSTACK_API_URL`, `RINGCHECK_DIALSTACK_API_KEY`, `RINGCHECK_CA_FILE`).
    public enum Variable {
        public static let url = "DIALSTACK_API_URL"
        public static let key = "DIALSTACK_API_KEY"
        public static let account = "DIALSTACK_ACCOUNT_ID"
        public static let mockURL = "RINGCHECK_DIALSTACK_API_URL"
        public static let mockKey = "RINGCHECK_DIALSTACK_API_KEY"
        public static let caFile = "RINGCHECK_CA_FILE"
    }

    /// Creates a value from its parts.
    public init(baseURL: String, apiKey: String, accountId: String? = nil, caFile: String? = nil) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.apiKey = apiKey
        self.accountId = accountId
        self.caFile = caFile
    }

    /// The access `environment` sets up (`DIALSTACK_API_URL`, else `RINGCHECK_DIALSTACK_API_URL`, and the key
    /// likewise); nil when no URL is set: the backend then leaves Wake-Up Hold alone.
    public init?(environment env: [String: String]) {
        func value(_ names: String...) -> String? {
            names.lazy.compactMap { env[$0] }.first { !$0.isEmpty }
        }
        guard let url = value(Variable.url, Variable.mockURL) else { return nil }
        self.init(
            baseURL: url, apiKey: value(Variable.key, Variable.mockKey) ?? "", accountId: value(Variable.account),
            caFile: value(Variable.caFile))
    }

    /// `PATCH {baseURL}/v1/users/{userId}`.
    public func userURL(_ userId: String) -> String {
        baseURL + "/v1/users/" + percentEncodedPathSegment(userId)
    }

    private func percentEncodedPathSegment(_ s: String) -> String {
        var out = ""
        for byte in s.utf8 {
            let c = Character(Unicode.Scalar(byte))
            if c.isASCII, c.isLetter || c.isNumber || "-._~".contains(c) {
                out.append(c)
            } else {
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return out
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
