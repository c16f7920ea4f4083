import Conformance
import Foundation
import HTTP
import JSON
import PushMocks

extension PushServiceLoadWorkload {
    // MARK: Requests

    /// Sends one request to the route `route` (the REST key when `auth`, else as `serviceApp.auth` says); the status and the
    /// answer read back with the seed's member names, nil status when the service did not answer.
    func request(
        _ method: String, route: String, values: [String: String] = [:], json: JSONValue? = nil, auth: Bool,
        endpoint: String
    ) async -> (status: Int?, json: JSONValue?) {
        let (path, headers, body, _) = app.request(
            route: route, values: values, json: json, auth: auth ? .key : .none)
        let invoked = ContinuousClock.now
        do {
            let r = try await client.send(
                ClientRequest(method: method, url: target.baseURL + path, headers: headers, body: body))
            recorder.latency(endpoint, ms: LoadDriver.seconds(ContinuousClock.now - invoked) * 1000)
            return (r.status, (try? JSONValue.parse(r.body)).map { app.fieldNames.toSeed($0, route: route) })
        } catch {
            recorder.latency(endpoint, ms: LoadDriver.seconds(ContinuousClock.now - invoked) * 1000, answered: false)
            recorder.problem("\(method) \(path): no answer: \(error)")
            return (nil, nil)
        }
    }

    /// `POST /notifications` with `body` to `user`'s devices, marked `<prefix>-<part><index>`; the notification
    /// recorded under `unit`, nil when the service did not answer.
    func notify(
        _ body: JSONValue, to user: (externalId: String, devices: [PushServiceDevice]), index: Int, part: String,
        incoming: String?, unit: String
    ) async -> PushServiceNotification? {
        let marker = "\(user.externalId)-\(part)\(index)"
        judge.expect(marker, in: unit)
        let json =
            body
            .setting("app_id", to: .string(app.appId))
            .setting("include_aliases", to: ["external_id": .array([.string(user.externalId)])])
            .setting("data", to: .object([(PushServiceNotification.markerKey, .string(marker))]))
        let sentAtMs = LoadDriver.wallMs()
        let answer = await request("POST", route: "notifications", json: json, auth: true, endpoint: "notify")
        guard let status = answer.status else { return nil }
        let n = PushServiceNotification(
            marker: marker, body: json, sentAtMs: sentAtMs, status: status,
            id: answer.json?["id"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }, devices: user.devices.map(\.name),
            save: nil, answeredAtMs: LoadDriver.wallMs())
        judge.add(PushServiceLoadRecord(notification: n, devices: user.devices, incomingMarker: incoming), to: unit)
        return n
    }

    /// Reads notification `record` back once: with its counts when it settled (remaining 0 and completed_at
    /// set), given up (`unsettled`) once its settle limit passed, else with the answer to be read again.
    func readCounts(_ record: PushServiceLoadRecord) async -> PushServiceLoadRecord {
        var r = record
        guard let id = r.notification.id else { return r }
        let answer = await request(
            "GET", route: "notification", values: ["notificationId": id], auth: true, endpoint: "get")
        let readAtMs = LoadDriver.wallMs()
        if answer.status == 200, let json = answer.json, json["remaining"]?.doubleValue == 0,
            json["completed_at"].map({ $0 != .null }) ?? false
        {
            let count = { (key: String) in json[key]?.int64Value.map(Int.init) ?? -1 }
            r.counts = (count("successful"), count("failed"), count("errored"), readAtMs)
            r.settleMs = readAtMs - r.notification.sentAtMs
            return r
        }
        r.lastAnswer = answer.status.map { "HTTP \($0): \(answer.json?.serialized() ?? "no JSON")" } ?? "no answer"
        if readAtMs - r.notification.sentAtMs >= Int64(LoadDriver.seconds(settleLimit) * 1000) {
            r.unsettled = "not settled within the settle limit; last answer \(r.lastAnswer ?? "none")"
        }
        return r
    }

    // MARK: Before the units

    /// Registers every device (`POST /api/v1/apps/{appId}/devices`, as the app does: no key) and tells the mocks
    /// each token's environment and kind; the reason when one cannot be registered.
    func registerDevices() async -> String? {
        for d in allDevices {
            var body: [(key: String, value: JSONValue)] = [
                ("external_id", .string(d.user)), ("platform", .string(d.platform.rawValue)),
            ]
            if let token = d.token { body.append(("token", .string(token))) }
            if let v = d.voipToken { body.append(("voipToken", .string(v))) }
            if d.platform == .ios { body.append(("sandbox", .bool(d.sandbox))) }
            let answer = await request("POST", route: "devices", json: .object(body), auth: false, endpoint: "register")
            guard let status = answer.status, (200..<300).contains(status) else {
                return "registering \(d.name) failed: " + (answer.status.map { "HTTP \($0)" } ?? "no answer")
            }
            let registry = mocks?.providers.registry
            let env: APNsEnvironment? = d.platform == .ios ? (d.sandbox ? .sandbox : .production) : nil
            if let token = d.token {
                registry?.register(
                    token: token, environment: env, atMs: LoadDriver.wallMs(),
                    tokenKind: d.platform == .ios ? .alert : nil)
            }
            if let v = d.voipToken {
                registry?.register(token: v, environment: env, atMs: LoadDriver.wallMs(), tokenKind: .voip)
            }
        }
        return nil
    }

    // MARK: Figures

    /// Adds the queue lag (request → first accepted push per device) per kind of `records`' notifications to `lag`.
    static func addLag(
        _ records: [PushServiceLoadRecord], _ captures: [Capture], into lag: inout [String: LatencyHistogram]
    ) {
        var sent: [String: (at: Int64, kind: String)] = [:]
        for r in records {
            sent[r.notification.marker] = (
                r.notification.sentAtMs, r.notification.action.map { "call \($0)" } ?? "notification"
            )
        }
        var seen: Set<String> = []
        for c in captures.sorted(by: { $0.sequence < $1.sequence }) where c.outcome.isAccepted {
            guard let marker = PushServicePush(c)?.marker, let s = sent[marker],
                seen.insert(marker + " " + (PushServiceCounts.token(of: c) ?? "")).inserted
            else { continue }
            lag["queue lag: \(s.kind)", default: LatencyHistogram()].add(Double(c.arrivalMs - s.at))
        }
    }
}
