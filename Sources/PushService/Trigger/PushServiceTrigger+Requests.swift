import Conformance
import Foundation
import HTTP
import JSON
import PushMocks

extension PushServiceTrigger {
    // MARK: Devices

    /// Registers the phone (iOS, sandbox: an alert token and, unless the plan says not, a VoIP token) and the
    /// tablet (Android) for the external ID through `POST /api/v1/apps/{appId}/devices`; the reason when one
    /// cannot be registered.
    func registerDevices() async -> String? {
        guard plan.registerDevices else { return nil }
        let wanted = [
            PushServiceDevice(
                name: "phone", user: plan.externalId, platform: .ios, token: RandomText.hex(bytes: 32),
                voipToken: plan.voipToken ? RandomText.hex(bytes: 32) : nil, sandbox: true),
            PushServiceDevice(
                name: "tablet", user: plan.externalId, platform: .android, token: RandomText.fcmToken(),
                voipToken: nil, sandbox: false),
        ]
        let path = route("devices")
        for var d in wanted where !cleanedUp {
            var body: [(key: String, value: JSONValue)] = [
                ("external_id", .string(plan.externalId)), ("platform", .string(d.platform.rawValue)),
                ("token", .string(d.token ?? "")),
            ]
            if let v = d.voipToken { body.append(("voipToken", .string(v))) }
            if d.platform == .ios { body.append(("sandbox", .bool(d.sandbox))) }
            var headers = HTTPHeaders()
            headers.add("content-type", "application/json")
            let r = await send(
                "POST", plan.baseURL + path, headers: headers, body: Array(JSONValue.object(body).serialized().utf8))
            guard let status = r.status else {
                return
                    "the service at \(plan.baseURL) could not be reached: POST \(path) → no response (\(r.error ?? "?"))"
            }
            let json = try? JSONValue.parse(r.body)
            // The seed fixes no ID format: a number is an ID as well as a string.
            guard (200..<300).contains(status),
                let id = json?["id"].flatMap({ $0.stringValue ?? $0.int64Value.map { String($0) } })
            else {
                return "registering the virtual \(d.name) for \(plan.externalId) failed: POST \(path) → "
                    + Self.answerText(status, r.body, nil) + " (an answer with the device's id was expected)"
            }
            d.serviceId = id
            devices.append(d)
            let tokens =
                "token \(Redaction.shortToken(d.token ?? ""))"
                + (d.voipToken.map { ", VoIP token \(Redaction.shortToken($0))" } ?? "")
            emit(
                entry(
                    .setup,
                    "registered virtual \(d.name) for \(plan.externalId): \(d.platform.rawValue)\(d.platform == .ios ? " (sandbox)" : ""), \(tokens) → \(status), id \(id)",
                    [
                        ("device", .string(d.name)), ("externalId", .string(plan.externalId)),
                        ("platform", .string(d.platform.rawValue)), ("deviceId", .string(id)),
                    ]))
            // Ctrl-C came while this one registered: the clean-up already ran, so it is removed here.
            if cleanedUp { await removeDevices() }
        }
        return nil
    }

    /// Deletes the devices registered (`DELETE /api/v1/apps/{appId}/devices/{id}`), newest first; a refused delete
    /// is a note. The list is taken first, so a second caller (Ctrl-C during the first) deletes nothing twice.
    func removeDevices() async {
        let registered = devices.filter { $0.removedAtMs == nil }
        for i in devices.indices { devices[i].removedAtMs = devices[i].removedAtMs ?? Self.nowMs }
        for d in registered.reversed() {
            let path = route("device", ["deviceId": d.serviceId ?? ""])
            let r = await send("DELETE", plan.baseURL + path)
            let ok = r.status.map { (200..<300).contains($0) } ?? false
            let answer = Self.answerText(r.status, [], r.error)
            emit(
                entry(
                    ok ? .setup : .note,
                    ok
                        ? "removed virtual \(d.name) of \(plan.externalId): DELETE \(path) → \(answer)"
                        : "could not remove virtual \(d.name) of \(plan.externalId): DELETE \(path) → \(answer); the service may keep its tokens",
                    [("device", .string(d.name))]))
        }
    }

    /// A seed route with the app's ID (and `values`) filled in.
    func route(_ name: String, _ values: [String: String] = [:]) -> String {
        RequestTemplate.fill(
            PushServiceRoutes.seed[name] ?? "/", values.merging(["appId": plan.appId], uniquingKeysWith: { a, _ in a }))
    }

    /// The request headers of the app server: `Authorization: Key <REST key>`.
    var appServerHeaders: HTTPHeaders {
        var headers = HTTPHeaders()
        headers.add("content-type", "application/json")
        headers.add("authorization", "Key \(plan.apiKey)")
        return headers
    }

    // MARK: The notifications

    enum Sent { case sent, unanswered(String) }

