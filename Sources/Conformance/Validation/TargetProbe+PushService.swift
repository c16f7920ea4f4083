import HTTP
import JSON

/// Push service: registers an iOS device (alert and VoIP tokens) for a fresh External ID through the service
/// app's `devices` route, as `registerDevice` does, and removes it through its `device` route, as
/// `removeDevice` does (the target's routes and field names applied). The seed's only read, `GET
/// notification`, needs a notification sent first, which validate does not send.
extension PushServiceProfile: TargetProbing {
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
        let devices = app.route("devices", seedRoute: PushServiceRoutes.seed["devices"] ?? "/", ["appId": app.appId])
        let register = await send(
            "POST", devices, body: app.fieldNames.toService(body, route: "devices"), route: "devices", app: app,
            target: target, client: client)
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
        let device = app.route(
            "device", seedRoute: PushServiceRoutes.seed["device"] ?? "/", ["appId": app.appId, "deviceId": id])
        let remove = await send("DELETE", device, body: nil, route: "device", app: app, target: target, client: client)
        let removed = remove.status.map { (200..<300).contains($0) } ?? false
        lines.append(
            TargetProbeLine(
                removed ? .worked : .failed,
                "clean-up (removeDevice) of that device: DELETE \(device) → \(remove.summary)"
                    + (removed ? "" : "; the service may keep it")))
        return lines
    }

    /// One request to the device route `route`, authenticated as the target says that route is (the seed's take
    /// no key); its status, JSON answer, and a summary for the line.
    func send(
        _ method: String, _ path: String, body: JSONValue?, route: String, app: ServiceApp, target: Target,
        client: HTTPClient
    ) async -> (status: Int?, json: JSONValue?, summary: String) {
        var headers = HTTPHeaders()
        if body != nil { headers.add("content-type", "application/json") }
        if let value = (app.routeAuth[route] ?? .none).header(app) { headers.add("authorization", value) }
        do {
            let r = try await client.send(
                ClientRequest(
                    method: method, url: target.baseURL + path, headers: headers,
                    body: body.map { Array($0.serialized().utf8) } ?? []))
            let json = try? JSONValue.parse(r.body)
            return (r.status, json, TargetProbe.summary(status: r.status, json: json, error: nil))
        } catch {
            return (nil, nil, TargetProbe.summary(status: nil, json: nil, error: "\(error)"))
        }
    }
}

/// OneSignal: the backend's kit addresses OneSignal users by External ID and registers no device with the
/// backend, and its operations send pushes; validate neither registers nor reads.
extension OneSignalProfile: TargetProbing {
    public func probe(_ target: Target, client: HTTPClient) async -> [TargetProbeLine] {
        [
            TargetProbeLine(
                .notApplicable,
                "registration and read: a OneSignal kit server registers no device (its users are OneSignal "
                    + "External IDs) and every operation it offers sends a push")
        ]
    }
}
