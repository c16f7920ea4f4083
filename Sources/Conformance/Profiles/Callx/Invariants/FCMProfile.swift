import JSON

/// The invitation and stop signals over FCM HTTP v1 (seed sections "Android: FCM invitation" and
/// "Android: push signals (3.0.1)").
///
/// | rule | requirement |
/// |---|---|
/// | POST `/v1/projects/<id>/messages:send` with `authorization: Bearer <OAuth token>` | CALLX-FCM-1 (SHOULD) |
/// | the message targets a registration `token` or `fid` (not a topic or condition) | CALLX-FCM-2 |
/// | invitation: `android.priority` HIGH (any case) | CALLX-FCM-3 |
/// | invitation: no `notification` block anywhere in the message | CALLX-FCM-4 |
/// | `data.callx` a string holding the callx JSON object | CALLX-FCM-5 |
/// | invitation: `android.ttl` whole seconds within [floor((expiresAtMs − arrival)/1000), ceil((expiresAtMs − issuedAtMs)/1000)] | CALLX-FCM-6 |
/// | invitation: `android.ttl` never `0s` | CALLX-FCM-7 |
/// | `call.ended` / `call.accepted` signals: normal priority (absent or NORMAL) | CALLX-FCM-8 |
/// | `call.ended` signals carry a reason | CALLX-FCM-9 |
///
/// A message without `data.callx` is not a Callx message and is not judged (beyond secrets).
enum FCMProfile {
    static func check(_ push: PushDocument, context: InvariantContext, into r: inout ViolationRecorder) {
        // MARK: Request line
        if let method = push.method, method != "POST" {
            r.add("CALLX-FCM-1", "method", expected: "POST", actual: method)
        }
        if let path = push.path, !(path.hasPrefix("/v1/projects/") && path.hasSuffix("/messages:send")) {
            r.add("CALLX-FCM-1", "path", expected: "/v1/projects/<project>/messages:send", actual: path)
        }
        if let headers = push.headers {
            let auth = headers["authorization"]
            if !(auth.map { $0 == "<redacted>" || $0.lowercased().hasPrefix("bearer ") } ?? false) {
                r.add(
                    "CALLX-FCM-1", "headers.authorization", expected: "Bearer <OAuth access token>",
                    actual: auth == nil ? "absent" : "another scheme")
            }
        }

        // MARK: Message and callx
        guard let body = push.body else {
            r.add("CALLX-FCM-5", "body", expected: "a JSON message", actual: push.bodyError ?? "no body")
            return
        }
        guard let message = body["message"], case .object = message else {
            r.add("CALLX-FCM-5", "message", expected: "an object", actual: Describe.value(body["message"]))
            return
        }
        guard let raw = message["data"]?["callx"] else { return }
        let callx: JSONValue
        switch raw {
        case .string(let text):
            do {
                callx = try JSONValue.parse(text)
            } catch {
                r.add("CALLX-FCM-5", "message.data.callx", expected: "a string holding JSON", actual: error.description)
                return
            }
            guard case .object = callx else {
                r.add(
                    "CALLX-FCM-5", "message.data.callx", expected: "a string holding a JSON object",
                    actual: "a string holding a JSON \(callx.typeName)")
                return
            }
        case .object:
            // FCM data values are strings; judge the rest as if it had been one.
            r.add("CALLX-FCM-5", "message.data.callx", expected: "a string holding the JSON", actual: "an object")
            callx = raw
        default:
            r.add(
                "CALLX-FCM-5", "message.data.callx", expected: "a string holding the JSON", actual: Describe.value(raw))
            return
        }
        // `fid` (firebase-admin 7.x) addresses one installation as `token` does.
        let target = ["token", "fid", "topic", "condition"].first { message[$0] != nil }
        if !(target.map(PushDocument.addressesInstallation) ?? false)
            || (target.flatMap { message[$0]?.stringValue } ?? "").isEmpty
        {
            r.add(
                "CALLX-FCM-2", "message.\(target ?? "token")",
                expected: "the installation's registration token (token or fid)",
                actual: target.map {
                    PushDocument.addressesInstallation($0) ? Describe.value(message[$0]) : "a \($0) target"
                } ?? "absent")
        }
        let android = message["android"]
        let priority = android?["priority"]
        let type = callx["type"]?.stringValue
        switch type {
        case "call.invited":
            if priority?.stringValue?.uppercased() != "HIGH" {
                r.add(
                    "CALLX-FCM-3", "message.android.priority", expected: "\"HIGH\"",
                    actual: priority == nil ? "absent (FCM then uses NORMAL)" : Describe.value(priority))
            }
            for path in notificationPaths(message, at: "message") {
                r.add("CALLX-FCM-4", path, expected: "no notification block (data-only)", actual: "present")
            }
            let call = context.calls[callx["callId"]?.stringValue ?? ""]
            checkTTL(push, android: android, callx: callx, call: call, into: &r)
            InvitationProfile.check(callx, path: "message.data.callx→", call: call, into: &r)
        case "call.ended", "call.accepted":
            if let priority, priority.stringValue?.uppercased() != "NORMAL" {
                r.add(
                    "CALLX-FCM-8", "message.android.priority", expected: "normal priority (\"NORMAL\" or absent)",
                    actual: Describe.value(priority))
            }
            if type == "call.ended", callx["reason"]?.stringValue == nil {
                r.add(
                    "CALLX-FCM-9", "message.data.callx→reason", expected: "a reason (e.g. \"remoteEnded\")",
                    actual: Describe.value(callx["reason"]))
            }
        default:
            break
        }
    }

