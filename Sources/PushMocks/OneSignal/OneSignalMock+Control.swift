import HTTP
import JSON

/// The OneSignal mock's control endpoints, beside the shared ones on `RINGCHECK_CONTROL_URL`, routed by
/// `ControlAPI`'s table (`controlEndpoints`) and described in its OpenAPI document:
///
/// | method and path | does |
/// |---|---|
/// | `GET /v1/onesignal/apps?reveal=` | `{"apps":[{"role","appId","emptyAudience","recipients"}]}` (`apiKey` too with `reveal=true`) |
/// | `PUT` (or `PATCH`) `/v1/onesignal/apps/{role or appId}` | `{"emptyAudience":"notSubscribed"/"invalidAliases", "recipients": true/false}` (either or both): how that app answers a notification reaching nobody, and whether its answers carry `recipients` (today's API leaves it out) |
/// | `GET /v1/onesignal/subscriptions` | `{"subscriptions":[{"appId","app","externalId","devices"}]}` |
/// | `PUT` (or `POST`) `/v1/onesignal/subscriptions` | one `{"app":"standard"/"voip" or "appId", "externalId", "devices"?:1}`, an array, or `{"subscriptions":[…]}`; all or nothing; `devices: 0` unsubscribes; answers the whole list |
/// | `DELETE /v1/onesignal/subscriptions?app=&appId=&externalId=` | one user's (with `externalId`) or every subscription: `{"cleared":N}` |
/// | `DELETE /v1/onesignal/audience` | every subscription and answer choice (a new scenario): `{"cleared":N}` |
extension OneSignalMock: MockControlRoutes {
    /// The OneSignal control operations; `handleControl` switches over every case.
    enum ControlOperation: String, CaseIterable, Sendable {
        case oneSignalListApps, oneSignalSetApp, oneSignalPatchApp
        case oneSignalListSubscriptions, oneSignalPutSubscriptions, oneSignalPostSubscriptions
        case oneSignalDeleteSubscriptions, oneSignalResetAudience

        var endpoint: ControlEndpoint {
            switch self {
            case .oneSignalListApps: ControlEndpoint(rawValue, "GET", "/v1/onesignal/apps", query: ["reveal"])
            case .oneSignalSetApp: ControlEndpoint(rawValue, "PUT", "/v1/onesignal/apps/{app}")
            case .oneSignalPatchApp: ControlEndpoint(rawValue, "PATCH", "/v1/onesignal/apps/{app}")
            case .oneSignalListSubscriptions: ControlEndpoint(rawValue, "GET", "/v1/onesignal/subscriptions")
            case .oneSignalPutSubscriptions: ControlEndpoint(rawValue, "PUT", "/v1/onesignal/subscriptions")
            case .oneSignalPostSubscriptions: ControlEndpoint(rawValue, "POST", "/v1/onesignal/subscriptions")
            case .oneSignalDeleteSubscriptions:
                ControlEndpoint(
                    rawValue, "DELETE", "/v1/onesignal/subscriptions", query: ["app", "appId", "externalId"])
            case .oneSignalResetAudience: ControlEndpoint(rawValue, "DELETE", "/v1/onesignal/audience")
            }
        }
    }

    /// Every OneSignal control endpoint.
    public var controlEndpoints: [ControlEndpoint] { ControlOperation.allCases.map(\.endpoint) }

    /// Answers a request `ControlAPI`'s route table matched to one of `controlEndpoints`.
    public func handleControl(_ request: ControlRequest) async -> HTTPResponse {
        guard let operation = ControlOperation(rawValue: request.endpoint.operationID) else {
            return ControlAPI.error(500, "no OneSignal handler for \(request.endpoint)")
        }
        switch operation {
        case .oneSignalListApps:
            let reveal = ControlAPI.reveal(request.query)
            return ControlAPI.json(200, ["apps": .array(apps.map { appJSON($0, reveal: reveal) })])
        case .oneSignalSetApp, .oneSignalPatchApp:
            return putApp(reference: request.parameters["app", default: ""], request.http)
        case .oneSignalListSubscriptions:
            return ControlAPI.json(200, subscriptionsJSON)
        case .oneSignalPutSubscriptions, .oneSignalPostSubscriptions:
            return putSubscriptions(request.http)
        case .oneSignalDeleteSubscriptions:
            return deleteSubscriptions(request.query)
        case .oneSignalResetAudience:
            return ControlAPI.json(200, ["cleared": .int(audience.reset())])
        }
    }

    /// The app a control request names: a role (`standard`, `voip`) or an App ID.
    func app(reference: String) -> OneSignalApp? {
        OneSignalApp.Role(rawValue: reference).map { app($0) } ?? app(id: reference)
    }

    func appJSON(_ app: OneSignalApp, reveal: Bool) -> JSONValue {
        var m: [(key: String, value: JSONValue)] = [
            ("role", .string(app.role.rawValue)), ("appId", .string(app.appID)),
            ("emptyAudience", .string(audience.emptyAudienceAnswer(appId: app.appID).rawValue)),
            ("recipients", .bool(audience.answersRecipients(appId: app.appID))),
        ]
        if reveal { m.append(("apiKey", .string(app.apiKey))) }
        return .object(m)
    }

