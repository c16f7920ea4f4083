import HTTP
import JSON
import Synchronization

@testable import ReferenceBackend

/// A clock tests move by hand.
final class TestClock: Sendable {
    private let current: Mutex<Int64>

    init(_ start: Int64 = 1_790_000_000_000) { current = Mutex(start) }

    var now: Int64 { current.withLock { $0 } }
    func advance(ms: Int64) { current.withLock { $0 += ms } }
    var closure: MillisecondClock { { [self] in self.now } }
}

/// A reply from the API, parsed.
struct Reply {
    var status: Int
    var json: JSONValue
    var body: [UInt8]

    subscript(path: String) -> JSONValue? { json.value(atPath: path) }
    var errorCode: String? { json.value(atPath: "error.code")?.stringValue }
}

/// A reference backend on an in-memory (or file) database with a test clock, driven through `CallxAPI.handle`.
struct BackendHarness {
    let clock: TestClock
    let store: CallStore
    let api: CallxAPI

    init(
        defects: Set<CallxDefect> = [], ringSeconds: Int = 30, eventRetention: Int = 1_000,
        location: Database.Location = .inMemory, clock: TestClock = TestClock()
    ) throws {
        self.clock = clock
        store = try CallStore(location)
        api = CallxAPI(
            store: store,
            configuration: ReferenceBackendConfiguration(
                ringSeconds: ringSeconds, eventRetention: eventRetention, defects: defects),
            clock: clock.closure)
    }

    var service: CallService { api.service }

    // MARK: Raw requests

    /// `as` a built-in test user (its `token-<user>`), or with `bearer` as the token.
    func request(
        _ method: String, _ target: String, as user: String? = nil, bearer: String? = nil, body: JSONValue? = nil
    ) async -> Reply {
        var headers = HTTPHeaders()
        if let token = bearer ?? user.map({ "token-\($0)" }) { headers.add("authorization", "Bearer \(token)") }
        let bytes = body.map { $0.bytes() } ?? []
        if body != nil { headers.add("content-type", "application/json") }
        let response = await api.handle(HTTPRequest(method: method, target: target, headers: headers, body: bytes))
        let json = response.body.isEmpty ? JSONValue.null : ((try? JSONValue.parse(response.body)) ?? .null)
        return Reply(status: response.status, json: json, body: response.body)
    }

    // MARK: Common steps

    @discardableResult
    func register(
        _ user: String, installation: String, kind: PushKind = .apnsVoip, token: String? = nil,
        environment: String = "sandbox", appId: String = "com.example.calls"
    ) async -> Reply {
        var body: JSONValue = [
            "token": .string(token ?? "tok-\(installation)-\(kind.rawValue)"), "appId": .string(appId),
        ]
        if kind == .apnsVoip { body = body.setting("apnsEnvironment", to: .string(environment)) }
        return await request(
            "PUT", "/v1/installations/\(installation)/push-tokens/\(kind.rawValue)", as: user, body: body)
    }

    @discardableResult
    func create(
        _ callId: String = RandomIdentifier.uuid(), as user: String = "user-a", callee: String = "user-b",
        operationId: String? = nil, extra: [(String, JSONValue)] = []
    ) async -> Reply {
        var body: JSONValue = [
            "callId": .string(callId), "calleeUserId": .string(callee),
            "operationId": .string(operationId ?? "op-create-\(callId)"),
        ]
        for (key, value) in extra { body = body.setting(key, to: value) }
        return await request("POST", "/v1/calls", as: user, body: body)
    }

    @discardableResult
    func answer(
        _ callId: String, as user: String = "user-b", installation: String, operationId: String? = nil,
        expectedRevision: String? = nil
    ) async -> Reply {
        var body: JSONValue = [
            "operationId": .string(operationId ?? "op-answer-\(installation)-\(callId)"),
            "installationId": .string(installation),
        ]
        if let expectedRevision { body = body.setting("expectedRevision", to: .string(expectedRevision)) }
        return await request("POST", "/v1/calls/\(callId)/answer", as: user, body: body)
    }

    @discardableResult
    func end(
        _ callId: String, as user: String, reason: String, installation: String? = nil, operationId: String? = nil
    ) async -> Reply {
        var body: JSONValue = [
            "operationId": .string(operationId ?? "op-end-\(user)-\(callId)"), "reason": .string(reason),
        ]
        if let installation { body = body.setting("installationId", to: .string(installation)) }
        return await request("POST", "/v1/calls/\(callId)/end", as: user, body: body)
    }

    func get(_ callId: String, as user: String) async -> Reply {
        await request("GET", "/v1/calls/\(callId)", as: user)
    }

    func events(_ user: String, installation: String, cursor: String? = nil, limit: Int? = nil) async -> Reply {
        var target = "/v1/call-events?installationId=\(installation)"
        if let cursor { target += "&cursor=\(cursor)" }
        if let limit { target += "&limit=\(limit)" }
        return await request("GET", target, as: user)
    }

    /// Every event this installation can read now, following cursors from the start.
    func allEvents(_ user: String, installation: String) async -> [JSONValue] {
        var cursor: String?
        var all: [JSONValue] = []
        while true {
            let page = await events(user, installation: installation, cursor: cursor, limit: 2)
            let items = page["events"]?.arrayValue ?? []
            all += items
            cursor = page["nextCursor"]?.stringValue
            if items.isEmpty { return all }
        }
    }

    func jobs(_ callId: String) throws -> [PushJob] {
        try store.transaction { tx in try tx.jobs(callId: callId) }
    }

    func registrations(_ user: String) throws -> [PushRegistration] {
        try store.transaction { tx in try tx.registrations(ofUser: user) }
    }
}

/// A push transport that records requests and answers from a script.
final class FakeTransport: PushTransport {
    private let state = Mutex<(sent: [PushRequest], script: [HTTPResponse])>(([], []))
    private let fallback: HTTPResponse

    init(fallback: HTTPResponse = HTTPResponse(status: 200)) { self.fallback = fallback }

    /// Queues responses for the next sends (after they run out, `fallback`).
    func script(_ responses: HTTPResponse...) { state.withLock { $0.script += responses } }

    var sent: [PushRequest] { state.withLock { $0.sent } }

    func send(_ request: PushRequest) async throws -> HTTPResponse {
        state.withLock { state in
            state.sent.append(request)
            return state.script.isEmpty ? fallback : state.script.removeFirst()
        }
    }
}

extension HTTPResponse {
    static func providerError(_ status: Int, _ body: String, retryAfter: String? = nil) -> HTTPResponse {
        var headers: HTTPHeaders = ["content-type": "application/json"]
        if let retryAfter { headers.add("retry-after", retryAfter) }
        return HTTPResponse(status: status, headers: headers, body: Array(body.utf8))
    }
}

extension PushRequest {
    /// The `callx` object of the request: APNs `callx`, or FCM `data.callx` parsed from its string.
    var callx: JSONValue? {
        guard let json else { return nil }
        if let inner = json["callx"] { return inner }
        guard let text = json.value(atPath: "message.data.callx")?.stringValue else { return nil }
        return try? JSONValue.parse(text)
    }
}
