import Conformance
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
    /// The exchange as the engine made it.
    var exchange: ExchangeAnswer
    var status: Int
    /// The body, its members renamed back to the seed's names.
    var json: JSONValue?
    var body: [UInt8] { exchange.body }
    var evidence: EvidenceItem { exchange.evidence() }
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
        raw: [UInt8]? = nil, auth asked: PushServiceAuth, step path: String
    ) async throws -> PushServiceAnswer {
        let app = try serviceApp(path)
        let (routePath, headers, body, auth) = app.request(
            route: route, values: values, json: json, raw: raw, auth: asked)
        let exchange = await self.exchange(
            OutgoingRequest(
                method, routePath, headers: headers, body: body, actor: "app-server", answerer: "push-service",
                summary: "\(method) \(routePath) (auth \(auth.rawValue))"))
        let status = try answered(exchange.status, error: exchange.error, what: "\(path) \(method) \(routePath)")
        return PushServiceAnswer(
            exchange: exchange, status: status, json: exchange.json.map { app.fieldNames.toSeed($0, route: route) })
    }

    /// Judges an answer against a step's expectation (2xx when it has none, else a harness error); body matchers
    /// read the answer with the seed's member names (null when it is not JSON).
    func judgeStatus(_ answer: PushServiceAnswer, _ expect: ResponseExpectation?, what: String) throws {
        try judge(answer.exchange, expect, what: what, json: answer.json ?? .null)
    }
}
