import HTTP
import JSON

/// The control API served on `RINGCHECK_CONTROL_URL`: read and clear captures, install fault plans,
/// register device tokens. JSON in and out; errors are `{"error": "…", "details": ["…"]}`.
/// `GET /v1/openapi.json` describes every route (`ControlAPI+OpenAPI.swift`); the routes themselves
/// are `ControlAPI.Operation` and each provider's `MockControlRoutes.controlEndpoints`, in one
/// `ControlRouteTable`: an unknown path is 404, a method the path lacks 405 with `Allow`, a query
/// parameter the endpoint does not take 400.
///
/// | method and path | does |
/// |---|---|
/// | `GET /v1/openapi.json` | the OpenAPI 3.1 description of every route |
/// | `GET /v1/health` | `{"status":"ok","captures":N,"lastSequence":N,"faults":N,"devices":N}` |
/// | `GET /v1/captures?mock=&deviceToken=&since=&sinceMs=&accepted=&reveal=&limit=` | `{"captures":[…],"lastSequence":N,"more":B}`: the oldest `limit` matches (default 1000, at most 10000); redacted unless `reveal=true` |
/// | `GET /v1/captures/wait?…&count=1&timeoutMs=5000` | same filters; waits for `count` matches; 200 when reached, 408 with the matches so far |
/// | `DELETE /v1/captures` | `{"cleared":N}` |
/// | `POST /v1/faults` | one plan, an array, or `{"faults":[…]}`; all or nothing; 201 `{"faults":[…installed, with ids]}`, 400 on errors |
/// | `GET /v1/faults` | `{"faults":[plan + "remaining","applied"]}` |
/// | `DELETE /v1/faults`, `DELETE /v1/faults/{id}` | `{"cleared":N}` / `{"removed":"id"}` (404 when unknown) |
/// | `POST /v1/devices` | `{"deviceToken","environment"?:"production"/"sandbox","status"?:"active"/"unregistered"/"expired"/"foreignSender"}` → 201 |
/// | `GET /v1/devices`, `DELETE /v1/devices`, `DELETE /v1/devices/{token}` | list, clear, forget |
/// | `DELETE /v1/oauth/tokens` | revokes every issued access token (FCM then answers 401 until the backend re-authenticates): `{"revoked":N}` |
public struct ControlAPI: HTTPHandler {
    /// Where every request is recorded.
    public let log: CaptureLog
    /// The fault plans consulted on every request.
    public let faults: FaultPlans
    /// Device tokens known to be unregistered or bound to an environment.
    public let registry: DeviceRegistry
    /// The time source for token checks and timestamps.
    public let clock: MockClock
    /// The OAuth mock's access tokens, for `DELETE /v1/oauth/tokens`; nil disables that endpoint.
    public let tokens: AccessTokenStore?
    /// Endpoints providers add for their own state (`MockControlRoutes`), asked before a 404.
    public let routes: [any MockControlRoutes]
    /// The longest `timeoutMs` `GET /v1/captures/wait` honours.
    public static let maxWaitMs = 120_000
    /// How many captures `GET /v1/captures` returns without a `limit`: rendering a full log (100,000
    /// captures) took seconds of a thread per request, and abandoned requests piled that up.
    public static let defaultCaptureLimit = 1000
    /// How often a waiting `GET /v1/captures/wait` checks that its client is still there.
    static let abandonmentPoll = Duration.milliseconds(200)
    /// The largest `limit` `GET /v1/captures` accepts.
    public static let maxCaptureLimit = 10_000
    /// Every endpoint served, the shared ones then each provider's: what dispatch, `Allow` and the
    /// query check consult.
    public let routeTable: ControlRouteTable

    /// The control API over the shared log, fault plans and registry.
    public init(
        log: CaptureLog, faults: FaultPlans, registry: DeviceRegistry, tokens: AccessTokenStore? = nil,
        clock: MockClock = .system, routes: [any MockControlRoutes] = []
    ) {
        self.routes = routes
        routeTable = ControlRouteTable(Self.endpoints + routes.flatMap(\.controlEndpoints))
        self.tokens = tokens
        self.log = log
        self.faults = faults
        self.registry = registry
        self.clock = clock
    }

