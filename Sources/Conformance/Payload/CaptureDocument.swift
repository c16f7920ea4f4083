import HTTP
import JSON
import PushMocks

/// Captures read back from their JSON (`Capture.json`, as the control API's `GET /v1/captures` and the reports
/// render them), for judging pushes captured elsewhere: one capture, or the whole `{"captures": […]}` answer.
/// Redacted values stay redacted (a shortened device token still tells one device from another).
///
/// ```swift
/// let (captures, form) = try CaptureDocument.captures(in: try JSONValue.parse(bytes))
/// ```
public enum CaptureDocument {
    /// The captures in `document`, and what it was (`a capture of the apns mock`, `3 captures`).
    public static func captures(in document: JSONValue) throws(PayloadInputError) -> (captures: [Capture], form: String)
    {
        if let list = document["captures"]?.arrayValue {
            var out: [Capture] = []
            for (i, item) in list.enumerated() { out.append(try capture(item, at: "captures[\(i)]", index: i)) }
            return (out, "\(out.count) capture\(out.count == 1 ? "" : "s")")
        }
        guard document["mock"] != nil else {
            throw PayloadInputError(
                "expected a capture as the control API renders it (mock, headers, body, …) or {\"captures\": […]}")
        }
        let c = try capture(document, at: "the capture", index: 0)
        return ([c], "a capture of the \(c.mock.rawValue) mock")
    }

    /// One capture from its JSON; `place` names it in errors.
    static func capture(_ item: JSONValue, at place: String, index: Int) throws(PayloadInputError) -> Capture {
        guard let name = item["mock"]?.stringValue else {
            throw PayloadInputError("\(place) is not a capture: it has no mock")
        }
        guard let mock = MockProviderID(rawValue: name) else {
            throw PayloadInputError("\(place): unknown mock \(Describe.quoted(name))")
        }
        guard let headerList = item["headers"]?.arrayValue else {
            throw PayloadInputError("\(place) is not a capture: it has no headers list")
        }
        var headers = HTTPHeaders()
        for pair in headerList {
            guard let key = pair[0]?.stringValue, let value = pair[1]?.stringValue else { continue }
            headers.add(key, unredacted(value))
        }
        let body: [UInt8] =
            item["body"]?.stringValue.map { Array($0.utf8) } ?? item["json"].map { Array($0.serialized().utf8) } ?? []
        let arrivalMs = item["arrivalMs"]?.int64Value ?? 0
        var c = Capture(
            request: HTTPRequest(
                method: item["method"]?.stringValue ?? "POST", target: item["target"]?.stringValue ?? "/",
                headers: headers, body: body, arrivalMs: arrivalMs),
            mock: mock, arrivalMs: arrivalMs)
        c.json = item["json"] ?? (try? JSONValue.parse(body))
        c.sequence = item["sequence"]?.intValue ?? index + 1
        c.environment = item["environment"]?.stringValue.flatMap(APNsEnvironment.init(rawValue:))
        if let token = item["deviceToken"]?.stringValue { c.deviceToken = token }
        if let kind = item.value(atPath: "fcmTarget.kind")?.stringValue.flatMap(FCMTarget.Kind.init(rawValue:)),
            let value = item.value(atPath: "fcmTarget.value")?.stringValue
        {
            c.fcmTarget = FCMTarget(kind: kind, value: value)
        }
        if let apns = item["apns"] {
            c.apns = APNsPushInfo(
                pushType: apns["pushType"]?.stringValue, topic: apns["topic"]?.stringValue,
                priority: apns["priority"]?.intValue, expiration: apns["expiration"]?.int64Value,
                collapseID: apns["collapseId"]?.stringValue, apnsID: apns["apnsId"]?.stringValue ?? "",
                providerTokenKeyID: apns["providerTokenKeyId"]?.stringValue,
                effectivePushType: apns["effectivePushType"]?.stringValue)
        }
        var responseHeaders = HTTPHeaders()
        for pair in item.value(atPath: "response.headers")?.arrayValue ?? [] {
            if let key = pair[0]?.stringValue, let value = pair[1]?.stringValue { responseHeaders.add(key, value) }
        }
        c.response = HTTPResponse(
            status: item.value(atPath: "response.status")?.intValue ?? 0, headers: responseHeaders,
            body: item.value(atPath: "response.body")?.stringValue.map { Array($0.utf8) } ?? [])
        switch item["outcome"]?.stringValue {
        case "accepted"?: c.outcome = .accepted
        case "rejected"?: c.outcome = .rejected(reason: item["reason"]?.stringValue ?? "?")
        default: throw PayloadInputError("\(place): outcome must be \"accepted\" or \"rejected\"")
        }
        return c
    }

    /// A header value as the rules can read it: the control API shows a JWT as `<redacted jwt kid=…>`, which
    /// still says it was a JWT, so it becomes one with redacted parts (`redacted.jwt.kid=…`); every other value
    /// stays as rendered.
    static func unredacted(_ value: String) -> String {
        guard let start = value.range(of: "<redacted jwt"), value.hasSuffix(">") else { return value }
        let kid = value[start.upperBound...].dropLast().trimmingCharacters(in: .whitespaces)
        return value[..<start.lowerBound] + "redacted.jwt." + (kid.isEmpty ? "unknown" : kid)
    }
}
