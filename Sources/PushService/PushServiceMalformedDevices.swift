import Conformance
import JSON

/// The malformed `POST /api/v1/apps/{appId}/devices` bodies ringcheck sends (`malformedRegistrations`): no JSON
/// object, a member the seed's clients always send missing (`external_id`, `platform`, `token`), a device type
/// other than iOS/Android, a member of the wrong type or empty, a token an iOS device cannot have, a `voipToken`
/// for Android. Each must be refused with the seed's 400 `{"errors": [...]}` (PUSHSVC-REQ-5, SHOULD: the seed
/// shows that answer for notifications only and names the registration's members only in its client code).
enum PushServiceMalformedDevices {
    struct Case: Sendable {
        var name: String
        /// Raw bytes as they are, or a JSON body.
        var raw: String?
        var body: JSONValue?
    }

    /// Every case, for a registration under `externalId` (so a wrongly accepted one lands on no scenario user).
    static func cases(externalId: String) -> [Case] {
        let fcm = "fcm-bad-registration:APA91b" + RandomText.hex(bytes: 20)
        let apns = RandomText.hex(bytes: 32)
        func android(_ changes: [String: JSONValue?]) -> JSONValue {
            body([("external_id", .string(externalId)), ("platform", "android"), ("token", .string(fcm))], changes)
        }
        func ios(_ changes: [String: JSONValue?]) -> JSONValue {
            body([("external_id", .string(externalId)), ("platform", "ios"), ("token", .string(apns))], changes)
        }
        return [
            Case(name: "not JSON", raw: #"{"external_id": "#),
            Case(name: "a JSON array", raw: "[]"),
            Case(name: "a JSON string", raw: #""device""#),
            Case(name: "an empty body", raw: ""),
            Case(name: "external_id missing", body: android(["external_id": nil])),
            Case(name: "external_id a number", body: android(["external_id": 42])),
            Case(name: "external_id empty", body: android(["external_id": ""])),
            Case(name: "platform missing", body: android(["platform": nil])),
            Case(name: "platform unknown (windows)", body: android(["platform": "windows"])),
            Case(name: "platform a number", body: android(["platform": 1])),
            Case(name: "token missing", body: android(["token": nil])),
            Case(name: "token empty", body: android(["token": ""])),
            Case(name: "token a number", body: android(["token": 12345])),
            Case(name: "iOS token not hexadecimal", body: ios(["token": "not-an-apns-token"])),
            Case(name: "voipToken on an Android device", body: android(["voipToken": .string(apns)])),
            Case(name: "voipToken a number", body: ios(["voipToken": 7])),
            Case(name: "sandbox a string", body: ios(["sandbox": "true"])),
        ]
    }

    /// `base` with `changes` applied in place (a nil value removes the member), new members appended.
    static func body(_ base: [(key: String, value: JSONValue)], _ changes: [String: JSONValue?]) -> JSONValue {
        var members = base.compactMap { m -> (key: String, value: JSONValue)? in
            guard let change = changes[m.key] else { return m }
            return change.map { (key: m.key, value: $0) }
        }
        for (key, value) in changes.sorted(by: { $0.key < $1.key }) where !base.contains(where: { $0.key == key }) {
            if let value { members.append((key: key, value: value)) }
        }
        return .object(members)
    }
}

extension PushServiceMalformedDevices.Case {
    init(name: String, body: JSONValue) { self.init(name: name, raw: nil, body: body) }
}

/// `malformedRegistrations: {user}` — sends every body of `PushServiceMalformedDevices.cases` to the devices route
/// as the user's app would (external ID `<run tag>-<user>-bad`); each must be refused with 400 and a non-empty
/// `errors` array of strings.
struct MalformedRegistrationsStep: DecodableStep, Equatable {
    var user: String

    static let keywords = ["malformedRegistrations"]

    static func decode(_ keyword: String, _ node: YAMLNode, path: String, decoder: inout ScenarioDecoder) -> Self? {
        decoder.decodeMalformedRegistrations(node, path)
    }

    func perform(_ step: ScenarioStep, with run: isolated any RunContext) async throws {
        let externalId = run.pushServiceExternalId(user) + "-bad"
        for c in PushServiceMalformedDevices.cases(externalId: externalId) {
            let answer = try await run.pushServiceRequest(
                "POST", route: "devices", json: c.body, raw: c.raw.map { Array($0.utf8) }, auth: .none,
                step: step.path)
            let errors = answer.json?["errors"]?.arrayValue ?? []
            if !(answer.status == 400 && !errors.isEmpty && errors.allSatisfy { $0.stringValue != nil }) {
                run.charge(
                    PushServiceRequirement.malformedDevice, check: "\(step.path) malformedRegistrations: \(c.name)",
                    expected: "400 {\"errors\": [\"…\"]}",
                    actual: "\(answer.status) \(String(decoding: answer.body.prefix(300), as: UTF8.self))",
                    evidence: [answer.evidence])
            }
        }
    }
}
