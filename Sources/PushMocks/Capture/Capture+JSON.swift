import HTTP
import JSON

extension Capture {
    /// The capture as JSON for reports and the control API. Secrets are redacted unless
    /// `revealSecrets` is true: device tokens shortened (`ab12…9f3e`), JWTs shown as
    /// `<redacted jwt kid=…>`, access tokens and other `authorization` values as `<redacted>`.
    /// PEM private keys are never shown.
    public func json(revealSecrets: Bool = false) -> JSONValue {
        let reveal = revealSecrets
        let secrets = self.secrets  // made when read (see `setSecrets`): once
        func r(_ s: String) -> JSONValue { .string(Redaction.redact(s, secrets: secrets, reveal: reveal)) }
        var m: [(key: String, value: JSONValue)] = [
            ("sequence", .int(sequence)),
            ("arrivalMs", .int(arrivalMs)),
            ("mock", .string(mock.rawValue)),
        ]
        if let environment { m.append(("environment", .string(environment.rawValue))) }
        m.append(("authority", authority.map { r($0) } ?? .null))
        m.append(("addressedHost", addressedHost.map { .string($0.name) } ?? .null))
        m.append(("deviceToken", deviceToken.map { r($0) } ?? .null))
        if let fcmTarget {
            m.append(("fcmTarget", ["kind": .string(fcmTarget.kind.rawValue), "value": r(fcmTarget.value)]))
        }
        m.append(("method", r(method)))
        m.append(("target", r(target)))
        m.append(("httpVersion", .string(httpVersion.rawValue)))
        m.append(("connectionId", .int(connectionID)))
        m.append(("streamId", streamID.map { .int($0) } ?? .null))
        m.append(("headers", Self.headersJSON(headers, secrets: secrets, reveal: reveal)))
        m.append(contentsOf: Self.bodyJSON(body, secrets: secrets, reveal: reveal))
        if let json { m.append(("json", Redaction.redact(json, secrets: secrets, reveal: reveal))) }
        var response: [(key: String, value: JSONValue)] = [
            ("status", .int(self.response.status)),
            ("headers", Self.headersJSON(self.response.headers, secrets: secrets, reveal: reveal)),
        ]
        response.append(contentsOf: Self.bodyJSON(self.response.body, secrets: secrets, reveal: reveal))
        response.append(("sent", .bool(responseSent)))
        response.append(("directive", Self.directiveJSON(self.response.directive)))
        m.append(("response", .object(response)))
        m.append(("outcome", .string(outcome.isAccepted ? "accepted" : "rejected")))
        m.append(("reason", outcome.reason.map { .string($0) } ?? .null))
        m.append(("detail", detail.map { r($0) } ?? .null))
        if let fault {
            var f: [(key: String, value: JSONValue)] = [("ordinal", .int(fault.ordinal))]
            if case .object(let planMembers) = Redaction.redact(fault.plan.json, secrets: secrets, reveal: reveal) {
                f.append(contentsOf: planMembers)
            }
            m.append(("fault", .object(f)))
        } else {
            m.append(("fault", .null))
        }
        if let apns {
            var a: [(key: String, value: JSONValue)] = [("apnsId", .string(apns.apnsID))]
            a.append(("pushType", apns.pushType.map { r($0) } ?? .null))
            a.append(("effectivePushType", apns.effectivePushType.map { .string($0) } ?? .null))
            a.append(("topic", apns.topic.map { r($0) } ?? .null))
            a.append(("priority", apns.priority.map { .int($0) } ?? .null))
            a.append(("expiration", apns.expiration.map { .int($0) } ?? .null))
            a.append(("collapseId", apns.collapseID.map { r($0) } ?? .null))
            a.append(("providerTokenKeyId", apns.providerTokenKeyID.map { r($0) } ?? .null))
            m.append(("apns", .object(a)))
        }
        if let fcm {
            var f: [(key: String, value: JSONValue)] = [("project", r(fcm.project))]
            if let target = fcm.target {
                f.append(("target", ["kind": .string(target.kind.rawValue), "value": r(target.value)]))
            }
            f.append(("priority", fcm.priority.map { .string($0) } ?? .null))
            f.append(("ttlSeconds", fcm.ttlSeconds.map { .double($0) } ?? .null))
            f.append(("hasNotification", .bool(fcm.hasNotification)))
            f.append(("data", .object(fcm.data.sorted { $0.key < $1.key }.map { ($0.key, r($0.value)) })))
            f.append(("validateOnly", .bool(fcm.validateOnly)))
            m.append(("fcm", .object(f)))
        }
        if let oauthClient { m.append(("oauthClient", r(oauthClient))) }
        return .object(m)
    }

    static func headersJSON(_ headers: HTTPHeaders, secrets: [CaptureSecret], reveal: Bool) -> JSONValue {
        .array(
            headers.map { field in
                let value: String
                if !reveal && (field.name == "authorization" || field.name == "proxy-authorization") {
                    let redacted = Redaction.redact(field.value, secrets: secrets, reveal: false)
                    value = redacted == field.value ? "<redacted>" : redacted
                } else {
                    value = Redaction.redact(field.value, secrets: secrets, reveal: reveal)
                }
                return [
                    .string(Redaction.redact(field.name, secrets: secrets, reveal: reveal)), .string(value),
                ]
            })
    }

    /// `body` as text when it is UTF-8, else `bodyBase64`.
    static func bodyJSON(_ body: [UInt8], secrets: [CaptureSecret], reveal: Bool) -> [(key: String, value: JSONValue)] {
        if let text = String(validating: body, as: UTF8.self) {
            return [("body", .string(Redaction.redact(text, secrets: secrets, reveal: reveal)))]
        }
        // Binary bodies cannot hold a readable secret in a way we can find; show them only when revealing.
        return [("bodyBase64", .string(reveal ? base64(body) : "<\(body.count) bytes, not UTF-8>"))]
    }

    static func directiveJSON(_ directive: ConnectionDirective) -> JSONValue {
        switch directive {
        case .none: return "none"
        case .resetWithoutResponse: return "resetWithoutResponse"
        case .resetAfterResponse: return "resetAfterResponse"
        case .goawayAfterResponse(let code, let debug):
            return ["goawayAfterResponse": ["errorCode": .int(code), "debug": .string(debug)]]
        case .setMaxConcurrentStreams(let n): return ["setMaxConcurrentStreams": .int(n)]
        }
    }

    static func base64(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
        var out = ""
        var i = 0
        while i < bytes.count {
            let b0 = UInt32(bytes[i])
            let b1 = i + 1 < bytes.count ? UInt32(bytes[i + 1]) : 0
            let b2 = i + 2 < bytes.count ? UInt32(bytes[i + 2]) : 0
            let n = b0 << 16 | b1 << 8 | b2
            out.append(alphabet[Int(n >> 18 & 63)])
            out.append(alphabet[Int(n >> 12 & 63)])
            out.append(i + 1 < bytes.count ? alphabet[Int(n >> 6 & 63)] : "=")
            out.append(i + 2 < bytes.count ? alphabet[Int(n & 63)] : "=")
            i += 3
        }
        return out
    }
}
