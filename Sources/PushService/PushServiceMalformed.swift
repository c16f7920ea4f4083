import Conformance
import JSON

/// The malformed `POST /notifications` requests ringcheck sends (`malformedNotifications`), each with the
/// requirement a wrong answer fails: the seed's 400 `{"errors": [...]}` for a body that is no notification at all
/// (PUSHSVC-REQ-1, MUST), and for members of the wrong type or value (PUSHSVC-REQ-2, SHOULD: which values are wrong
/// is our reading).
enum PushServiceMalformed {
    struct Case: Sendable {
        var name: String
        /// Raw bytes (no filling in), or a JSON body that gets `app_id` and the audience like any `notify`.
        var raw: String?
        var body: JSONValue?
        var requirement: RequirementID
    }

    static let cases: [Case] = [
        Case(name: "not JSON", raw: #"{"app_id": "#, requirement: PushServiceRequirement.malformed),
        Case(name: "a JSON array", raw: "[]", requirement: PushServiceRequirement.malformed),
        Case(name: "a JSON string", raw: #""notify""#, requirement: PushServiceRequirement.malformed),
        Case(name: "an empty body", raw: "", requirement: PushServiceRequirement.malformed),
        Case(
            name: "call.action neither incoming nor ended", body: ["call": ["action": "ringing", "id": .string(uuid)]]),
        Case(name: "call not an object", body: ["call": "incoming"]),
        Case(name: "call.timeout a string", body: ["call": ["action": "incoming", "timeout": "45"]]),
        Case(name: "call.is_video a string", body: ["call": ["action": "incoming", "is_video": "false"]]),
        Case(name: "ended without an id", body: ["call": ["action": "ended"]]),
        Case(name: "ttl negative", body: ["contents": ["en": "x"], "ttl": -1]),
        Case(name: "ttl a string", body: ["contents": ["en": "x"], "ttl": "30"]),
        Case(name: "external_id not a list", body: ["contents": ["en": "x"], "include_aliases": ["external_id": "u"]]),
        Case(name: "headings not an object", body: ["headings": "hi", "contents": ["en": "x"]]),
        Case(name: "data not an object", body: ["contents": ["en": "x"], "data": [1, 2]]),
        Case(name: "ios_badgeCount a string", body: ["contents": ["en": "x"], "ios_badgeCount": "1"]),
    ]

    static let uuid = "0f8e2a52-6c1e-4a57-9a1b-5d7f3c2b1e90"
}

extension PushServiceMalformed.Case {
    init(name: String, body: JSONValue) {
        self.init(name: name, raw: nil, body: body, requirement: PushServiceRequirement.malformedValues)
    }
}

/// `malformedNotifications: {to: [users]}` — sends every request of `PushServiceMalformed.cases` with the app's key;
/// each must be refused with 400 and a non-empty `errors` array of strings. A later `expectNoPush` shows that none
/// reached a device.
struct MalformedNotificationsStep: DecodableStep, Equatable {
    var to: [String]

    static let keywords = ["malformedNotifications"]

    static func decode(_ keyword: String, _ node: YAMLNode, path: String, decoder: inout ScenarioDecoder) -> Self? {
        decoder.decodeMalformedNotifications(node, path)
    }

    func perform(_ step: ScenarioStep, with run: isolated any RunContext) async throws {
        let app = try run.serviceApp(step.path)
        for c in PushServiceMalformed.cases {
            let body = try c.body.map {
                try NotifyStep.fill(
                    $0, marker: "\(run.runTag)-bad", appId: app.appId, app: .own,
                    externalIds: to.map { run.pushServiceExternalId($0) })
            }
            let answer = try await run.pushServiceRequest(
                "POST", route: "notifications", json: body, raw: c.raw.map { Array($0.utf8) }, auth: .key,
                step: step.path)
            let errors = answer.json?["errors"]?.arrayValue
            let ok =
                answer.status == 400 && !(errors ?? []).isEmpty && (errors ?? []).allSatisfy { $0.stringValue != nil }
            if !ok {
                run.charge(
                    c.requirement, check: "\(step.path) malformedNotifications: \(c.name)",
                    expected: "400 {\"errors\": [\"…\"]}",
                    actual: "\(answer.status) \(String(decoding: answer.body.prefix(300), as: UTF8.self))",
                    evidence: [answer.evidence])
            }
        }
    }
}
