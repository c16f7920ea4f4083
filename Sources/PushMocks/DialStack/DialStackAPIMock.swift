import HTTP
import JSON
import Synchronization

/// A mock of DialStack's own REST API, as far as a wake-up backend uses it: `users.update` (to turn Wake-Up Hold,
/// `config.mobile_push_wakeup`, on or off) and `users.retrieve`. It answers 200 with the user object, keeps each
/// user's flag, and records every call in the `CaptureLog` (the capture's detail says which user, account and flag:
/// `DialStackUserUpdate.summary`).
///
/// It is liberal where the seed is silent (the REST shape: `DialStackUserUpdate`) and loose on authentication:
/// any non-empty API key is accepted (`Authorization: Bearer <key>`, `Basic`, `Token`, or an `x-api-key`
/// header), because a backend under test may be configured with a key of its own, and refusing it would make
/// its registrations fail for nothing the seed asks; a request with no key at all gets 401, as any real API
/// would answer it. A body that is not JSON gets 400 naming the parse error.
public final class DialStackAPIMock: HTTPHandler {
    /// The key the mock hands backends (`RINGCHECK_DIALSTACK_API_KEY`); others are accepted too.
    public let apiKey: String
    /// Where every request is recorded.
    public let log: CaptureLog
    /// The fault plans consulted on every request.
    public let faults: FaultPlans?
    /// The time source for timestamps.
    public let clock: MockClock
    /// Each user's `mobile_push_wakeup`, by account and user ID.
    private let flags = Mutex<[String: Bool]>([:])

    /// A mock accepting `apiKey` (and any other), recording into `log`.
    public init(apiKey: String, log: CaptureLog, faults: FaultPlans? = nil, clock: MockClock = .system) {
        self.apiKey = apiKey
        self.log = log
        self.faults = faults
        self.clock = clock
    }

    /// The flag the calls so far left `userId` with (in `account`, nil for none); false when never set.
    public func mobilePushWakeup(userId: String, account: String? = nil) -> Bool {
        flags.withLock { $0[Self.key(userId, account)] ?? false }
    }

    private static func key(_ userId: String, _ account: String?) -> String { (account ?? "") + "\u{0}" + userId }

    /// Judges and answers one request, recording it in the capture log.
    public func handle(_ request: HTTPRequest) async -> HTTPResponse {
        let now = clock()
        var capture = Capture(
            request: request, mock: .dialstack, arrivalMs: request.arrivalMs > 0 ? request.arrivalMs : now)
        capture.secrets.append(CaptureSecret(value: apiKey, replacement: "<redacted>"))
        // A key too short to be a secret ("x") would blot out its letters everywhere in the capture.
        if let key = Self.presentedKey(request.headers), key.count >= 8 {
            capture.secrets.append(CaptureSecret(value: key, replacement: "<redacted>"))
        }
        return await FaultedAnswer.answer(
            capture, fault: faults?.next(mock: .dialstack, deviceToken: nil), log: log,
            injected: { respond, planID in
                let error = DialStackAPIError(
                    respond.status ?? 500, "api_error",
                    respond.message ?? respond.reason ?? "Injected by ringcheck fault \(planID)")
                return MockRefusal(response: error.response, reason: error.type, detail: error.message)
            },
            judge: { (capture: inout Capture) throws(DialStackAPIError) -> HTTPResponse in
                let (update, response) = try answer(request)
                capture.detail = update.summary
                return response
            },
            refused: { MockRefusal(response: $0.response, reason: $0.type, detail: $0.message) })
    }

    /// The user call `request` makes and its answer; throws the API's error answer.
    func answer(_ request: HTTPRequest) throws(DialStackAPIError) -> (DialStackUserUpdate, HTTPResponse) {
        guard let key = Self.presentedKey(request.headers), !key.isEmpty else {
            throw DialStackAPIError(
                401, "authentication_error",
                "no API key: send Authorization: Bearer <key> (the mock's key is RINGCHECK_DIALSTACK_API_KEY)")
        }
        guard
            let update = try DialStackUserUpdate.read(
                method: request.method, target: request.target, headers: request.headers, body: request.body)
        else {
            throw DialStackAPIError(
                404, "invalid_request_error",
                "no route \(request.method) \(request.path): the mock serves users.update (PATCH, POST or PUT "
                    + ".../users/{id}) and users.retrieve (GET .../users/{id})")
        }
        guard update.isUpdate || request.method.uppercased() == "GET" else {
            throw DialStackAPIError(
                405, "invalid_request_error", "\(request.method) is not served on a user: use PATCH, POST, PUT or GET")
        }
        let flag = flags.withLock { flags in
            let k = Self.key(update.userId, update.account)
            if let set = update.mobilePushWakeup { flags[k] = set }
            return flags[k] ?? false
        }
        return (
            update,
            HTTPResponse.json(200, Self.user(update, flag: flag).bytes(), headers: ["content-type": "application/json"])
        )
    }

    /// The user object answered: `{"id", "object": "user", "account", "config": {"mobile_push_wakeup"}}`.
    static func user(_ update: DialStackUserUpdate, flag: Bool) -> JSONValue {
        .object([
            ("id", .string(update.userId)), ("object", .string("user")),
            ("account", update.account.map { .string($0) } ?? .null),
            ("config", .object([("mobile_push_wakeup", .bool(flag))])),
        ])
    }

    /// The API key a request presents: an `Authorization` credential of any scheme, or `x-api-key`.
    static func presentedKey(_ headers: HTTPHeaders) -> String? {
        if let header = headers["authorization"] {
            let trimmed = Substring(header).trimmingSpaces
            guard let space = trimmed.firstIndex(of: " ") else { return trimmed }
            return trimmed[trimmed.index(after: space)...].trimmingSpaces
        }
        return headers["x-api-key"] ?? headers["api-key"]
    }
}
