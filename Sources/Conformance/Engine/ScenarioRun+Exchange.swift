import HTTP
import JSON
import Reports

/// A request a profile's step builds itself — its own bytes and headers (a signed webhook, a raw body, an app's
/// REST key) — for the engine's one exchange, `ScenarioRun.exchange(_:expect:what:)`.
public struct OutgoingRequest: Sendable {
    public var method: String
    /// The path, as the timeline and the evidence show it (`/notifications?app_id=…`).
    public var path: String
    /// The base URL the path goes to: the target's unless another instance's (an unconfigured one).
    public var baseURL: String?
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// Who sends it on the timeline (`dialstack`, `app-server`).
    public var actor: String
    /// Who answers on the timeline and in the evidence's title (`push-service`); the sender when nil.
    public var answerer: String?
    /// The request's line on the timeline; `<method> <path>` when nil.
    public var summary: String?
    /// How long to wait for the answer; nil: the client's timeout.
    public var timeoutSeconds: Double?

    public init(
        _ method: String, _ path: String, baseURL: String? = nil, headers: HTTPHeaders = HTTPHeaders(),
        body: [UInt8] = [], actor: String, answerer: String? = nil, summary: String? = nil,
        timeoutSeconds: Double? = nil
    ) {
        self.timeoutSeconds = timeoutSeconds
        self.method = method
        self.path = path
        self.baseURL = baseURL
        self.headers = headers
        self.body = body
        self.actor = actor
        self.answerer = answerer
        self.summary = summary
    }
}

/// What one exchange brought back: the answer (or why there was none), when it left and came back, and the
/// evidence a failed check shows.
public struct ExchangeAnswer: Sendable {
    public var request: OutgoingRequest
    /// nil when the backend did not answer (`error` says why).
    public var status: Int?
    public var body: [UInt8]
    public var error: String?
    /// The body parsed as JSON, when it is JSON.
    public var json: JSONValue?
    /// Wall-clock milliseconds just before the request left, and once its answer (or failure) was in.
    public var sentAtMs: Int64
    public var answeredAtMs: Int64

    public var isSuccess: Bool { status.map { (200..<300).contains($0) } ?? false }

    /// The exchange as evidence: the request (its headers unless `headers` is false, credentials redacted) and
    /// body as sent, the status and at most `limit` bytes of the answer.
    public func evidence(headers: Bool = true, limit: Int = 4000) -> EvidenceItem {
        let who = request.answerer ?? request.actor
        var text = "\(request.method) \(request.path)\n"
        if headers {
            for field in request.headers {
                let value = field.name == "authorization" ? ScenarioRun.scheme(field.value) + "<redacted>" : field.value
                text += "\(field.name): \(value)\n"
            }
        }
        text += "\n" + String(decoding: request.body, as: UTF8.self) + "\n\n"
        let outcome = status.map(String.init) ?? "no response"
        if let status {
            text += "→ \(status)\n" + String(decoding: body.prefix(limit), as: UTF8.self)
        } else {
            text += "→ no response: \(error ?? "?")"
        }
        return EvidenceItem(
            kind: .httpExchange, title: "\(who): \(request.method) \(request.path) → \(outcome)", text: text)
    }
}

extension RunContext {
    // MARK: The one exchange

    /// Sends a profile step's request, puts it and its answer on the timeline, judges the answer's status (and
    /// body matchers) against `expect` and charges a failure to the expectation's requirement; what every profile's
    /// request steps use. Without an expectation the request is set-up: anything but a 2xx stops the scenario.
    /// Throws `HarnessStop` when the backend does not answer.
    ///
    /// ```swift
    /// var headers = HTTPHeaders()
    /// headers.add("content-type", "application/json")
    /// let answer = try await run.exchange(
    ///     OutgoingRequest("POST", "/probe", headers: headers, body: Array(#"{"n":1}"#.utf8), actor: "probe"),
    ///     expect: ResponseExpectation(status: [201], requirement: "PROBE-API-1"), what: "\(step.path) probe")
    /// if let save { run.resolver.saved[save] = answer.json ?? .null }
    /// ```
    @discardableResult
    func exchange(_ request: OutgoingRequest, expect: ResponseExpectation?, what: String) async throws
        -> ExchangeAnswer
    {
        let answer = await exchange(request)
        try judge(answer, expect, what: what)
        return answer
    }