    /// Answers one request: the route table picks the endpoint (404 for an unknown path, 405 with
    /// `Allow` for a method the path lacks, 400 for a query parameter the endpoint does not take).
    public func handle(_ request: HTTPRequest) async -> HTTPResponse {
        switch routeTable.match(method: request.method, path: request.path) {
        case .notFound:
            return Self.error(404, "no endpoint \(request.path); GET /v1/openapi.json lists every route")
        case .methodNotAllowed(let allowed):
            var response = Self.error(
                405,
                "method \(request.method) is not allowed on \(request.path); allowed: "
                    + allowed.joined(separator: ", "))
            // RFC 9110 §15.5.6: a 405 names the methods the target does support.
            response.headers.set("allow", allowed.joined(separator: ", "))
            return response
        case .endpoint(let endpoint, let parameters):
            let unknown = routeTable.unknownQueryParameters(request.query, for: endpoint)
            guard unknown.isEmpty else { return Self.unknownQueryParameters(unknown, endpoint: endpoint) }
            let matched = ControlRequest(http: request, endpoint: endpoint, parameters: parameters)
            if let operation = Operation(rawValue: endpoint.operationID), operation.endpoint == endpoint {
                return await handle(operation, matched)
            }
            for route in routes where route.controlEndpoints.contains(endpoint) {
                return await route.handleControl(matched)
            }
            // Unreachable: every endpoint of the table comes from `Operation` or from one of `routes`.
            return Self.error(500, "no handler for \(endpoint)")
        }
    }

    /// Answers one of the shared operations.
    func handle(_ operation: Operation, _ request: ControlRequest) async -> HTTPResponse {
        switch operation {
        case .health:
            return Self.json(
                200,
                [
                    "status": "ok", "captures": .int(log.count), "lastSequence": .int(log.lastSequence),
                    "faults": .int(faults.entries.count), "devices": .int(registry.all.count),
                ])
        case .openAPI:
            return HTTPResponse.json(200, Self.openAPIDocument)
        case .listCaptures:
            return captures(request.http)
        case .waitForCaptures:
            return await wait(request.http)
        case .clearCaptures:
            return Self.json(200, ["cleared": .int(log.clear())])
        case .installFaults:
            return installFaults(request.http)
        case .listFaults:
            return Self.json(200, ["faults": .array(faults.entries.map(\.json))])
        case .clearFaults:
            return Self.json(200, ["cleared": .int(faults.clear())])
        case .removeFault:
            let id = request.parameters["id", default: ""]
            return faults.remove(id: id)
                ? Self.json(200, ["removed": .string(id)]) : Self.error(404, "no fault plan with id \(id)")
        case .registerDevice:
            return registerDevice(request.http)
        case .listDevices:
            return Self.json(200, ["devices": .array(registry.all.map(Self.deviceJSON))])
        case .clearDevices:
            let n = registry.all.count
            registry.clear()
            return Self.json(200, ["cleared": .int(n)])
        case .forgetDevice:
            let token = request.parameters["token", default: ""]
            return registry.forget(token: token)
                ? Self.json(200, ["removed": .string(token)]) : Self.error(404, "no such device token")
        case .revokeOAuthTokens:
            guard let tokens else { return Self.error(404, "this control API has no OAuth mock") }
            let n = tokens.all.count
            tokens.revokeAll()
            return Self.json(200, ["revoked": .int(n)])
        }
    }

    /// The 400 for query parameters an endpoint does not take: a misspelt filter (`devicetoken=`) would
    /// otherwise be ignored and answer every capture, which reads as the backend's fault.
    static func unknownQueryParameters(_ names: [String], endpoint: ControlEndpoint) -> HTTPResponse {
        let accepted =
            endpoint.query.isEmpty ? "it takes none" : "accepted: " + endpoint.query.joined(separator: ", ")
        let details = names.map { "unknown query parameter '\($0)' for \(endpoint) (\(accepted))" }
        return json(
            400, ["error": .string(details.joined(separator: "; ")), "details": .array(details.map { .string($0) })])
    }

    // MARK: Captures

