import Conformance
import HTTP
import JSON

/// Push service: registers an iOS device (alert and VoIP tokens) for a fresh External ID through the service
/// app's `devices` route, as `registerDevice` does, and removes it through its `device` route, as
/// `removeDevice` does (the target's routes and field names applied). The seed's only read, `GET
/// notification`, needs a notification sent first, which validate does not send.
extension PushServiceProfile: TargetProbing {
    /// For `validate --help`.
    public var probeSummary: String { "a device" }

    public func probe(_ target: Target, client: HTTPClient) async -> [TargetProbeLine] {
        guard let app = target.serviceApp else {
            return [TargetProbeLine(.failed, "registration: the target has no serviceApp: {appId, apiKey}")]
        }
        let body: JSONValue = [
            "external_id": .string(VirtualCallee.freshPrefix("ringcheck-validate")), "platform": "ios",
            "token": .string(RandomText.hex(bytes: 32)), "voipToken": .string(RandomText.hex(bytes: 32)),
            "sandbox": .bool(target.capabilities.contains(.sandbox)),
        ]
        var lines: [TargetProbeLine] = []
        let register = await send("POST", route: "devices", json: body, app: app, target: target, client: client)
        let devices = register.path
        let registered = register.status.map { (200..<300).contains($0) } ?? false
        lines.append(
            TargetProbeLine(
                registered ? .worked : .failed,
                "registration (registerDevice) of an iOS device: POST \(devices) → \(register.summary)"))
        guard registered else { return lines }
        lines.append(
            TargetProbeLine(
                .notApplicable, "read: the push service's only read (GET notification) needs a notification sent"))
        let answer = register.json.map { app.fieldNames.toSeed($0, route: "devices") }
        guard let value = answer?["id"], let id = value.stringValue ?? value.int64Value.map({ String($0) }) else {
            lines.append(
                TargetProbeLine(
                    .failed, "clean-up (removeDevice): the registration's answer has no 'id' to remove the device by"))
            return lines
        }
        let remove = await send(
            "DELETE", route: "device", values: ["deviceId": id], app: app, target: target, client: client)
        let device = remove.path
        let removed = remove.status.map { (200..<300).contains($0) } ?? false
        lines.append(
            TargetProbeLine(
                removed ? .worked : .failed,
                "clean-up (removeDevice) of that device: DELETE \(device) → \(remove.summary)"
                    + (removed ? "" : "; the service may keep it")))
        return lines
    }

    /// One request to the device route `route`, made as `ServiceApp.request` makes every push-service request
    /// (authenticated as the target says that route is); its path, status, JSON answer, and a summary for the line.
    func send(
        _ method: String, route: String, values: [String: String] = [:], json: JSONValue? = nil, app: ServiceApp,
        target: Target, client: HTTPClient
    ) async -> (path: String, status: Int?, json: JSONValue?, summary: String) {
        let request = app.request(route: route, values: values, json: json, auth: .none)
        do {
            let r = try await client.send(
                ClientRequest(
                    method: method, url: target.baseURL + request.path, headers: request.headers, body: request.body))
            let json = try? JSONValue.parse(r.body)
            return (request.path, r.status, json, TargetProbe.summary(status: r.status, json: json, error: nil))
        } catch {
            return (request.path, nil, nil, TargetProbe.summary(status: nil, json: nil, error: "\(error)"))
        }
    }
}