    /// `POST /notifications` with the call's `incoming` or `ended`, or the notification, to the external ID, with
    /// ringcheck's marker in `data`; the answer is judged (200 with a non-empty `id` when devices are registered,
    /// PUSHSVC-REQ-4) and the request kept for the judging of its pushes and counts.
    func notify(ended: Bool, callId: String) async -> Sent {
        let marker = "\(tag)-n\(notifications.count + 1)"
        let body =
            (try? NotifyStep.fill(
                plan.body(ended: ended, callId: callId), marker: marker, appId: plan.appId, app: .own,
                externalIds: [plan.externalId])) ?? .null
        let sentAtMs = Self.nowMs
        let r = await send(
            "POST", plan.baseURL + "/notifications", headers: appServerHeaders, body: Array(body.serialized().utf8))
        let answeredAtMs = Self.nowMs
        answers.append(r.status)
        let json = try? JSONValue.parse(r.body)
        let id = json?["id"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        let what =
            plan.kind == .call
            ? "call \(ended ? "ended" : "incoming") \(callId.isEmpty ? "(id to be generated)" : callId)"
            : "notification"
        emit(
            entry(
                .action,
                "POST /notifications: \(what) to \(plan.externalId) → \(Self.answerText(r.status, r.body, r.error))",
                [
                    ("request", .string(plan.kind == .call ? (ended ? "ended" : "incoming") : "notification")),
                    ("status", r.status.map { .int($0) } ?? .null), ("notificationId", id.map { .string($0) } ?? .null),
                ], atMs: sentAtMs))
        guard let status = r.status else {
            return .unanswered("the service at \(plan.baseURL) could not be reached: \(r.error ?? "?")")
        }
        if status == 401 || status == 403 {
            return .unanswered(
                "the service refused the app's key (\(status)): check --app-id and --api-key (or their variables)")
        }
        notifications.append(
            PushServiceNotification(
                marker: marker, body: body, sentAtMs: sentAtMs, status: status, id: id,
                devices: devices.map(\.name), save: nil, answeredAtMs: answeredAtMs))
        if status != 200 {
            fail(
                R.accepted,
                "POST /notifications (\(what)) was answered \(status), expected 200 with the notification's id")
        } else if id == nil && !devices.isEmpty {
            fail(
                R.accepted,
                "POST /notifications (\(what)) was answered 200 without an id although \(plan.externalId) has devices")
        }
        return .sent
    }

    // MARK: The counts

    /// `GET /notifications/{id}?app_id=` until `remaining` is 0 or the budget runs out; the counts are put on the
    /// timeline and judged: the fields (PUSHSVC-COUNT-1), the settling (PUSHSVC-COUNT-3) and the counts against
    /// what the mocks accepted and refused (PUSHSVC-COUNT-2; PUSHSVC-CALL-6 for a call to an iPhone without VoIP
    /// token). False when the service did not answer.
    func readCounts(_ index: Int) async -> Bool {
        let n = notifications[index]
        guard let id = n.id else { return true }
        let path = route("notification", ["notificationId": id])
        let deadline = ContinuousClock.now + plan.budget
        var r = await send("GET", plan.baseURL + path, headers: appServerHeaders)
        var readAtMs = Self.nowMs
        while r.status == 200, let left = (try? JSONValue.parse(r.body))?["remaining"]?.doubleValue, left > 0,
            ContinuousClock.now < deadline
        {
            try? await Task.sleep(for: .milliseconds(250))
            r = await send("GET", plan.baseURL + path, headers: appServerHeaders)
            readAtMs = Self.nowMs
        }
        answers.append(r.status)
        let json = try? JSONValue.parse(r.body)
        let counts = ["successful", "failed", "errored", "remaining"].map { name in
            "\(name) \(json?[name]?.serialized() ?? "absent")"
        }.joined(separator: ", ")
        emit(
            entry(
                .action,
                "GET \(path) → \(r.status.map(String.init) ?? "no response (\(r.error ?? "?"))")"
                    + (json == nil ? "" : ": \(counts)"),
                [
                    ("request", "counts"), ("notificationId", .string(id)),
                    ("status", r.status.map { .int($0) } ?? .null),
                    ("counts", json ?? .null),
                ]))
        guard let status = r.status else { return false }
        let what = "the counts of \(id)"
        guard status == 200, let json else {
            fail(R.countFields, "GET \(path) was answered \(status), expected 200 with the delivery counts")
            return true
        }
        let problems = GetNotificationStep.fieldProblems(json, id: id)
        if !problems.isEmpty {
            fail(R.countFields, "\(what): " + problems.joined(separator: "; "))
            return true
        }
        if json["remaining"]?.doubleValue != 0 || GetNotificationStep.seconds(json["completed_at"]) == nil {
            fail(
                R.settles,
                "\(what) did not settle within \(Self.seconds(plan.budget)) s: remaining \(json["remaining"]?.serialized() ?? "absent"), completed_at \(json["completed_at"]?.serialized() ?? "absent")"
            )
            return true
        }
        let captures = mocks?.log.captures { PushServicePush($0) != nil } ?? []
        let want = PushServiceCounts.expected(for: n, devices: devices, captures: captures, readAtMs: readAtMs)
        let got = (
            GetNotificationStep.count(json["successful"]), GetNotificationStep.count(json["failed"]),
            GetNotificationStep.count(json["errored"])
        )
        if !want.admits(successful: got.0, failed: got.1, errored: got.2) {
            let voiceless = n.isCall && devices.contains { $0.platform == .ios && $0.voipToken == nil }
            fail(
                voiceless ? R.noVoIPTokenFailed : R.counts,
                "\(what): expected \(want.expectedText) (from what the APNs/FCM mocks accepted and refused), got successful \(got.0), failed \(got.1), errored \(got.2)"
            )
        }
        return true
    }
}
