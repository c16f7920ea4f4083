import JSON

/// A device registration body, checked: `{"external_id", "platform", "token", "voipToken"?, "sandbox"?}`.
struct DeviceRegistration: Sendable, Equatable {
    var externalId: String
    var platform: ServiceDevice.Platform
    var token: String
    var voipToken: String?
    var sandbox: Bool

    /// Reads `body`; every problem found is one entry of the error list (a 400). `lenient` (the
    /// `accept-bad-registration` defect) stores whatever object it is given: missing or wrong members are
    /// taken as empty, an unknown platform as Android.
    init(json body: JSONValue, lenient: Bool = false) throws(ServiceErrors) {
        guard case .object = body else { throw ServiceErrors("the body must be a JSON object") }
        var errors: [String] = []
        let externalId = body["external_id"]?.stringValue ?? ""
        if externalId.isEmpty || externalId.utf8.count > 128 {
            errors.append("external_id must be a string of 1–128 bytes")
        }
        let platform = body["platform"]?.stringValue.flatMap(ServiceDevice.Platform.init(rawValue:))
        if platform == nil { errors.append("platform must be \"ios\" or \"android\"") }
        let token = body["token"]?.stringValue ?? ""
        if token.isEmpty || token.utf8.count > 4096 { errors.append("token must be a non-empty string") }
        var voipToken: String?
        if let value = body["voipToken"], !value.isNull {
            if platform != .ios { errors.append("voipToken is for iOS devices only") }
            if let text = value.stringValue, Self.isHexToken(text) {
                voipToken = text
            } else {
                errors.append("voipToken must be the PushKit token as hexadecimal digits")
            }
        }
        if platform == .ios && !token.isEmpty && !Self.isHexToken(token) {
            errors.append("an iOS token must be the APNs device token as hexadecimal digits")
        }
        var sandbox = false
        if let value = body["sandbox"], !value.isNull {
            if let flag = value.boolValue { sandbox = flag } else { errors.append("sandbox must be true or false") }
            if platform == .android { errors.append("sandbox is for iOS devices only") }
        }
        if lenient { errors = [] }
        guard errors.isEmpty else { throw ServiceErrors(errors) }
        self.externalId = externalId
        self.platform = platform ?? .android
        self.token = token
        self.voipToken = voipToken
        self.sandbox = sandbox
    }

    static func isHexToken(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 200
            && text.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66)
            }
    }
}
