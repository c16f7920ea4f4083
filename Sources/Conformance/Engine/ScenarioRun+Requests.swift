import HTTP
import JSON
import Reports

/// A request ready to send, before references are gone. Public so that a profile's request steps can
/// give theirs to a `race`; its members are the engine's own.
public struct PreparedRequest: Sendable {
    package var actor: String
    package var method: String
    package var path: String
    /// The headers that authenticate the request; nil sends no credentials.
    package var credentials: [String: String]?
    package var headers: [(String, String)] = []
    package var body: JSONValue?
    /// The abstract operation (nil for a raw request), which a target's mapping turns into its own request.
    package var operation: RequestOperation?
    /// The operation's values beside the body's members (path and query parameters, the installation, the user).
    package var values: [String: JSONValue] = [:]
    /// Body members the scenario added or replaced (sent even when the target's body template omits them).
    package var extraKeys: [String] = []
    /// The installation the actor acts from (a user's is its event feed's): a target that places the
    /// installation on an operation the reference design sends without one gets this one.
    package var actorInstallation: String? = nil
    /// The calls the answer to this request makes the run's own (`ScenarioRun.claimCall`), given the
    /// answer: a request that starts a call names it (a create); nil claims none.
    var claimedCalls: (@Sendable (Exchange) -> [String])? = nil
    /// Whether an answer to this request wins a `race` (what its `winners` counts): a request whose
    /// answer may say another request won (a Callx answer) says so; nil: a 2xx answer wins.
    var wins: (@Sendable (Exchange) -> Bool)? = nil

    /// The memberwise initializer, for the profiles (modules of their own).
    package init(
        actor: String, method: String, path: String, credentials: [String: String]? = nil,
        headers: [(String, String)] = [], body: JSONValue? = nil, operation: RequestOperation? = nil,
        values: [String: JSONValue] = [:], extraKeys: [String] = [], actorInstallation: String? = nil,
        claimedCalls: (@Sendable (Exchange) -> [String])? = nil, wins: (@Sendable (Exchange) -> Bool)? = nil
    ) {
        self.actor = actor
        self.method = method
        self.path = path
        self.credentials = credentials
        self.headers = headers
        self.body = body
        self.operation = operation
        self.values = values
        self.extraKeys = extraKeys
        self.actorInstallation = actorInstallation
        self.claimedCalls = claimedCalls
        self.wins = wins
    }
}

extension ScenarioRun {
    // MARK: Who acts

    /// The account and installation an actor uses, and its label in reports.
    public func identity(_ actor: StepActor) throws -> (
        label: String, user: TargetUser, installationId: String, isDevice: Bool
    ) {
        switch actor {
        case .user(let name):
            guard let user = users[name] else { throw HarnessStop(message: "unknown user '\(name)'") }
            return (name, user, userInstallationId(name), false)
        case .device(let name):
            guard let d = devices[name], let user = users[d.user] else {
                throw HarnessStop(message: "unknown device '\(name)'")
            }
            return (name, user, d.installationId, true)
        }
    }

    public func user(_ name: String) throws -> TargetUser {
        guard let u = users[name] else { throw HarnessStop(message: "unknown user '\(name)'") }
        return u
    }

    // MARK: Building requests

    func registerRequest(_ r: RegisterTokenStep) throws -> PreparedRequest {
        guard let d = devices[r.device] else { throw HarnessStop(message: "unknown device '\(r.device)'") }
        return tokenRegistration(
            d, by: try user(r.asUser ?? d.user), actor: r.asUser ?? d.name,
            token: try r.token.map { try resolver.resolve($0) } ?? .string(d.tokens.first ?? ""),
            appId: try r.appId.map { try resolver.resolve($0) } ?? .string(engine.target.appId),
            environment: r.environment ?? d.environment)
    }

