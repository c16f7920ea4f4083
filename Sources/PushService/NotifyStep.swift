import Conformance
import JSON

/// `notify:` — ringcheck plays the app server: `POST /notifications` with `body` (any JSON; `app_id` filled in
/// unless given or `app: none`, `include_aliases.external_id` from `to`, and ringcheck's marker in `data`) or a
/// `raw` body, authenticated as `auth` says.
struct NotifyStep: DecodableStep, Equatable {
    enum App: String, Sendable, CaseIterable { case own, wrong, none }

    /// Scenario users whose devices the notification targets (`include_aliases.external_id`).
    var to: [String]?
    var body: JSONValue?
    /// Bytes sent as they are (a malformed request); no marker, no filling in.
    var raw: String?
    var app: App
    var auth: PushServiceAuth
    var save: String?
    var expect: ResponseExpectation?

    static let keywords = ["notify"]
    var explanation: String? { "Asks the push service to send a notification" }

    static func decode(_ keyword: String, _ node: YAMLNode, path: String, decoder: inout ScenarioDecoder) -> Self? {
        decoder.decodeNotify(node, path)
    }

    func perform(_ step: ScenarioStep, with run: isolated any RunContext) async throws {
        let app = try run.serviceApp(step.path)
        let marker = "\(run.runTag)-n\(run.pushService.notifications.count + 1)"
        var json: JSONValue?
        if raw == nil {
            json = try Self.fill(
                body.map { try run.resolver.resolve($0) } ?? .object([]), marker: marker,
                appId: app.appId, app: self.app,
                externalIds: to?.map { run.pushServiceExternalId($0) })
        }
        let targeted = Set(to ?? [])
        let devices = run.pushService.devices.values.filter { targeted.contains($0.user) && $0.removedAtMs == nil }
            .map(\.name).sorted()
        if let id = json?.value(atPath: "call.id")?.stringValue, !id.isEmpty { run.claimCall(id) }
        let sentAtMs = run.nowMs
        let answer = try await run.pushServiceRequest(
            "POST", route: "notifications", json: json, raw: raw.map { Array($0.utf8) }, auth: auth, step: step.path)
        let answeredAtMs = run.nowMs
        if let save { run.resolver.saved[save] = answer.json ?? .null }
        let id = answer.json?["id"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        run.pushService.notifications.append(
            PushServiceNotification(
                marker: marker, body: json ?? .null, sentAtMs: sentAtMs, status: answer.status, id: id,
                devices: devices, users: targeted.sorted(), save: save, answeredAtMs: answeredAtMs))
        try run.judgeStatus(answer, expect, what: "\(step.path) notify")
    }

    /// The body to send: `body` with `app_id`, the audience and the marker added where it has none.
    static func fill(_ body: JSONValue, marker: String, appId: String, app: App, externalIds: [String]?) throws
        -> JSONValue
    {
        guard case .object(var members) = body else { return body }
        func set(_ key: String, _ value: JSONValue) {
            if let i = members.firstIndex(where: { $0.key == key }) {
                members[i].value = value
            } else {
                members.append((key, value))
            }
        }
        if !members.contains(where: { $0.key == "app_id" }) {
            switch app {
            case .own: members.insert(("app_id", .string(appId)), at: 0)
            case .wrong: members.insert(("app_id", .string(RandomText.uuid())), at: 0)
            case .none: break
            }
        }
        if let externalIds, !members.contains(where: { $0.key == "include_aliases" }) {
            set("include_aliases", ["external_id": .array(externalIds.map { .string($0) })])
        }
        switch members.first(where: { $0.key == "data" })?.value {
        case nil: set("data", .object([(PushServiceNotification.markerKey, .string(marker))]))
        case .object(var data)?:
            data.append((PushServiceNotification.markerKey, .string(marker)))
            set("data", .object(data))
        default: break  // a malformed data member stays as the scenario wrote it
        }
        return .object(members)
    }
}