    /// Paths of every `notification` member of the message outside its data maps.
    static func notificationPaths(_ value: JSONValue, at path: String) -> [String] {
        guard case .object(let members) = value else { return [] }
        var out: [String] = []
        for (key, member) in members where key != "data" {
            if key == "notification" { out.append(path + "." + key) }
            out += notificationPaths(member, at: path + "." + key)
        }
        return out
    }

    // MARK: TTL

    /// `android.ttl` as protobuf Duration JSON: seconds with up to nine fraction digits and an `s`.
    static func ttlSeconds(_ text: String) -> (whole: Int64, fractional: Bool)? {
        guard text.hasSuffix("s") else { return nil }
        let number = text.dropLast()
        let parts = number.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, let intPart = parts.first, !intPart.isEmpty, intPart.utf8.count <= 12,
            intPart.allSatisfy({ $0.isASCII && $0.isNumber }), let whole = Int64(intPart)
        else { return nil }
        var fractional = false
        if parts.count == 2 {
            let frac = parts[1]
            guard !frac.isEmpty, frac.count <= 9, frac.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            fractional = frac.contains { $0 != "0" }
        }
        return (whole, fractional)
    }

    /// The ttl must be whole seconds, never zero, and lie between the seconds left at arrival (rounded
    /// down) and the seconds left when the invitation was issued (rounded up): a backend may round
    /// either way and builds the message somewhere between issuing and arrival.
    static func checkTTL(
        _ push: PushDocument, android: JSONValue?, callx: JSONValue, call: CallTimeline?,
        into r: inout ViolationRecorder
    ) {
        let path = "message.android.ttl"
        guard let raw = android?["ttl"] else {
            r.add(
                "CALLX-FCM-6", path, expected: "the whole seconds left until expiresAtMs",
                actual: "absent (FCM then keeps it 4 weeks)")
            return
        }
        guard let text = raw.stringValue, let ttl = ttlSeconds(text) else {
            r.add(
                "CALLX-FCM-6", path, expected: "a duration in whole seconds such as \"30s\"",
                actual: Describe.value(raw))
            return
        }
        if ttl.whole == 0 && !ttl.fractional {
            r.add("CALLX-FCM-7", path, expected: "more than 0s", actual: Describe.quoted(text))
            return
        }
        if ttl.fractional {
            r.add("CALLX-FCM-6", path, expected: "whole seconds", actual: Describe.quoted(text))
            return
        }
        guard let expires = ValueRules.millis(callx["expiresAtMs"]) ?? call?.expiresAtMs else { return }
        let issued = ValueRules.millis(callx["issuedAtMs"]) ?? call?.createdAtMs
        var low = push.arrivalMs.map { ValueRules.floorSeconds(expires - $0) }
        var high = issued.map { ValueRules.ceilSeconds(expires - $0) }
        if let l = low, let h = high, l > h { (low, high) = (h, l) }  // clocks disagree: judge the union
        let tooLow = low.map { ttl.whole < $0 } ?? false
        let tooHigh = high.map { ttl.whole > $0 } ?? false
        guard tooLow || tooHigh else { return }
        var bounds: [String] = []
        if let low { bounds.append("at least \(low)s (floor((expiresAtMs − arrival)/1000))") }
        if let high {
            let from = ValueRules.millis(callx["issuedAtMs"]) != nil ? "issuedAtMs" : "createdAtMs"
            bounds.append("at most \(high)s (ceil((expiresAtMs − \(from))/1000))")
        }
        r.add("CALLX-FCM-6", path, expected: bounds.joined(separator: " and "), actual: Describe.quoted(text))
    }
}