    var subscriptionsJSON: JSONValue {
        [
            "subscriptions": .array(
                audience.subscriptions.map { s in
                    [
                        "appId": .string(s.appId),
                        "app": self.app(id: s.appId).map { .string($0.role.rawValue) } ?? .null,
                        "externalId": .string(s.externalId), "devices": .int(s.devices),
                    ]
                })
        ]
    }

    func putApp(reference: String, _ request: HTTPRequest) -> HTTPResponse {
        guard let app = app(reference: reference) else {
            return ControlAPI.error(404, "no OneSignal app '\(reference)' (standard, voip or an App ID)")
        }
        let names = OneSignalEmptyAudienceAnswer.allCases.map(\.rawValue).joined(separator: " or ")
        let refusal = ControlAPI.error(
            400, "the body must be {\"emptyAudience\": \(names), \"recipients\": true or false} (either or both)")
        guard let body = try? JSONValue.parse(request.body), let members = body.objectValue, !members.isEmpty,
            members.allSatisfy({ $0.key == "emptyAudience" || $0.key == "recipients" })
        else { return refusal }
        let answer = body["emptyAudience"].map { $0.stringValue.flatMap(OneSignalEmptyAudienceAnswer.init(rawValue:)) }
        let recipients = body["recipients"].map(\.boolValue)
        // All or nothing: a bad member changes neither.
        if answer == .some(nil) || recipients == .some(nil) { return refusal }
        if let answer = answer ?? nil { audience.setEmptyAudienceAnswer(answer, appId: app.appID) }
        if let recipients = recipients ?? nil { audience.setAnswersRecipients(recipients, appId: app.appID) }
        return ControlAPI.json(200, appJSON(app, reveal: false))
    }

    func putSubscriptions(_ request: HTTPRequest) -> HTTPResponse {
        let body: JSONValue
        do {
            body = try JSONValue.parse(request.body)
        } catch {
            return ControlAPI.error(400, "the body must be JSON: \(error)")
        }
        let items: [JSONValue]
        if let array = body.arrayValue {
            items = array
        } else if let list = body["subscriptions"]?.arrayValue, body.objectValue?.count == 1 {
            items = list
        } else {
            items = [body]
        }
        var changes: [(appID: String, externalID: String, devices: Int)] = []
        var problems: [String] = []
        for (i, item) in items.enumerated() {
            let at = items.count > 1 ? "subscription \(i): " : ""
            guard let members = item.objectValue else {
                problems.append(at + "must be an object {app or appId, externalId, devices}")
                continue
            }
            var reference: String?
            var externalID: String?
            var devices = 1
            for (key, value) in members {
                switch key {
                case "app", "appId":
                    if reference != nil { problems.append(at + "give app or appId, not both") }
                    reference = value.stringValue
                    if reference == nil { problems.append(at + "\(key) must be a string") }
                case "externalId":
                    externalID = value.stringValue
                    if externalID?.isEmpty ?? true { problems.append(at + "externalId must be a non-empty string") }
                case "devices":
                    if let n = value.intValue, value.isIntegerLiteral, (0...1000).contains(n) {
                        devices = n
                    } else {
                        problems.append(at + "devices must be an integer 0…1000")
                    }
                default:
                    problems.append(at + "unknown field '\(key)' (known: app, appId, externalId, devices)")
                }
            }
            guard let reference, let externalID, !externalID.isEmpty else {
                if reference == nil { problems.append(at + "app (standard, voip) or appId is required") }
                if externalID == nil { problems.append(at + "externalId is required") }
                continue
            }
            guard let app = app(reference: reference) else {
                problems.append(at + "no OneSignal app '\(reference)' (standard, voip or an App ID)")
                continue
            }
            changes.append((app.appID, externalID, devices))
        }
        guard problems.isEmpty else {
            return ControlAPI.json(
                400,
                ["error": .string(problems.joined(separator: "; ")), "details": .array(problems.map { .string($0) })])
        }
        for change in changes {
            audience.subscribe(externalId: change.externalID, appId: change.appID, devices: change.devices)
        }
        return ControlAPI.json(200, subscriptionsJSON)
    }

    func deleteSubscriptions(_ query: [String: String]) -> HTTPResponse {
        guard let externalID = query["externalId"], !externalID.isEmpty else {
            return ControlAPI.json(200, ["cleared": .int(audience.clearSubscriptions())])
        }
        let chosen = query["app"] ?? query["appId"]
        let targets: [OneSignalApp]
        if let chosen {
            guard let app = app(reference: chosen) else {
                return ControlAPI.error(404, "no OneSignal app '\(chosen)' (standard, voip or an App ID)")
            }
            targets = [app]
        } else {
            targets = apps
        }
        let cleared = targets.filter { audience.unsubscribe(externalId: externalID, appId: $0.appID) }.count
        return ControlAPI.json(200, ["cleared": .int(cleared)])
    }
}
