import Conformance
import Foundation
import HTTP
import JSON
import PushMocks
import Signing

extension DialStackLoadWorkload {
    // MARK: One webhook

    /// Sends webhook number `index` as its script says, waits for the pushes a wake-up is due, and hands it
    /// to the judge.
    func runWebhook(_ index: Int) async {
        let script = DialStackLoadScript.script(for: index)
        recorder.unitStarted(kind: script.rawValue)
        let userIndex = index % users.count
        let user = users[userIndex]
        let dialStackUser = user.profileUserIds[DialStackProfile.profileName] ?? user.userId
        let event = DialStackEvent.make(
            type: script.eventType(index), userId: dialStackUser, omit: [], accountId: webhook.accountId)
        let unit = DialStackLoadUnit(
            script: script, eventId: event["id"]?.stringValue ?? "",
            callId: event.value(atPath: "data.call_id")?.stringValue ?? "",
            type: event["type"]?.stringValue ?? "", user: user.userId, signature: script.signature(index),
            devices: devices[userIndex])
        judge.open(unit)
        var failure: String?
        let first = await deliver(event, unit, signature: unit.signature)
        if first == nil { failure = "\(unit.name): no answer" }
        // A wake-up the backend took (2xx) is due on every device of its user; one refused wakes nobody.
        if unit.wakes && mocks != nil, let status = first, (200..<300).contains(status) {
            if !(await judge.waitForPushes(unit.callId, devices: unit.devices, timeout: pushBudget)) {
                recorder.problem("\(unit.name): not every device was pushed within the seed's 30 s")
            }
        }
        if script == .redelivery && first != nil {
            if await deliver(event, unit, signature: .valid) == nil {
                failure = "\(unit.name): no answer to the redelivery"
            }
        }
        recorder.unitFinished(failure: failure)
        judge.close(unit.callId)
    }

    /// Posts `event` signed as `signature` says (compact, as DialStack sends it) and records the delivery; the
    /// status, nil when the backend did not answer.
    func deliver(_ event: JSONValue, _ unit: DialStackLoadUnit, signature: WebhookSignatureVariant) async -> Int? {
        let signed = signature.sign(
            DialStackBodyFormat.compact.body(event), secret: Array(webhook.secret.utf8),
            now: Int64(Date().timeIntervalSince1970))
        var headers = HTTPHeaders()
        headers.add("content-type", "application/json")
        if let value = signed.headerValue { headers.add(WebhookStep.headerName, value) }
        let invoked = ContinuousClock.now
        let sentAtMs = LoadDriver.wallMs()
        var status: Int?
        do {
            let r = try await client.send(
                ClientRequest(method: "POST", url: target.baseURL + webhook.path, headers: headers, body: signed.body))
            status = r.status
        } catch {
            recorder.problem("\(unit.name): no answer: \(error)")
        }
        recorder.latency(
            "webhook", ms: LoadDriver.seconds(ContinuousClock.now - invoked) * 1000, answered: status != nil)
        var data: [String: String] = [:]
        for member in event["data"]?.objectValue ?? [] { data[member.key] = member.value.stringValue }
        judge.delivered(
            unit.callId,
            DialStackDelivery(
                eventId: unit.eventId, type: unit.type, callId: unit.callId, user: unit.user, data: data,
                sentAtMs: sentAtMs, signedValidly: signature.isValid, status: status))
        return status
    }

    // MARK: Before the webhooks

    /// Registers every user's virtual devices through the target's token API (its mapping, as `run` does); the
    /// reason when one cannot be registered.
    func registerDevices() async -> String? {
        for (user, list) in zip(users, devices) {
            for d in list {
                let registration = d.registration(on: target)
                let request = target.clientRequest(
                    target.wire(
                        PreparedRequest(
                            actor: user.userId, method: "PUT", path: registration.path, credentials: user.authHeaders,
                            body: registration.body, operation: .registerToken,
                            values: registration.values.merging(["userId": .string(user.userId)]) { a, _ in a },
                            actorInstallation: d.installationId)))
                let invoked = ContinuousClock.now
                var answer: String
                do {
                    let r = try await client.send(request)
                    recorder.latency("register", ms: LoadDriver.seconds(ContinuousClock.now - invoked) * 1000)
                    if (200..<300).contains(r.status) {
                        mocks?.providers.registry.register(
                            token: d.token, environment: d.environment, atMs: LoadDriver.wallMs())
                        continue
                    }
                    answer = "HTTP \(r.status)"
                } catch {
                    answer = "no answer (\(error))"
                }
                return
                    "registering \(d.name) (\(d.kind.rawValue)) of \(user.userId) failed: PUT \(registration.path) → \(answer)"
            }
        }
        return nil
    }
}