    /// The canonical `PUT` of installation `d`'s push token, made by `account` (VoIP tokens in
    /// `environment`, production when nil).
    func tokenRegistration(
        _ d: DeviceIdentity, by account: TargetUser, actor: String, token: JSONValue, appId: JSONValue,
        environment: VirtualDevice.Environment?
    ) -> PreparedRequest {
        var body: [(key: String, value: JSONValue)] = [("token", token), ("appId", appId)]
        if d.kind.hasEnvironments {
            body.append(("apnsEnvironment", .string((environment ?? .production).rawValue)))
        }
        let path = RequestTemplate.fill(
            engine.target.tokenRoute, ["installationId": d.installationId, "kind": d.kind.rawValue])
        return PreparedRequest(
            actor: actor, method: "PUT", path: path, credentials: account.authHeaders, body: .object(body),
            operation: .registerToken, values: deviceValues(d, account))
    }

    /// The values of a request about device `d`'s token, made by `account`: its latest registration (the
    /// token, and what the backend's answer saved for it) unless `registration` names another.
    func deviceValues(
        _ d: DeviceIdentity, _ account: TargetUser, registration: TokenRegistration? = nil
    ) -> [String: JSONValue] {
        let r = registration ?? registrations[d.name]?.last ?? TokenRegistration(token: d.token)
        var values: [String: JSONValue] = [
            "installationId": .string(d.installationId), "kind": .string(d.kind.rawValue),
            "userId": .string(account.userId), "token": .string(r.token),
        ]
        for (name, value) in r.saved { values[name] = value }
        return values
    }

    /// The request a request step sends, and its options.
    func prepare(_ step: Step) throws -> (PreparedRequest, RequestOptions) {
        switch step {
        case .registerToken(let r):
            return (try registerRequest(r), r.options)
        case .deleteToken(let r):
            guard let d = devices[r.device] else { throw HarnessStop(message: "unknown device '\(r.device)'") }
            let account = try user(r.asUser ?? d.user)
            let path = RequestTemplate.fill(
                engine.target.tokenRoute, ["installationId": d.installationId, "kind": d.kind.rawValue])
            return (
                PreparedRequest(
                    actor: r.asUser ?? d.name, method: "DELETE", path: path, credentials: account.authHeaders,
                    operation: .deleteToken, values: deviceValues(d, account)),
                r.options
            )
        case .request(let r):
            var label = "anonymous"
            var credentials: [String: String]?
            // The installation the actor acts from (a user's own app's): a target that places the
            // installation elsewhere than the reference design gets it there, as on mapped requests.
            var installation: String?
            if let actor = r.actor ?? (r.auth != .none ? .user("a") : nil) {
                let who = try identity(actor)
                label = who.label
                credentials = who.user.authHeaders
                installation = who.installationId
            }
            switch r.auth {
            case .session: break
            case .none: credentials = nil
            case .invalid: credentials = credentials.map(Self.invalidCredentials)
            }
            var headers: [(String, String)] = []
            for (name, value) in r.headers.sorted(by: { $0.key < $1.key }) {
                headers.append((name.lowercased(), try resolver.string(value)))
            }
            return (
                PreparedRequest(
                    actor: label, method: r.method.uppercased(), path: try resolver.string(r.path),
                    credentials: credentials, headers: headers, body: try r.body.map { try resolver.resolve($0) },
                    values: installation.map { ["installationId": .string($0)] } ?? [:],
                    actorInstallation: installation), r.options
            )
        case .profile(let p):
            guard let prepared = try p.base.request(with: self) else {
                throw HarnessStop(message: "\(step.kind) is not a request step")
            }
            return prepared
        default:
            throw HarnessStop(message: "\(step.kind) is not a request step")
        }
    }

    // MARK: Sending

    /// Credentials of the same shape that the backend must not accept (a bearer keeps its scheme).
    static func invalidCredentials(_ real: [String: String]) -> [String: String] {
        real.mapValues { scheme($0) + "invalid-" + RandomText.alphanumeric(24) }
    }

