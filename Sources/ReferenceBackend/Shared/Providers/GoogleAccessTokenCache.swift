import HTTP
import JSON
import Signing
import Synchronization

/// The backend's Google OAuth access token for FCM: exchanged once from a service-account
/// assertion and reused until shortly before it expires, or until FCM answers 401. Concurrent
/// callers share one exchange.
public final class GoogleAccessTokenCache: Sendable {
    /// The scope FCM HTTP v1 needs.
    public static let scope = "https://www.googleapis.com/auth/firebase.messaging"

    private struct State {
        var token: String?
        var expiresAtMs: Int64 = 0
        var exchange: Task<String, any Error>?
        var exchangeCount = 0
    }

    public let account: ServiceAccount
    /// Where assertions are posted.
    public let tokenURL: String
    /// A token this close to its expiry is replaced.
    public let refreshMarginMs: Int64
    private let client: HTTPClient
    private let clock: MillisecondClock
    private let state = Mutex(State())

    public init(
        account: ServiceAccount, tokenURL: String? = nil, client: HTTPClient, refreshMarginMs: Int64 = 5 * 60_000,
        clock: @escaping MillisecondClock = SystemClock.milliseconds
    ) {
        self.account = account
        self.tokenURL = tokenURL ?? account.tokenURI
        self.client = client
        self.refreshMarginMs = refreshMarginMs
        self.clock = clock
    }

    /// A valid access token, exchanging a new assertion when there is none or it is about to expire.
    public func token() async throws -> String {
        let now = clock()
        let task: Task<String, any Error> = state.withLock { state in
            if let token = state.token, now < state.expiresAtMs - refreshMarginMs {
                return Task { token }
            }
            if let running = state.exchange { return running }
            let exchange = Task { try await self.exchange() }
            state.exchange = exchange
            return exchange
        }
        return try await task.value
    }

    /// FCM refused `token` (401): forget it so the next push exchanges a new one.
    public func rejected(_ token: String) {
        state.withLock { state in
            if state.token == token {
                state.token = nil
                state.expiresAtMs = 0
            }
        }
    }

    /// How many exchanges were made so far.
    public var exchangeCount: Int { state.withLock { $0.exchangeCount } }

    private func exchange() async throws -> String {
        defer { state.withLock { $0.exchange = nil } }
        let now = clock()
        let assertion = try account.assertion(scope: Self.scope, issuedAt: Double(now) / 1000)
        let body =
            "grant_type=" + Self.formEncode("urn:ietf:params:oauth:grant-type:jwt-bearer") + "&assertion="
            + Self.formEncode(assertion)
        let response = try await client.send(
            ClientRequest(
                method: "POST", url: tokenURL, headers: ["content-type": "application/x-www-form-urlencoded"],
                body: Array(body.utf8)))
        let json = try? JSONValue.parse(response.body)
        guard response.status == 200, let token = json?["access_token"]?.stringValue, !token.isEmpty else {
            throw GoogleTokenError(status: response.status, body: response.bodyString)
        }
        // Google answers 3599; a lifetime outside 0…1 day is not one (and would overflow in milliseconds).
        let lifetime = json?["expires_in"]?.int64Value.flatMap { (0...86_400).contains($0) ? $0 : nil } ?? 3600
        state.withLock { state in
            state.token = token
            state.expiresAtMs = now + lifetime * 1000
            state.exchangeCount += 1
        }
        return token
    }

    static func formEncode(_ s: String) -> String {
        let hex = Array("0123456789ABCDEF")
        var out = ""
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                out.append(Character(Unicode.Scalar(b)))
            default: out += "%" + String(hex[Int(b >> 4)]) + String(hex[Int(b & 15)])
            }
        }
        return out
    }
}

/// The OAuth token endpoint refused the service account's assertion.
public struct GoogleTokenError: Error, Sendable, CustomStringConvertible {
    public var status: Int
    public var body: String
    public var description: String { "OAuth token exchange failed: HTTP \(status) \(body.prefix(300))" }
}