    /// Sends the request and puts it and its answer on the timeline, judging nothing: for a step that reads the
    /// answer before it is judged (`judge(_:_:what:)`) or judges it otherwise.
    package func exchange(_ request: OutgoingRequest) async -> ExchangeAnswer {
        record(
            .request, request.actor, request.summary ?? "\(request.method) \(request.path)",
            request.body.isEmpty ? nil : String(decoding: request.body, as: UTF8.self))
        let answerer = request.answerer ?? request.actor
        let sentAtMs = nowMs
        var answer = ExchangeAnswer(
            request: request, status: nil, body: [], error: nil, json: nil, sentAtMs: sentAtMs,
            answeredAtMs: sentAtMs)
        do {
            let response = try await client.send(
                ClientRequest(
                    method: request.method, url: (request.baseURL ?? target.baseURL) + request.path,
                    headers: request.headers, body: request.body, timeoutSeconds: request.timeoutSeconds))
            answer.status = response.status
            answer.body = response.body
            answer.json = try? JSONValue.parse(response.body)
            record(
                .response, answerer, "\(response.status)", String(decoding: response.body.prefix(2000), as: UTF8.self))
        } catch {
            answer.error = "\(error)"
            record(.response, answerer, "no response: \(error)")
        }
        answer.answeredAtMs = nowMs
        return answer
    }

    /// Judges an exchange's answer against a step's expectation (`exchange(_:expect:what:)`'s judging); `json` is
    /// the body as the step reads it (the answer's own JSON by default).
    package func judge(_ answer: ExchangeAnswer, _ expect: ResponseExpectation?, what: String, json: JSONValue? = nil)
        throws
    {
        try judgeAnswer(
            status: answer.status, json: json ?? answer.json, error: answer.error, expect: expect, what: what,
            evidence: answer.evidence())
    }

    /// The answer's status, or `HarnessStop` when the backend did not answer.
    package func answered(_ status: Int?, error: String?, what: String) throws -> Int {
        guard let status else { throw HarnessStop(message: "\(what): the backend did not answer (\(error ?? "?"))") }
        return status
    }

    /// The judging every request step shares: no answer stops the scenario; without an expectation, a non-2xx
    /// stops it too (outside a race: a raced request may lose); a status outside the expected ones is charged to
    /// the expectation's requirement, each body matcher's mismatch to its own (the expectation's by default).
    func judgeAnswer(
        status: Int?, json: JSONValue?, error: String?, expect: ResponseExpectation?, what: String,
        inRace: Bool = false, evidence: @autoclosure () -> EvidenceItem
    ) throws {
        let status = try answered(status, error: error, what: what)
        guard let expect else {
            if !inRace && !(200..<300).contains(status) {
                throw HarnessStop(message: "\(what): a set-up request answered \(status), expected 2xx")
            }
            return
        }
        if !expect.anyStatus {
            let ok = expect.status.map { $0.contains(status) } ?? (200..<300).contains(status)
            if !ok {
                try fail(
                    expect.requirement, check: "\(what): response status",
                    expected: expect.status.map { $0.map(String.init).joined(separator: " or ") } ?? "2xx",
                    actual: "\(status)", evidence: [evidence()])
            }
        }
        if !expect.body.isEmpty && (!expect.bodyOnlyOnSuccess || (200..<300).contains(status)) {
            var matchers = try resolver.resolve(expect.body)
            guard let json else {
                try fail(
                    expect.requirement, check: "\(what): response body", expected: "a JSON body",
                    actual: "not JSON", evidence: [evidence()])
                return
            }
            // A field the target's value map cannot read back is not judged, and says so.
            let readable = target.readable(matchers, in: json)
            matchers = readable.judged
            for u in readable.unreadable { note("\(what): response body \(u.path) not applicable: \(u.reason)") }
            // Each field's mismatch is charged to that field's requirement (the expectation's by default).
            for group in MatcherEvaluator.mismatchesByRequirement(matchers, in: json, fallback: expect.requirement) {
                try fail(
                    group.requirement, check: "\(what): response body",
                    expected: "every matcher holds", actual: group.problems.joined(separator: "\n"),
                    evidence: [evidence()])
            }
        }
    }
}