    /// `Bearer ` of `Bearer abc`, or "" for a value without a scheme.
    package static func scheme(_ value: String) -> String {
        let parts = value.split(separator: " ", maxSplits: 1)
        return parts.count == 2 ? String(parts[0]) + " " : ""
    }

    func exchange(_ p: PreparedRequest, _ result: Result<ClientResponse, Error>) -> Exchange {
        var headers: [(String, String)] = []
        for (n, v) in (p.credentials ?? [:]).sorted(by: { $0.key < $1.key }) {
            headers.append((n, Self.scheme(v) + "<redacted>"))
        }
        if p.body != nil { headers.append(("content-type", "application/json")) }
        for (n, v) in p.headers { headers.append((n, n == "authorization" ? "<redacted>" : v)) }
        var ex = Exchange(actor: p.actor, method: p.method, path: p.path, headers: headers, body: p.body)
        ex.operation = p.operation
        switch result {
        case .success(let r):
            ex.responseBody = r.body
            let n = engine.target.normalize(p.operation, status: r.status, json: try? JSONValue.parse(r.body))
            ex.status = n.status
            ex.json = n.json
            ex.media = n.media
        case .failure(let e):
            ex.error = "\(e)"
        }
        return ex
    }

    public func sendUnrecorded(_ request: PreparedRequest) async -> Exchange {
        let p = wire(request)
        let result: Result<ClientResponse, Error>
        do { result = .success(try await engine.client.send(clientRequest(p))) } catch { result = .failure(error) }
        return exchange(p, result)
    }

    public func send(_ canonical: PreparedRequest) async -> Exchange {
        let p = wire(canonical)
        record(.request, p.actor, "\(p.method) \(p.path)", p.body?.serialized())
        let result: Result<ClientResponse, Error>
        do { result = .success(try await engine.client.send(clientRequest(p))) } catch { result = .failure(error) }
        let answered = exchange(p, result)
        recordResponse(answered)
        let ex = await engine.profile.completedAnswer(answered, to: canonical, with: self)
        if ex.json != answered.json { recordResponse(ex) }
        noteOwnCall(canonical, ex)
        noteRegistration(canonical, succeeded: ex.isSuccess, answer: try? JSONValue.parse(answered.responseBody))
        return ex
    }

    /// Makes the calls the answer to `canonical` starts the run's own (`PreparedRequest.claimedCalls`).
    func noteOwnCall(_ canonical: PreparedRequest, _ ex: Exchange) {
        for id in canonical.claimedCalls?(ex) ?? [] { claimCall(id) }
    }

    public func recordResponse(_ ex: Exchange) {
        if let status = ex.status {
            var summary = "\(status)"
            if let state = ex.json?["state"]?.stringValue { summary += " \(state)" }
            if let rev = ex.json?["revision"]?.stringValue { summary += " rev \(rev)" }
            record(.response, ex.actor, summary, String(decoding: ex.responseBody.prefix(2000), as: UTF8.self))
            engine.profile.observeResponse(ex, with: self)
        } else {
            record(.response, ex.actor, "no response: \(ex.error ?? "?")")
        }
    }

    /// The exchange as evidence text, credentials redacted.
    public func evidence(_ ex: Exchange) -> EvidenceItem {
        var text = "\(ex.method) \(ex.path)\n"
        for (n, v) in ex.headers { text += "\(n): \(v)\n" }
        if let body = ex.body { text += "\n\(body.serialized())\n" }
        if let status = ex.status {
            text += "\n→ \(status)\n" + String(decoding: ex.responseBody.prefix(4000), as: UTF8.self)
        } else {
            text += "\n→ no response: \(ex.error ?? "?")"
        }
        return EvidenceItem(
            kind: .httpExchange,
            title: "\(ex.actor): \(ex.method) \(ex.path) → \(ex.status.map(String.init) ?? "no response")",
            text: text)
    }

    // MARK: Judging a response

