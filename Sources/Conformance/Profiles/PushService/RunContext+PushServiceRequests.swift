import HTTP
import JSON
import Reports

/// How a request to the push service authenticates: the app's REST API key in one of the schemes the seed accepts,
/// a wrong key, or none.
enum PushServiceAuth: String, Sendable, CaseIterable {
    case key, basic, bearer, none
    /// `Key <a key the service never issued>`.
    case wrongKey = "wrong-key"

    func header(_ app: ServiceApp) -> String? {
        switch self {
        case .key: return "Key \(app.apiKey)"
        case .basic: return "Basic \(app.apiKey)"
        case .bearer: return "Bearer \(app.apiKey)"
        case .none: return nil
        case .wrongKey: return "Key psk_" + RandomText.alphanumeric(32)
        }
    }
}

/// One answer of the push service (the body read back with the seed's member names).
struct PushServiceAnswer: Sendable {
    var status: Int
    var json: JSONValue?
    var body: [UInt8]
    var evidence: EvidenceItem
}

extension RunContext {
    func serviceApp(_ path: String) throws -> ServiceApp {
        guard let app = target.serviceApp else {
            throw HarnessStop(
                message: "\(path): the target has no serviceApp (a target file's serviceApp: {appId, apiKey})")
        }
        return app
    }

    /// Sends one request to the route called `route`; `body` is JSON (renamed as the target's `fieldNames` say) or
    /// raw bytes. Throws `HarnessStop` when the service does not answer.
    func pushServiceRequest(
        _ method: String, route: String, values: [String: String] = [:], json: JSONValue? = nil,
        raw: [UInt8]? = nil, auth: PushServiceAuth, step path: String
    ) async throws -> PushServiceAnswer {
        let app = try serviceApp(path)
        var filled = values
        filled["appId"] = filled["appId"] ?? app.appId
        let routePath = app.route(route, seedRoute: PushServiceRoutes.seed[route] ?? "/", filled)
        var headers = HTTPHeaders()
        var body: [UInt8] = []
        if let json {
            body = Array(Self.renamed(json, app.fieldNames).serialized().utf8)
            headers.add("content-type", "application/json")
        } else if let raw {
            body = raw
            headers.add("content-type", "application/json")
        }
        if let value = auth.header(app) { headers.add("authorization", value) }
        let text = String(decoding: body, as: UTF8.self)
        record(.request, "app-server", "\(method) \(routePath) (auth \(auth.rawValue))", body.isEmpty ? nil : text)
        let response: ClientResponse
        do {
            response = try await client.send(
                ClientRequest(method: method, url: target.baseURL + routePath, headers: headers, body: body))
        } catch {
            record(.response, "push-service", "no response: \(error)")
            throw HarnessStop(message: "\(path): the push service did not answer \(method) \(routePath) (\(error))")
        }
        let answerText = String(decoding: response.body.prefix(4000), as: UTF8.self)
        record(.response, "push-service", "\(response.status)", answerText)
        var evidenceText = "\(method) \(routePath)\n"
        for field in headers {
            evidenceText +=
                "\(field.name): \(field.name == "authorization" ? ScenarioRun.scheme(field.value) + "<redacted>" : field.value)\n"
        }
        evidenceText += "\n\(text)\n\n→ \(response.status)\n\(answerText)"
        let inverse = Dictionary(app.fieldNames.map { ($0.value, $0.key) }, uniquingKeysWith: { a, _ in a })
        let parsed = try? JSONValue.parse(response.body)
        return PushServiceAnswer(
            status: response.status, json: parsed.map { Self.renamed($0, inverse) }, body: response.body,
            evidence: EvidenceItem(
                kind: .httpExchange, title: "push-service: \(method) \(routePath) → \(response.status)",
                text: evidenceText))
    }

    /// `value` with every object key renamed as `names` says (keys not named stay).
    static func renamed(_ value: JSONValue, _ names: [String: String]) -> JSONValue {
        guard !names.isEmpty else { return value }
        switch value {
        case .object(let members):
            return .object(members.map { (key: names[$0.key] ?? $0.key, value: renamed($0.value, names)) })
        case .array(let items):
            return .array(items.map { renamed($0, names) })
        default:
            return value
        }
    }

    /// Judges an answer's status against a step's expectation (2xx when it has none, else a harness error).
    func judgeStatus(_ answer: PushServiceAnswer, _ expect: ResponseExpectation?, what: String) throws {
        guard let expect else {
            if !(200..<300).contains(answer.status) {
                throw HarnessStop(message: "\(what): answered \(answer.status), expected 2xx")
            }
            return
        }
        if !expect.anyStatus {
            let ok = expect.status.map { $0.contains(answer.status) } ?? (200..<300).contains(answer.status)
            if !ok {
                try fail(
                    expect.requirement, check: "\(what): response status",
                    expected: expect.status.map { $0.map(String.init).joined(separator: " or ") } ?? "2xx",
                    actual: "\(answer.status)", evidence: [answer.evidence])
                return
            }
        }
        if !expect.body.isEmpty {
            let json = answer.json ?? .null
            let matchers = try resolver.resolve(expect.body)
            for group in MatcherEvaluator.mismatchesByRequirement(matchers, in: json, fallback: expect.requirement) {
                try fail(
                    group.requirement, check: "\(what): response body", expected: "every matcher holds",
                    actual: group.problems.joined(separator: "\n"), evidence: [answer.evidence])
            }
        }
    }
}
