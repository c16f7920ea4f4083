import Conformance
import Foundation
import HTTP
import JSON
import Reports
import Signing

/// `webhook:` — ringcheck plays DialStack: builds an event (or takes a saved one, for a redelivery), writes it in
/// one JSON format, signs it as `signature` says and posts it to the target's webhook.
struct WebhookStep: DecodableStep, Equatable {
    /// The event type of a new event.
    var type: String
    /// The scenario user the event addresses (`data.user_id`); nil leaves `data.user_id` out.
    var user: String?
    /// `data` fields a new event leaves out.
    var omit: [String]
    /// A saved event to deliver again (a redelivery: same `id`, signed anew).
    var event: JSONValue?
    var signature: WebhookSignatureVariant
    var format: DialStackBodyFormat
    /// The name the event is saved under (`$ev.id`, `$ev.data.call_id`).
    var save: String?
    var expect: ResponseExpectation?

    // A webhook's body is raw bytes in a chosen format, which a race's JSON request cannot carry: not a request step.
    static let keywords = ["webhook"]
    var explanation: String? {
        "Sends the backend a webhook and waits for its answer (\(Int(DialStackTiming.webhookAnswerTimeoutSeconds)) s, "
            + "or the target's webhook.answerTimeout)"
    }

    static func decode(_ keyword: String, _ node: YAMLNode, path: String, decoder: inout ScenarioDecoder) -> Self? {
        decoder.decodeWebhook(node, path)
    }

    static let headerName = "x-dialstack-signature"

    /// The webhook's answer may take the target's `webhook.answerTimeout`.
    func answerAllowanceMs(on target: Target) -> Int {
        target.webhook.map { Int($0.answerTimeoutSeconds * 1000) } ?? 0
    }

    func perform(_ step: ScenarioStep, with run: isolated any RunContext) async throws {
        guard let endpoint = run.target.webhook else {
            throw HarnessStop(
                message: "\(step.path): the target has no webhook (a target file's webhook: {path, secret})")
        }
        let event = try self.event(in: run)
        guard let eventId = event["id"]?.stringValue, let type = event["type"]?.stringValue else {
            throw HarnessStop(message: "\(step.path): the event has no string id and type")
        }
        let callId = event.value(atPath: "data.call_id")?.stringValue
        // A redelivery is addressed to whoever its first delivery was.
        let addressee = self.event == nil ? user : run.dialStack.user(ofEvent: eventId)
        if let callId { run.claimCall(callId) }
        if let save { run.resolver.saved[save] = event }

        let body = format.body(event)
        let signed = signature.sign(body, secret: Array(endpoint.secret.utf8), now: Int64(Date().timeIntervalSince1970))
        var headers = HTTPHeaders()
        headers.add("content-type", "application/json")
        if let value = signed.headerValue { headers.add(Self.headerName, value) }
        let described = "\(type) \(eventId), signature \(signature.name), \(format.rawValue) body"
        let answer = await run.exchange(
            OutgoingRequest(
                "POST", endpoint.path, headers: headers, body: signed.body, actor: "dialstack",
                summary: "POST \(endpoint.path): \(described)", timeoutSeconds: endpoint.answerTimeoutSeconds))
        var data: [String: String] = [:]
        for member in event["data"]?.objectValue ?? [] { data[member.key] = member.value.stringValue }
        run.dialStack.deliveries.append(
            DialStackDelivery(
                eventId: eventId, type: type, callId: callId, user: data["user_id"] == nil ? nil : addressee,
                data: data, sentAtMs: answer.sentAtMs, signedValidly: signature.isValid, status: answer.status,
                format: format.rawValue))
        try run.judge(answer, expect, what: "\(step.path) webhook (\(described))")
    }

    /// The event to send: the saved one for a redelivery, else a new one for `user`.
    func event(in run: isolated any RunContext) throws -> JSONValue {
        if let event {
            let saved = try run.resolver.resolve(event)
            guard saved.objectValue != nil else {
                throw HarnessStop(message: "the event to redeliver is not an object")
            }
            return saved
        }
        let userId = try user.map { name -> String in
            let account = try run.user(name)
            return account.profileUserIds[DialStackProfile.profileName] ?? account.userId
        }
        return DialStackEvent.make(
            type: type, userId: userId, omit: Set(omit),
            accountId: run.target.webhook?.accountId ?? DialStackEvent.defaultAccountId)
    }
}
