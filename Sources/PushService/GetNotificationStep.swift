import Conformance
import Foundation
import InputLimits
import JSON
import Reports

/// `getNotification:` — `GET /notifications/{id}?app_id=` for a notification an earlier `notify` saved, asked again
/// until `remaining` is 0 or `within` runs out; then the answer's fields and types (PUSHSVC-COUNT-1), its settling
/// (`remaining` 0, `completed_at` set, PUSHSVC-COUNT-3) and its counts against what the mocks accepted and refused
/// (`requirement`, PUSHSVC-COUNT-2 by default) are judged, and `expect` (status, body matchers) if given.
struct GetNotificationStep: DecodableStep, Equatable {
    /// The `save` name of the `notify` whose notification to read.
    var notification: String
    var within: ScenarioDuration
    /// The requirement a count that disagrees with the mocks fails.
    var requirement: RequirementID
    var auth: PushServiceAuth
    var save: String?
    var expect: ResponseExpectation?

    static let keywords = ["getNotification"]
    var explanation: String? { "Reads a notification's state" }

    static func decode(_ keyword: String, _ node: YAMLNode, path: String, decoder: inout ScenarioDecoder) -> Self? {
        decoder.decodeGetNotification(node, path)
    }

    typealias R = PushServiceRequirement

    func perform(_ step: ScenarioStep, with run: isolated any RunContext) async throws {
        guard let sent = run.pushService.notifications.last(where: { $0.save == notification }) else {
            throw HarnessStop(message: "\(step.path): no notify saved as '\(notification)'")
        }
        guard let id = sent.id else {
            throw HarnessStop(message: "\(step.path): the notification '\(notification)' got no id")
        }
        let what = "\(step.path) getNotification \(notification)"
        let deadline = ContinuousClock.now + within.duration
        var answer = try await run.pushServiceRequest(
            "GET", route: "notification", values: ["notificationId": id], auth: auth, step: step.path)
        var readAtMs = run.nowMs
        // Asked again while the service is still sending (only a 200 with remaining > 0 is worth waiting for).
        while answer.status == 200, let left = answer.json?["remaining"]?.doubleValue, left > 0,
            ContinuousClock.now < deadline
        {
            try await Task.sleep(for: .milliseconds(250))
            answer = try await run.pushServiceRequest(
                "GET", route: "notification", values: ["notificationId": id], auth: auth, step: step.path)
            readAtMs = run.nowMs
        }
        if let save { run.resolver.saved[save] = answer.json ?? .null }
        if expect != nil || answer.status != 200 {
            try run.judgeStatus(answer, expect, what: what)
        }
        guard answer.status == 200, let json = answer.json else { return }
        let problems = Self.fieldProblems(json, id: id)
        if !problems.isEmpty {
            run.charge(
                R.countFields, check: "\(what): the answer's fields",
                expected:
                    "id, successful, failed, errored, remaining (numbers), queued_at (a time), completed_at",
                actual: problems.joined(separator: "; "), evidence: [answer.evidence])
            return
        }
        let remaining = json["remaining"]?.doubleValue ?? -1
        let (queued, completed) = (Self.seconds(json["queued_at"]), Self.seconds(json["completed_at"]))
        if remaining != 0 || completed == nil {
            run.charge(
                R.settles, check: "\(what): settled within \(within)",
                expected: "remaining 0 and completed_at set (a time, not before queued_at)",
                actual:
                    "remaining \(json["remaining"]?.serialized() ?? "absent"), completed_at \(json["completed_at"]?.serialized() ?? "absent")",
                evidence: [answer.evidence])
            return
        }
        if let queued, let completed, completed < queued {
            run.charge(
                R.settles, check: "\(what): completed_at", expected: "not before queued_at (\(queued))",
                actual: "\(completed)", evidence: [answer.evidence])
        }
        let devices = sent.devices.compactMap { run.pushService.devices[$0] }
        let captures = run.mocks.log.captures { PushServicePush($0) != nil }
        let want = PushServiceCounts.expected(
            for: sent, devices: devices, captures: captures, notifications: run.pushService.notifications,
            readAtMs: readAtMs)
        guard want.ambiguous.isEmpty else {
            run.record(
                .note, "push-service",
                "\(what): the counts are not judged: a push to \(want.ambiguous.joined(separator: ", ")) fits this "
                    + "notification and another one alike (unattributed)")
            return
        }
        let got = (
            Self.count(json["successful"]), Self.count(json["failed"]), Self.count(json["errored"])
        )
        if !want.admits(successful: got.0, failed: got.1, errored: got.2) {
            var expected = want.expectedText
            if want.unattempted > 0 { expected += " (\(want.unattempted) device(s) got no push at all)" }
            run.charge(
                requirement, check: "\(what): the counts against what the APNs/FCM mocks accepted and refused",
                expected: expected, actual: "successful \(got.0), failed \(got.1), errored \(got.2)",
                evidence: [answer.evidence])
        }
    }

    /// What is missing or of the wrong type in an answer.
    static func fieldProblems(_ json: JSONValue, id: String) -> [String] {
        var out: [String] = []
        if json["id"]?.stringValue != id {
            out.append("id \(json["id"]?.serialized() ?? "absent"), expected \"\(id)\"")
        }
        if seconds(json["queued_at"]) == nil {
            out.append(
                "queued_at \(json["queued_at"]?.serialized() ?? "absent") (neither unix seconds nor an ISO 8601 time)")
        }
        for name in ["successful", "failed", "errored", "remaining"] {
            guard let n = json[name]?.doubleValue else {
                out.append("\(name) \(json[name]?.serialized() ?? "absent") (not a number)")
                continue
            }
            if n < 0 || n != n.rounded() { out.append("\(name) \(n) (not a whole number ≥ 0)") }
        }
        switch json["completed_at"] {
        case .null?: break
        case let v? where seconds(v) != nil: break
        case let v?: out.append("completed_at \(v.serialized()) (neither null nor a time)")
        case nil: out.append("completed_at absent")
        }
        return out
    }

    /// A time as the seed's counts may give it: unix seconds (OneSignal's form) or an ISO 8601 text (the seed
    /// names the fields, not their format); nil for anything else.
    /// A count the backend reported, or -1 when it is not a number of notifications (1e30 is not one).
    static func count(_ value: JSONValue?) -> Int {
        value?.doubleValue.flatMap { CheckedNumber.int64($0, in: 0...(1 << 40)) }.map { Int($0) } ?? -1
    }

    static func seconds(_ value: JSONValue?) -> Double? {
        if let n = value?.doubleValue { return n }
        guard let text = value?.stringValue else { return nil }
        if let date = ISO8601DateFormatter().date(from: text) { return date.timeIntervalSince1970 }
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions.insert(.withFractionalSeconds)
        return fractional.date(from: text)?.timeIntervalSince1970
    }
}