    public func judge(_ ex: Exchange, _ options: RequestOptions, step: ScenarioStep, inRace: Bool) throws {
        let what = "\(step.path) \(step.step.kind) by \(ex.actor)"
        if ex.status != nil, let save = options.save {
            resolver.saved[save] = ex.json ?? .string(String(decoding: ex.responseBody, as: UTF8.self))
        }
        try judgeAnswer(
            status: ex.status, json: ex.json, error: ex.error, expect: options.expect, what: what, inRace: inRace,
            evidence: evidence(ex))
    }

    // MARK: Race

    func race(_ r: RaceStep, step: ScenarioStep) async throws {
        var prepared: [(PreparedRequest, RequestOptions, ScenarioStep)] = []
        var canonical: [PreparedRequest] = []
        for sub in r.steps {
            let (p, o) = try prepare(sub.step)
            canonical.append(p)
            prepared.append((wire(p), o, sub))
        }
        for (p, _, _) in prepared { record(.request, p.actor, "\(p.method) \(p.path) (race)", p.body?.serialized()) }
        let result: RaceResult
        do { result = try await engine.client.race(prepared.map { clientRequest($0.0) }) } catch {
            throw HarnessStop(message: "\(step.path) race: \(error)")
        }
        raceSpreads.append(result.spreadMs)
        note(String(format: "race released %d requests within %.3f ms", prepared.count, result.spreadMs))
        var exchanges: [Exchange] = []
        for (((p, o, sub), entry), c) in zip(zip(prepared, result.entries), canonical) {
            let answered = exchange(p, entry.result.mapError { $0 as Error })
            recordResponse(answered)
            let ex = await engine.profile.completedAnswer(answered, to: c, with: self)
            if ex.json != answered.json { recordResponse(ex) }
            noteOwnCall(c, ex)
            noteRegistration(c, succeeded: ex.isSuccess, answer: try? JSONValue.parse(answered.responseBody))
            exchanges.append(ex)
            try judge(ex, o, step: sub, inRace: true)
        }
        if let winners = r.winners {
            let got = zip(exchanges, canonical).filter { ex, c in c.wins?(ex) ?? ex.isSuccess }.count
            if got != winners {
                try fail(
                    r.requirement, check: "\(step.path) race: requests answered 2xx",
                    expected: "\(winners)",
                    actual:
                        "\(got) (\(exchanges.map { $0.status.map(String.init) ?? "none" }.joined(separator: ", ")))",
                    evidence: exchanges.map(evidence))
            }
        }
    }
}

extension RunContext {
    // MARK: Request bodies and the wire

    /// The keys of a scenario's extra body fields.
    package func extraKeys(_ extra: JSONValue?) -> [String] {
        extra?.objectValue?.map(\.key) ?? []
    }

    /// Merges `extra` (a mapping of extra or replacing fields) into `body`.
    package func merged(_ body: JSONValue, _ extra: JSONValue?) throws -> JSONValue {
        guard let extra, case .object(let members) = try resolver.resolve(extra) else { return body }
        var out = body
        for m in members { out = out.setting(m.key, to: m.value) }
        return out
    }

    package func freshOperationId() -> String { "op-" + RandomText.alphanumeric(12) }

    /// The operation ID a step sends: fresh unless the scenario names one. A target's fixed accounts
    /// outlive the run, so there a named one is made the run's own (prefixed with its tag): an earlier
    /// run's `create-1` must not be replayed or conflict.
    package func operationId(_ given: JSONValue?) throws -> JSONValue {
        guard let given else { return .string(freshOperationId()) }
        let value = try resolver.resolve(given)
        if target.accountSlots != nil, case .string(let s) = value { return .string("\(runTag)-\(s)") }
        return value
    }

    /// `p` as the target's API spells it (its mapping's path, body and headers).
    func wire(_ p: PreparedRequest) -> PreparedRequest { target.wire(p) }

    /// The client request that sends `p` to the target.
    func clientRequest(_ p: PreparedRequest) -> ClientRequest { target.clientRequest(p) }
}
