import Conformance
import HTTP
import JSON
import PushMocks

/// The push profile for one document, for `ringcheck check-payload`: the same rules as the
/// invariants, applied to whatever the document holds.
///
/// Accepted documents: a capture as the control API renders it (`GET /v1/captures` items, or the
/// whole `{"captures":[…]}` answer, which also gets the rules across pushes), an APNs body, an FCM
/// request or bare message, or a bare invitation. Without a capture there are no headers or arrival
/// time, so the header rules and the lower ttl bound are not judged.
public enum PayloadProfile: Sendable {
    /// Checks `document`; `kind` nil detects it. Throws when the kind cannot be told or contradicts `kind`.
    public static func check(
        _ document: JSONValue, kind: PayloadKind? = nil, context: InvariantContext = InvariantContext()
    ) throws(PayloadInputError) -> PayloadCheck {
        guard case .object = document else {
            throw PayloadInputError(
                "expected a JSON object (a capture, an APNs body, an FCM message or an invitation), "
                    + "got a JSON \(document.typeName)")
        }
        // MARK: Captures
        if let list = document["captures"]?.arrayValue {
            var pushes: [PushDocument] = []
            for (i, item) in list.enumerated() {
                guard let push = try pushDocument(capture: item, index: i, kind: kind) else { continue }
                pushes.append(push)
            }
            guard let first = pushes.first else {
                throw PayloadInputError("the captures list holds no APNs or FCM push")
            }
            let detected: PayloadKind? =
                pushes.allSatisfy { $0.kind == first.kind } ? (first.kind == .apns ? .apns : .fcm) : nil
            return PayloadCheck(
                kind: detected, form: "\(pushes.count) capture\(pushes.count == 1 ? "" : "s")",
                violations: InvariantChecker.check(pushes: pushes, context: context))
        }
        if isCapture(document) {
            guard let push = try pushDocument(capture: document, index: nil, kind: kind) else {
                throw PayloadInputError("the capture is of the OAuth mock, not a push")
            }
            return PayloadCheck(
                kind: push.kind == .apns ? .apns : .fcm, form: "a capture of the \(push.kind.rawValue) mock",
                violations: InvariantChecker.check(pushes: [push], context: context))
        }
        // MARK: Bare payloads
        let resolved: PayloadKind
        if let kind { resolved = kind } else { resolved = try detect(document) }
        switch resolved {
        case .apns:
            let push = PushDocument(kind: .apns, body: document)
            return PayloadCheck(
                kind: .apns, form: "an APNs body", violations: PushProfile.check(push, context: context))
        case .fcm:
            let body: JSONValue = document["message"] != nil ? document : ["message": document]
            let push = PushDocument(kind: .fcm, body: body)
            return PayloadCheck(
                kind: .fcm, form: document["message"] != nil ? "an FCM request" : "an FCM message",
                violations: PushProfile.check(push, context: context))
        case .invitation:
            let call = document["callId"]?.stringValue.flatMap { context.calls[$0] }
            let invitation = CallxInvitationSubject(invitation: document, path: "", call: call)
            // The APNs body's secret rules: the invitation is the whole payload.
            let push = CallxPushSubject(PushDocument(kind: .apns, body: document), context: context)
            let violations = InvitationRules.all.violations(of: invitation) + SecretRules.all.violations(of: push)
            return PayloadCheck(
                kind: .invitation, form: "an invitation", violations: violations.atLevels(context.levels))
        }
    }

    /// The kind a bare payload looks like.
    public static func detect(_ document: JSONValue) throws(PayloadInputError) -> PayloadKind {
        if document["message"] != nil { return .fcm }
        if document["aps"] != nil || document["callx"]?.objectValue != nil { return .apns }
        if document["type"] != nil || document["schemaVersion"] != nil || document["callId"] != nil {
            return .invitation
        }
        if ["data", "android", "token", "fid", "topic", "condition", "notification"].contains(where: {
            document[$0] != nil
        }) {
            return .fcm
        }
        throw PayloadInputError(
            "cannot tell what this is (no message, aps, callx, type or data member); pass --kind apns|fcm|invitation")
    }

    // MARK: Captures rendered as JSON

    static func isCapture(_ document: JSONValue) -> Bool {
        document["mock"]?.stringValue != nil && document["headers"]?.arrayValue != nil
    }

    /// A push from a capture as `Capture.json` renders it; nil for OAuth captures.
    static func pushDocument(capture: JSONValue, index: Int?, kind: PayloadKind?) throws(PayloadInputError)
        -> PushDocument?
    {
        let where_ = index.map { "captures[\($0)]" } ?? "the capture"
        guard isCapture(capture), let mock = capture["mock"]?.stringValue else {
            throw PayloadInputError("\(where_) is not a capture (it needs mock and headers)")
        }
        let pushKind: PushDocument.Kind
        switch mock {
        case "apns": pushKind = .apns
        case "fcm": pushKind = .fcm
        case "oauth": return nil
        default: throw PayloadInputError("\(where_): unknown mock \(Describe.quoted(mock))")
        }
        if let kind, kind.rawValue != pushKind.rawValue {
            throw PayloadInputError("--kind \(kind.rawValue) was given, but \(where_) is of the \(mock) mock")
        }
        var headers = HTTPHeaders()
        for pair in capture["headers"]?.arrayValue ?? [] {
            if let name = pair[0]?.stringValue, let value = pair[1]?.stringValue { headers.add(name, value) }
        }
        let text = capture["body"]?.stringValue
        var body: JSONValue? = nil
        var bodyError: String? = nil
        if let text {
            do { body = try JSONValue.parse(text) } catch {
                body = capture["json"]
                if body == nil { bodyError = error.description }
            }
        } else {
            body = capture["json"]
            if body == nil { bodyError = "the body is not UTF-8" }
        }
        let target = capture["target"]?.stringValue
        return PushDocument(
            kind: pushKind, sequence: capture["sequence"]?.intValue, arrivalMs: capture["arrivalMs"]?.int64Value,
            accepted: capture["outcome"]?.stringValue.map { $0 == "accepted" },
            environment: capture["environment"]?.stringValue.flatMap(APNsEnvironment.init(rawValue:)),
            method: capture["method"]?.stringValue,
            path: target.map { t in t.firstIndex(of: "?").map { String(t[..<$0]) } ?? t },
            httpVersion: capture["httpVersion"]?.stringValue, headers: headers,
            deviceToken: capture["deviceToken"]?.stringValue
                ?? PushDocument.installationAddress(ofMessage: body?["message"]),
            body: body, bodyText: text ?? body?.serialized(), bodyError: bodyError)
    }
}
