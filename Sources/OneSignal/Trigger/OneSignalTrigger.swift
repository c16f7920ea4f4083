import Conformance
import Foundation
import HTTP
import JSON
import PushMocks
import Reports

/// `ringcheck trigger onesignal`: makes a running kit server run one operation and shows the OneSignal request it
/// made on ringcheck's mock OneSignal: subscribes the plan's devices for the External ID on the mock, calls the
/// operation's route, waits for the requests that name the trigger's marker or External ID, and judges them and
/// the kit's `delivered` by the profile's rules (`OneSignalInvariants`).
///
/// ```swift
/// let trigger = try OneSignalTrigger(plan: plan, mocks: mocks) { print($0.message) }
/// let result = await trigger.run()
/// ```
public actor OneSignalTrigger: ProfileTrigger {
    let plan: OneSignalTriggerPlan
    public let mocks: MockStack?
    public let emit: @Sendable (CallTimelineEntry) -> Void
    public let client: HTTPClient
    public let startedWallMs = Int64(Date().timeIntervalSince1970 * 1000)
    public var violations: [TriggerResult.Violation] = []
    /// The profile's requirement levels (its embedded catalogue's): a SHOULD not met is a warning.
    public let levels: [String: RequirementLevel]
    public var shown = 0
    /// The marker in the operation's data (`ringcheckRun`), and in a broadcast's title.
    let tag = "ringcheck-trigger-" + RandomText.hex(bytes: 6)
    var operation: OneSignalOperation?
    var answers: [Int?] = []

    public init(
        plan: OneSignalTriggerPlan, mocks: MockStack?, emit: @escaping @Sendable (CallTimelineEntry) -> Void
    ) throws {
        self.plan = plan
        self.mocks = mocks
        self.emit = emit
        levels = try RequirementCatalogue.embeddedLevels(of: OneSignalProfile())
        client = try Target.makeClient(for: plan.baseURL, caFile: nil, insecureSkipVerify: false)
    }

    /// Nothing was registered at the kit server: the mock's audience goes with the mocks.
    public func cleanUp() async {}

    public func exchange() async -> TriggerResult {
        guard let mock = mocks?.providers.oneSignal else {
            return result(.inconclusive, "ringcheck's mocks serve no OneSignal", pushes: 0)
        }
        let kind = plan.operation.kind
        let app = kind == .voipPush ? mock.voipApp : mock.standardApp
        let audienceId = kind == .pushBroadcast ? RandomText.uuid() : plan.externalId
        if plan.devices > 0 {
            mock.audience.subscribe(externalId: audienceId, appId: app.appID, devices: plan.devices)
        }
        emit(
            entry(
                .setup,
                "mock OneSignal: \(plan.devices) device(s) of \(audienceId) subscribed in the \(app.role.rawValue) app \(app.appID)",
                [
                    ("externalId", .string(audienceId)), ("app", .string(app.role.rawValue)),
                    ("devices", .int(plan.devices)),
                ]))
        shown = mocks?.log.lastSequence ?? 0
        let bookmark = shown
        guard let delivered = await send(kind) else {
            return result(.inconclusive, "the kit server at \(plan.baseURL) could not be reached", pushes: 0)
        }
        await watch(for: plan.settle) { false }
        let captures = relevant(after: bookmark)
        let requests = captures.map(OneSignalRequest.init)
        guard case .success = delivered else {
            if case .failure(let problem) = delivered {
                return result(.inconclusive, "the answer cannot be judged: \(problem.message)", pushes: captures.count)
            }
            return result(.inconclusive, "the answer cannot be judged", pushes: captures.count)
        }
        if let operation {
            for v in OneSignalInvariants.check(
                requests, operations: [operation], standard: mock.standardApp, voip: mock.voipApp)
            {
                fail(
                    v.requirement,
                    (v.sequence.map { "request #\($0) " } ?? "the operation: ") + v.message)
            }
        }
        if captures.isEmpty && plan.devices > 0 && violations.isEmpty {
            emit(
                entry(
                    .note,
                    "no request reached ringcheck's mock OneSignal: the kit sends elsewhere (the real OneSignal?), is not configured, or sends nothing; it answered delivered: false"
                ))
        }
        return verdict(clean: "every rule of the onesignal profile held", pushes: captures.count)
    }

    /// Calls the operation's route; its `delivered` (or why it cannot be read), nil when nobody answered.
    func send(_ kind: OneSignalOperation.Kind) async -> Result<Bool, OneSignalAnswer.Problem>? {
        var data = plan.data.objectValue ?? []
        data.append((OneSignalSendStep.runMarker, .string(tag)))
        var request: [(key: String, value: JSONValue)] = []
        var title: String?
        var text: String?
        if kind != .pushBroadcast { request.append(("userId", .string(plan.externalId))) }
        if kind != .voipPush {
            title = kind == .pushBroadcast ? "\(plan.title) [\(tag)]" : plan.title
            text = plan.body
            request += [("title", .string(title ?? "")), ("body", .string(text ?? ""))]
        }
        request.append(("data", .object(data)))
        if let options = plan.options { request.append(("options", options)) }
        var headers = HTTPHeaders()
        headers.add("content-type", "application/json")
        let sentAtMs = Self.nowMs
        let r = await send(
            "POST", plan.baseURL + kind.defaultPath, headers: headers, body: JSONValue.object(request).bytes())
        let answeredAtMs = Self.nowMs
        answers.append(r.status)
        emit(
            entry(
                .action,
                "POST \(kind.defaultPath): \(kind.rawValue)\(kind == .pushBroadcast ? "" : " to \(plan.externalId)") → \(Self.answerText(r.status, r.body, r.error))",
                [("operation", .string(kind.rawValue)), ("status", r.status.map { .int($0) } ?? .null)],
                atMs: sentAtMs))
        guard let status = r.status else { return nil }
        let read = OneSignalAnswer.read(status: status, body: r.body, path: "delivered")
        operation = OneSignalOperation(
            kind: kind, externalId: kind == .pushBroadcast ? nil : plan.externalId, title: title, body: text,
            data: .object(data), options: plan.options, unconfigured: false, sentAtMs: sentAtMs,
            answeredAtMs: answeredAtMs, delivered: try? read.get())
        return read
    }

    // MARK: The mock's captures

    /// The OneSignal requests since `bookmark` that name the trigger's marker or External ID.
    public func relevant(after bookmark: Int) -> [Capture] {
        let wanted = arrivals()
        return mocks?.log.captures { $0.sequence > bookmark && wanted($0) } ?? []
    }

    public func arrivals() -> @Sendable (Capture) -> Bool {
        let tag = self.tag
        let externalId = plan.externalId
        return { c in
            guard c.mock == .onesignal else { return false }
            let body = String(decoding: c.body, as: UTF8.self)
            return body.contains(tag) || body.contains(externalId)
        }
    }

    /// `#4 OneSignal request to the voip app 75c8… (Key …) → 200, recipients 1`.
    public func describe(_ c: Capture) -> String {
        let r = OneSignalRequest(c)
        let appId = r.body["app_id"]?.stringValue ?? "none"
        let role =
            mocks?.providers.oneSignal.map { m in
                appId == m.voipApp.appID ? "the voip app" : appId == m.standardApp.appID ? "the standard app" : "app"
            } ?? "app"
        return "#\(c.sequence) OneSignal request to \(role) \(appId) → \(c.response.status), recipients \(r.recipients)"
    }

    public func fields(_ c: Capture) -> [(key: String, value: JSONValue)] {
        let r = OneSignalRequest(c)
        return [
            ("sequence", .int(c.sequence)), ("provider", "onesignal"), ("status", .int(c.response.status)),
            ("appId", r.body["app_id"] ?? .null), ("recipients", .int(r.recipients)),
            ("request", c.json(revealSecrets: false)["json"] ?? .null),
        ]
    }

    public func result(_ outcome: TriggerResult.Outcome, _ detail: String, pushes: Int) -> TriggerResult {
        let kind = plan.operation.kind
        var facts: [(key: String, value: JSONValue)] = [("operation", .string(kind.rawValue))]
        if kind != .pushBroadcast { facts.append(("externalId", .string(plan.externalId))) }
        facts.append(("delivered", operation?.delivered.map { .bool($0) } ?? .null))
        let line =
            "Operation \(kind.rawValue)\(kind == .pushBroadcast ? "" : " to \(plan.externalId)"), delivered "
            + (operation?.delivered.map { "\($0)" } ?? "unread")
        return TriggerResult(
            outcome: outcome, detail: detail, facts: facts, factsLine: line, answers: answers, pushes: pushes,
            violations: violations)
    }
}