    /// The capture filter of a query: `mock`, `deviceToken`, `environment`, `since` (sequence, exclusive),
    /// `sinceMs`, `accepted=true`.
    static func filter(_ query: [String: String]) -> Result<CaptureFilter, ControlError> {
        var filter = CaptureFilter()
        if let m = query["mock"], !m.isEmpty {
            guard let mock = MockProviderID(rawValue: m) else {
                let names = MockProviderID.allCases.map(\.rawValue)
                return .failure(
                    ControlError("mock must be \(names.dropLast().joined(separator: ", ")) or \(names.last ?? "")"))
            }
            filter.mock = mock
        }
        if let e = query["environment"], !e.isEmpty {
            guard let env = APNsEnvironment(rawValue: e) else {
                return .failure(ControlError("environment must be production or sandbox"))
            }
            filter.environment = env
        }
        if let t = query["deviceToken"], !t.isEmpty { filter.deviceToken = t }
        if let s = query["since"], !s.isEmpty {
            guard let n = Int(s) else { return .failure(ControlError("since must be a sequence number")) }
            filter.afterSequence = n
        }
        if let s = query["sinceMs"], !s.isEmpty {
            guard let n = Int64(s) else { return .failure(ControlError("sinceMs must be milliseconds")) }
            filter.sinceMs = n
        }
        if let a = query["accepted"] { filter.acceptedOnly = a == "true" || a == "1" }
        return .success(filter)
    }

    static func reveal(_ query: [String: String]) -> Bool { query["reveal"] == "true" || query["reveal"] == "1" }

    func captures(_ request: HTTPRequest) -> HTTPResponse {
        let query = request.query
        switch Self.filter(query) {
        case .failure(let e): return Self.error(400, e.message)
        case .success(let filter):
            guard let limit = Int(query["limit"] ?? String(Self.defaultCaptureLimit)),
                (1...Self.maxCaptureLimit).contains(limit)
            else { return Self.error(400, "limit must be 1…\(Self.maxCaptureLimit)") }
            let reveal = Self.reveal(query)
            let (found, more) = log.captures(filter, limit: limit)
            let lastSequence = log.lastSequence
            var rendered: [JSONValue] = []
            rendered.reserveCapacity(found.count)
            for (i, capture) in found.enumerated() {
                // Rendering is the costly part: stop once nobody waits for it.
                if i % 64 == 0 && request.isAbandoned { return .abandoned }
                rendered.append(capture.json(revealSecrets: reveal))
            }
            return Self.json(
                200, ["captures": .array(rendered), "lastSequence": .int(lastSequence), "more": .bool(more)])
        }
    }

