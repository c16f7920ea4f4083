import Conformance
import JSON

/// `registerDevice:` — ringcheck plays the app on a scenario device: `POST /api/v1/apps/{appId}/devices` with the
/// device's external ID (its user's), platform and token; an iOS device also registers a VoIP token (PushKit's)
/// unless `voip: false`. The mocks know every token; a push to any of them is the device's.
struct RegisterDeviceStep: DecodableStep, Equatable {
    var device: String
    /// iOS: register a VoIP token beside the alert token.
    var voip: Bool
    var save: String?
    var expect: ResponseExpectation?

    static let keywords = ["registerDevice"]
    var explanation: String? { "Registers a device" }

    static func decode(_ keyword: String, _ node: YAMLNode, path: String, decoder: inout ScenarioDecoder) -> Self? {
        decoder.decodeRegisterDevice(node, path)
    }

    func perform(_ step: ScenarioStep, with run: isolated any RunContext) async throws {
        guard let identity = try? run.device(device), let alertToken = identity.tokens.first else {
            throw HarnessStop(message: "\(step.path): unknown device '\(device)'")
        }
        let ios = identity.kind == .apnsVoip
        var known = run.pushService.devices[device]
        if known == nil {
            var voipToken: String?
            // The first token is the app's alert token: APNs refuses a VoIP push to it.
            if ios { try run.setTokenKind(.alert, ofToken: alertToken, device: device) }
            if ios && voip {
                let token = RandomText.hex(bytes: 32)
                try run.addToken(token, toDevice: device)
                voipToken = token
            }
            known = PushServiceDevice(
                name: device, user: identity.user, platform: ios ? .ios : .android, token: alertToken,
                voipToken: voipToken, sandbox: identity.environment == .sandbox)
        }
        guard var d = known else { return }
        var body: [(key: String, value: JSONValue)] = [
            ("external_id", .string(run.pushServiceExternalId(d.user))), ("platform", .string(d.platform.rawValue)),
            ("token", .string(alertToken)),
        ]
        if let v = d.voipToken { body.append(("voipToken", .string(v))) }
        if ios { body.append(("sandbox", .bool(d.sandbox))) }
        let answer = try await run.pushServiceRequest(
            "POST", route: "devices", json: .object(body), auth: .none, step: step.path)
        if let save { run.resolver.saved[save] = answer.json ?? .null }
        // The seed fixes no ID format: a number is an ID as well as a string.
        if (200..<300).contains(answer.status), let value = answer.json?["id"],
            let id = value.stringValue ?? (value.int64Value.map { String($0) })
        {
            d.serviceId = id
        }
        run.pushService.devices[device] = d
        try run.judgeStatus(answer, expect, what: "\(step.path) registerDevice \(device)")
    }
}

/// `removeDevice:` — `DELETE /api/v1/apps/{appId}/devices/{id}` for a device registered earlier; from then on no
/// push may reach its tokens.
struct RemoveDeviceStep: DecodableStep, Equatable {
    var device: String
    var expect: ResponseExpectation?

    static let keywords = ["removeDevice"]
    var explanation: String? { "Removes a device" }

    static func decode(_ keyword: String, _ node: YAMLNode, path: String, decoder: inout ScenarioDecoder) -> Self? {
        decoder.decodeRemoveDevice(node, path)
    }

    func perform(_ step: ScenarioStep, with run: isolated any RunContext) async throws {
        guard var d = run.pushService.devices[device], let id = d.serviceId else {
            throw HarnessStop(
                message: "\(step.path): \(device) has no device ID: registerDevice it first; its answer must carry an "
                    + "'id' (a string or a number) for removeDevice to name it")
        }
        let answer = try await run.pushServiceRequest(
            "DELETE", route: "device", values: ["deviceId": id], auth: .none, step: step.path)
        if (200..<300).contains(answer.status) {
            d.removedAtMs = run.nowMs
            run.pushService.devices[device] = d
        }
        try run.judgeStatus(answer, expect, what: "\(step.path) removeDevice \(device)")
    }
}
