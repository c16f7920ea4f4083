import Foundation
import HTTP
import JSON
import Reports
import Signing

/// `webhook:` — ringcheck plays DialStack: builds an event (or takes a saved one, for a redelivery), writes it in
/// one JSON format, signs it as `signature` says and posts it to the target's webhook.
struct WebhookStep: ProfileStep, Equatable {
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

    var keyword: String { "webhook" }

    static let headerName = "x-dialstack-signature"

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
        run.record(
            .request, "dialstack", "POST \(endpoint.path): \(described)", String(decoding: signed.body, as: UTF8.self))
        let sentAtMs = run.nowMs
        var status: Int?
        var responseBody: [UInt8] = []
        var failure: String?
        do {
            let response = try await run.client.send(
                ClientRequest(
                    method: "POST", url: run.target.baseURL + endpoint.path, headers: headers, body: signed.body)
            )
            status = response.status
            responseBody = response.body
            run.record(
                .response, "dialstack", "\(response.status)",
                String(decoding: response.body.prefix(2000), as: UTF8.self))
        } catch {
            failure = "\(error)"
            run.record(.response, "dialstack", "no response: \(error)")
        }
        var data: [String: String] = [:]
        for member in event["data"]?.objectValue ?? [] { data[member.key] = member.value.stringValue }
        run.dialStack.deliveries.append(
            DialStackDelivery(
                eventId: eventId, type: type, callId: callId, user: data["user_id"] == nil ? nil : addressee,
                data: data, sentAtMs: sentAtMs, signedValidly: signature.isValid, status: status))

        let what = "\(step.path) webhook (\(described))"
        guard let status else {
            throw HarnessStop(message: "\(what): the backend did not answer (\(failure ?? "?"))")
        }
        let evidence = Self.evidence(
            path: endpoint.path, headers: headers, body: signed.body, status: status, response: responseBody)
        guard let expect else {
            if !(200..<300).contains(status) {
                throw HarnessStop(message: "\(what): answered \(status), expected 2xx")
            }
            return
        }
        if !expect.anyStatus {
            let ok = expect.status.map { $0.contains(status) } ?? (200..<300).contains(status)
            if !ok {
                try run.fail(
                    expect.requirement, check: "\(what): response status",
                    expected: expect.status.map { $0.map(String.init).joined(separator: " or ") } ?? "2xx",
                    actual: "\(status)", evidence: [evidence])
            }
        }
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
        return DialStackEvent.make(type: type, userId: userId, omit: Set(omit))
    }

    /// The delivery as sent, byte for byte (the body is shown raw: its formatting is the point), and the answer.
    static func evidence(path: String, headers: HTTPHeaders, body: [UInt8], status: Int, response: [UInt8])
        -> EvidenceItem
    {
        var text = "POST \(path)\n"
        for field in headers { text += "\(field.name): \(field.value)\n" }
        text += "\n" + String(decoding: body, as: UTF8.self) + "\n\n→ \(status)\n"
        text += String(decoding: response.prefix(4000), as: UTF8.self)
        return EvidenceItem(kind: .httpExchange, title: "dialstack: POST \(path) → \(status)", text: text)
    }
}
