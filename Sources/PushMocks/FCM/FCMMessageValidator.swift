import JSON

/// Checks an FCM HTTP v1 send request body the way the FCM API does and extracts its normalised fields.
///
/// Field names are accepted in both spellings protobuf JSON allows (`collapse_key`, `collapseKey`);
/// unknown fields, duplicate fields, wrong types, a missing or repeated target, non-string `data`
/// values, a bad `android.priority` or `android.ttl`, and payloads over 4096 bytes are INVALID_ARGUMENT.
///
/// Size rule (FCM documents "4096 bytes" without saying exactly what counts): ringcheck counts the UTF-8
/// bytes of every key and value in `message.data` and `android.data`, plus the compact JSON of
/// `message.notification` and `android.notification`. Targets, options and headers do not count.
struct FCMMessageValidator {
    static let payloadLimit = 4096
    static let maxTTLSeconds = 2_419_200.0

    static let requestFields: Set<String> = ["message", "validateOnly"]
    static let messageFields: Set<String> = [
        "name", "data", "notification", "android", "webpush", "apns", "fcmOptions", "token", "topic", "condition",
        "fid",
    ]
    static let notificationFields: Set<String> = ["title", "body", "image"]
    static let androidFields: Set<String> = [
        "collapseKey", "priority", "ttl", "restrictedPackageName", "data", "notification", "fcmOptions", "directBootOk",
        "restrictedSatelliteOk", "bandwidthConstrainedOk",
    ]
    static let apnsFields: Set<String> = ["headers", "payload", "fcmOptions", "liveActivityToken"]
    static let webpushFields: Set<String> = ["headers", "data", "notification", "fcmOptions"]
    static let fcmOptionsFields: Set<String> = ["analyticsLabel", "image", "link"]
    static let reservedDataKeys: Set<String> = ["from", "notification", "message_type"]

    let project: String

    /// The best-effort registration token of a body, read before validation (for fault matching and captures).
    static func peekTarget(_ json: JSONValue?) -> FCMTarget? {
        guard let message = json?["message"] else { return nil }
        for kind in [FCMTarget.Kind.token, .topic, .condition, .fid] {
            if let value = message[kind.rawValue]?.stringValue { return FCMTarget(kind: kind, value: value) }
        }
        return nil
    }

    /// Validates the parsed body; returns the normalised message or throws the error FCM would answer.
    func validate(_ body: JSONValue) throws(GoogleError) -> FCMMessageInfo {
        let request = try object(body, at: nil, known: Self.requestFields)
        var info = FCMMessageInfo(project: project)
        if let v = request["validateOnly"] {
            guard case .bool(let b) = v else { throw typeError("validate_only", "TYPE_BOOL", v) }
            info.validateOnly = b
        }
        guard let messageValue = request["message"], messageValue != .null else {
            throw GoogleError.invalidArgument("Message must be set.", field: "message")
        }
        let message = try object(messageValue, at: "message", known: Self.messageFields)

        info.target = try target(of: message)
        if let name = message["name"], name.stringValue == nil { throw typeError("message.name", "TYPE_STRING", name) }
        var payloadBytes = 0
        try validateDataAndNotification(of: message, into: &info, bytes: &payloadBytes)
        if let a = message["android"] { try validateAndroid(a, into: &info, bytes: &payloadBytes) }
        if let a = message["apns"] { try validateAPNs(a) }
        if let w = message["webpush"] { try validateWebpush(w) }
        if let o = message["fcmOptions"] { _ = try object(o, at: "message.fcm_options", known: Self.fcmOptionsFields) }

        guard payloadBytes <= Self.payloadLimit else {
            throw GoogleError.invalidArgument("Android message is too big")
        }
        return info
    }

    // MARK: Field helpers