    func wait(_ request: HTTPRequest) async -> HTTPResponse {
        let query = request.query
        let filter: CaptureFilter
        switch Self.filter(query) {
        case .failure(let e): return Self.error(400, e.message)
        case .success(let f): filter = f
        }
        guard let count = Int(query["count"] ?? "1"), count >= 1, count <= 10_000 else {
            return Self.error(400, "count must be 1…10000")
        }
        guard let timeoutMs = Int(query["timeoutMs"] ?? "5000"), timeoutMs >= 0, timeoutMs <= Self.maxWaitMs else {
            return Self.error(400, "timeoutMs must be 0…\(Self.maxWaitMs)")
        }
        let log = self.log
        // The wait ends early when its client leaves: an abandoned waiter would otherwise hold its
        // place (and run its filter on every capture recorded) until the timeout, up to two minutes.
        let found = await withTaskGroup(of: [Capture]?.self) { group in
            group.addTask {
                await log.waitFor(count: count, matching: { filter.matches($0) }, timeout: .milliseconds(timeoutMs))
            }
            group.addTask {
                while !request.isAbandoned && !Task.isCancelled {
                    try? await Task.sleep(for: Self.abandonmentPoll)
                }
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        guard let matches = found else { return .abandoned }
        let reveal = Self.reveal(query)
        return Self.json(
            matches.count >= count ? 200 : 408,
            [
                "captures": .array(matches.map { $0.json(revealSecrets: reveal) }),
                "complete": .bool(matches.count >= count),
            ])
    }

    // MARK: Faults

    func installFaults(_ request: HTTPRequest) -> HTTPResponse {
        let body: JSONValue
        do {
            body = try JSONValue.parse(request.body)
        } catch {
            return Self.error(400, "the body must be a JSON fault plan: \(error)")
        }
        let items: [JSONValue]
        switch body {
        case .array(let a): items = a
        case .object where body["faults"] != nil && body.objectValue?.count == 1:
            guard let a = body["faults"]?.arrayValue else { return Self.error(400, "faults must be an array of plans") }
            items = a
        default: items = [body]
        }
        guard !items.isEmpty else { return Self.error(400, "no fault plans given") }
        var plans: [FaultPlan] = []
        var problems: [String] = []
        for (i, item) in items.enumerated() {
            let prefix = items.count > 1 ? "plan \(i): " : ""
            do {
                let plan = try FaultPlan(json: item)
                let errors = plan.validationErrors()
                if errors.isEmpty { plans.append(plan) } else { problems += errors.map { prefix + $0 } }
            } catch {
                problems += error.messages.map { prefix + $0 }
            }
        }
        guard problems.isEmpty else {
            return Self.json(
                400,
                [
                    "error": .string("invalid fault plan: " + problems.joined(separator: "; ")),
                    "details": .array(problems.map { .string($0) }),
                ])
        }
        var installed: [JSONValue] = []
        for plan in plans {
            // Validated above, so installation cannot fail.
            if let p = try? faults.install(plan) { installed.append(p.json) }
        }
        return Self.json(201, ["faults": .array(installed)])
    }

    // MARK: Devices

    func registerDevice(_ request: HTTPRequest) -> HTTPResponse {
        guard let body = try? JSONValue.parse(request.body), case .object(let members) = body else {
            return Self.error(400, "the body must be a JSON object with deviceToken, environment, status")
        }
        var problems: [String] = []
        var device = DeviceRegistry.Device(token: "", sinceMs: clock())
        for (key, value) in members {
            switch key {
            case "deviceToken":
                if let s = value.stringValue, !s.isEmpty {
                    device.token = s
                } else {
                    problems.append("deviceToken must be a non-empty string")
                }
            case "environment":
                if value == .null { break }
                if let e = value.stringValue.flatMap(APNsEnvironment.init(rawValue:)) {
                    device.environment = e
                } else {
                    problems.append("environment must be production or sandbox")
                }
            case "status":
                if let s = value.stringValue.flatMap(DeviceRegistry.Status.init(rawValue:)) {
                    device.status = s
                } else {
                    let known = DeviceRegistry.Status.allCases.map(\.rawValue).joined(separator: ", ")
                    problems.append("status must be one of \(known)")
                }
            case "tokenKind":
                if value == .null { break }
                if let k = value.stringValue.flatMap(DeviceRegistry.TokenKind.init(rawValue:)) {
                    device.tokenKind = k
                } else {
                    problems.append("tokenKind must be voip or alert")
                }
            case "sinceMs":
                if let n = value.int64Value {
                    device.sinceMs = n
                } else {
                    problems.append("sinceMs must be an integer")
                }
            default:
                problems.append("unknown field '\(key)' (known: deviceToken, environment, status, sinceMs, tokenKind)")
            }
        }
        if device.token.isEmpty && !problems.contains(where: { $0.hasPrefix("deviceToken") }) {
            problems.append("deviceToken is required")
        }
        guard problems.isEmpty else {
            return Self.json(
                400,
                ["error": .string(problems.joined(separator: "; ")), "details": .array(problems.map { .string($0) })])
        }
        registry.register(device)
        return Self.json(201, Self.deviceJSON(device))
    }

    static func deviceJSON(_ device: DeviceRegistry.Device) -> JSONValue {
        [
            "deviceToken": .string(device.token),
            "environment": device.environment.map { .string($0.rawValue) } ?? .null,
            "status": .string(device.status.rawValue), "sinceMs": .int(device.sinceMs),
            "tokenKind": device.tokenKind.map { .string($0.rawValue) } ?? .null,
        ]
    }

    // MARK: Responses

    static func json(_ status: Int, _ value: JSONValue) -> HTTPResponse {
        HTTPResponse.json(status, Array((value.serialized(pretty: true) + "\n").utf8))
    }

    static func error(_ status: Int, _ message: String) -> HTTPResponse {
        json(status, ["error": .string(message)])
    }
}

/// A control-API request problem, reported as 400.
struct ControlError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}