    /// An object's members by lowerCamel name, rejecting unknown and duplicate fields.
    func object(_ value: JSONValue, at path: String?, known: Set<String>) throws(GoogleError) -> [String: JSONValue] {
        guard case .object(let members) = value else {
            throw typeError(path ?? "", "TYPE_MESSAGE", value)
        }
        var result: [String: JSONValue] = [:]
        // Protobuf JSON treats `null` as "field not set"; SDKs that serialise unset fields as null rely on it.
        for (key, member) in members where member != .null {
            let name = Self.lowerCamel(key)
            guard known.contains(name) else {
                let location = path.map { " at '\($0)'" } ?? ""
                throw GoogleError.invalidArgument(
                    "Invalid JSON payload received. Unknown name \"\(key)\"\(location): Cannot find field.",
                    field: path ?? "")
            }
            guard result[name] == nil else {
                throw GoogleError.invalidArgument(
                    "Invalid JSON payload received. Duplicate field \"\(key)\"\(path.map { " at '\($0)'" } ?? "").",
                    field: path ?? "")
            }
            result[name] = member
        }
        return result
    }

    /// A `map<string, string>`: every value must be a string.
    func stringMap(_ value: JSONValue, at path: String, checkReserved: Bool, bytes: inout Int) throws(GoogleError)
        -> [String: String]
    {
        guard case .object(let members) = value else { throw typeError(path, "TYPE_MESSAGE", value) }
        var result: [String: String] = [:]
        for (i, member) in members.enumerated() {
            guard case .string(let s) = member.value else {
                throw typeError("\(path)[\(i)].value", "TYPE_STRING", member.value)
            }
            if checkReserved {
                let lower = member.key.lowercased()
                if Self.reservedDataKeys.contains(lower) || lower.hasPrefix("google.") || lower.hasPrefix("gcm.") {
                    throw GoogleError.invalidArgument("Invalid data payload key: \(member.key)", field: path)
                }
            }
            result[member.key] = s
            bytes += member.key.utf8.count + s.utf8.count
        }
        return result
    }

    func typeError(_ path: String, _ type: String, _ value: JSONValue) -> GoogleError {
        var shown = value.serialized()
        if shown.utf8.count > 100 { shown = String(shown.prefix(100)) + "…" }
        return GoogleError.invalidArgument("Invalid value at '\(path)' (\(type)), \(shown)", field: path)
    }

    /// A protobuf Duration string (`"30s"`, `"29.500000000s"`) in 0…2,419,200 seconds.
    static func ttl(_ value: JSONValue) throws(GoogleError) -> Double {
        let invalid = GoogleError.invalidArgument(
            "Invalid value at 'message.android.ttl' (type.googleapis.com/google.protobuf.Duration), \(value)",
            field: "message.android.ttl")
        guard case .string(let s) = value, let seconds = parseDuration(s) else { throw invalid }
        guard seconds >= 0 && seconds <= maxTTLSeconds else {
            throw GoogleError.invalidArgument(
                "The TTL must be between 0 and 2419200 seconds (28 days), got \(s)", field: "message.android.ttl")
        }
        return seconds
    }

    /// Seconds of a Duration string: digits, optionally `.` and 1–9 digits, then `s`; an optional leading `-`.
    static func parseDuration(_ s: String) -> Double? {
        guard s.hasSuffix("s") else { return nil }
        let number = s.dropLast()
        let unsigned = number.hasPrefix("-") ? number.dropFirst() : number
        let parts = unsigned.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2, let whole = parts.first, !whole.isEmpty, whole.count <= 12,
            whole.allSatisfy({ $0.isASCII && $0.isNumber })
        else { return nil }
        if parts.count == 2 {
            let fraction = parts[1]
            guard (1...9).contains(fraction.count), fraction.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                return nil
            }
        }
        return Double(number)
    }

    /// `collapse_key` → `collapseKey`; names already in lowerCamel stay as they are.
    static func lowerCamel(_ name: String) -> String {
        guard name.contains("_") else { return name }
        var out = ""
        var upper = false
        for c in name {
            if c == "_" {
                upper = true
            } else {
                out += upper ? c.uppercased() : String(c)
                upper = false
            }
        }
        return out
    }

    static func isTokenByte(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
            || b == UInt8(ascii: "-") || b == UInt8(ascii: "_") || b == UInt8(ascii: ":") || b == UInt8(ascii: ".")
    }

    static func isTopicByte(_ b: UInt8) -> Bool {
        isTokenByte(b) && b != UInt8(ascii: ":") || b == UInt8(ascii: "~") || b == UInt8(ascii: "%")
    }
}
