import Foundation
import HTTP
import JSON
import PushMocks
import Reports

/// One profile's live trigger (`ringcheck trigger <profile>`): it plays the profile's client for one exchange with
/// a running backend, puts what happens on a timeline (the requests, every push the mocks receive for it) and judges
/// it by the profile's rules. A profile supplies the exchange (`run`), what belongs to it on the mocks (`relevant`,
/// `arrivals`) and how a push reads (`describe`, `fields`), and its requirements' `levels`; this extension supplies
/// the timeline, the findings, the watching of the mocks, the HTTP and the verdict, so every profile's trigger has
/// one output shape. A broken MUST makes the exchange violated (exit 1); a SHOULD not met is a warning, as `call`
/// shows a push's SHOULD and `run` judges without `--strict`.
///
/// ```swift
/// public actor EchoTrigger: ProfileTrigger {
///     // mocks, emit, client, startedWallMs, violations, shown …
///     // its init: levels = try RequirementCatalogue.embeddedLevels(of: EchoProfile())
///     public let levels: [String: RequirementLevel]
///     public func exchange() async -> TriggerResult {
///         let (status, _, _) = await send("POST", url, body: Array("{}".utf8))
///         await watch(for: .seconds(3)) { false }
///         return verdict(clean: "every rule held", pushes: relevant(after: 0).count)
///     }
/// }
/// ```
public protocol ProfileTrigger: Actor {
    /// ringcheck's mocks, when the backend pushes to them.
    var mocks: MockStack? { get }
    /// Receives the timeline.
    var emit: @Sendable (CallTimelineEntry) -> Void { get }
    var client: HTTPClient { get }
    /// Wall-clock milliseconds when the trigger started: the timeline's zero.
    var startedWallMs: Int64 { get }
    /// Every rule broken so far, at its level.
    var violations: [TriggerResult.Violation] { get set }
    /// The level of each requirement the trigger charges, by ID: its profile's catalogue
    /// (`RequirementCatalogue.embeddedLevels(of:)`). An ID it does not name is a MUST.
    var levels: [String: RequirementLevel] { get }
    /// The sequence of the last capture put on the timeline.
    var shown: Int { get set }

    /// Runs the exchange, judges it, and removes what it registered (unless told to keep it); `run` calls it.
    func exchange() async -> TriggerResult
    /// Removes what the trigger registered at the backend (its virtual devices): at the end of `run`, or on Ctrl-C
    /// while `run` is still going. A second call finds nothing left to remove.
    func cleanUp() async
    /// The captures after `bookmark` that belong to the exchange (its pushes, or pushes to its devices).
    func relevant(after bookmark: Int) -> [Capture]
    /// Which new capture is worth waking up for, as the exchange stands now.
    func arrivals() -> @Sendable (Capture) -> Bool
    /// One push as a timeline line.
    func describe(_ c: Capture) -> String
    /// One push's members for `--json`.
    func fields(_ c: Capture) -> [(key: String, value: JSONValue)]
    /// The result with the profile's facts (the event, the notification) filled in.
    func result(_ outcome: TriggerResult.Outcome, _ detail: String, pushes: Int) -> TriggerResult
}

extension ProfileTrigger {
    /// Plays the exchange, then removes what it registered (`cleanUp`) and closes the HTTP client.
    public func run() async -> TriggerResult {
        defer { client.shutdown() }
        let result = await exchange()
        await cleanUp()
        return result
    }

    // MARK: Timeline and findings

    public func entry(
        _ kind: CallTimelineEntry.Kind, _ message: String, _ fields: [(key: String, value: JSONValue)] = [],
        atMs: Int64? = nil
    ) -> CallTimelineEntry {
        let now = atMs ?? Self.nowMs
        return CallTimelineEntry(
            elapsed: Double(now - startedWallMs) / 1000, kind: kind, message: message, fields: fields)
    }

    /// Records a broken rule at its level (`levels`) and puts it on the timeline: a MUST as a `finding`, a SHOULD
    /// as a `note` that starts `warning:` (as `call` shows a push's SHOULD). Both lines carry `requirement` and
    /// `level`.
    public func fail(_ requirement: RequirementID, _ message: String) {
        let level = levels[requirement.rawValue] ?? .must
        violations.append(.init(requirement: requirement.rawValue, message: message, level: level))
        let fields: [(key: String, value: JSONValue)] = [
            ("requirement", .string(requirement.rawValue)), ("level", .string(level.rawValue)),
        ]
        if level == .must {
            emit(entry(.finding, "\(requirement): \(message)", fields))
        } else {
            emit(entry(.note, "warning: \(requirement) (SHOULD): \(message)", fields))
        }
    }

    /// Violated when a MUST was broken, naming every MUST requirement broken; else clean, saying which SHOULDs
    /// were not met (they are warnings: they do not make the exchange violated).
    public func verdict(clean detail: String, pushes: Int) -> TriggerResult {
        func names(_ level: RequirementLevel) -> String {
            Set(violations.filter { $0.level == level }.map(\.requirement)).sorted().joined(separator: ", ")
        }
        if violations.contains(where: { $0.level == .must }) {
            return result(.violated, "violates " + names(.must), pushes: pushes)
        }
        if violations.isEmpty { return result(.clean, detail, pushes: pushes) }
        return result(.clean, "every MUST held; SHOULD not met: " + names(.should), pushes: pushes)
    }

    // MARK: Watching the mocks

    /// Shows the exchange's pushes as they arrive, for at most `duration` or until `done` holds.
    public func watch(for duration: Duration, until done: @Sendable () async -> Bool) async {
        guard let log = mocks?.log else { return }
        let deadline = ContinuousClock.now + duration
        while ContinuousClock.now < deadline {
            showNewPushes()
            if await done() { return }
            let after = shown
            let wanted = arrivals()
            _ = await log.waitFor(
                { $0.sequence > after && wanted($0) }, timeout: min(.milliseconds(500), deadline - ContinuousClock.now))
        }
        showNewPushes()
    }

    /// Puts the relevant pushes that arrived since the last look on the timeline.
    public func showNewPushes() {
        for c in relevant(after: shown) {
            shown = max(shown, c.sequence)
            emit(entry(.push, describe(c), fields(c), atMs: c.arrivalMs))
        }
    }

    /// `#3 APNs sandbox accepted <what> to <device> (voip, priority 10, apns-expiration …)`, or the refusal.
    public func pushLine(_ c: Capture, what: String, device: String) -> String {
        var provider = c.mock == .apns ? "APNs" : "FCM"
        if c.environment == .sandbox { provider += " sandbox" }
        guard c.outcome.isAccepted else {
            return
                "#\(c.sequence) \(provider) rejected \(what) to \(device): \(c.outcome.reason ?? "?") (\(c.response.status))"
        }
        var details: [String] = []
        if let apns = c.apns {
            if let t = apns.effectivePushType ?? apns.pushType { details.append(t) }
            if let p = apns.priority { details.append("priority \(p)") }
            if let e = apns.expiration { details.append("apns-expiration \(e)") }
        }
        if let fcm = c.fcm {
            if let p = fcm.priority { details.append("priority \(p)") }
            if let ttl = fcm.ttlSeconds { details.append("ttl " + JSONValue.double(ttl).serialized() + "s") }
            if fcm.hasNotification { details.append("notification block") }
        }
        return "#\(c.sequence) \(provider) accepted \(what) to \(device)"
            + (details.isEmpty ? "" : " (\(details.joined(separator: ", ")))")
    }

    // MARK: HTTP

    /// Sends one request; the status and body, or why there was no answer.
    public func send(_ method: String, _ url: String, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [])
        async -> (status: Int?, body: [UInt8], error: String?)
    {
        do {
            let r = try await client.send(ClientRequest(method: method, url: url, headers: headers, body: body))
            return (r.status, r.body, nil)
        } catch {
            return (nil, [], "\(error)")
        }
    }

    // MARK: Words

    package static var nowMs: Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

    /// `3`, `1.5`: a duration in seconds as the timeline says it.
    public static func seconds(_ d: Duration) -> String {
        let s = Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
        return s == s.rounded() ? "\(Int(s))" : String(format: "%.1f", s)
    }

    /// The path of `url` after its origin (`/webhooks/dialstack`).
    public static func path(of url: String) -> String {
        guard let origin = TriggerURL.origin(of: url) else { return url }
        let rest = String(url.dropFirst(origin.count))
        return rest.isEmpty ? "/" : rest
    }

    /// The first 200 bytes of an answer's body on one line, for the timeline.
    public static func answerText(_ status: Int?, _ body: [UInt8], _ error: String?) -> String {
        guard let status else { return "no response (\(error ?? "?"))" }
        let text = String(decoding: body.prefix(200), as: UTF8.self).replacingOccurrences(of: "\n", with: " ")
        return text.isEmpty ? "\(status)" : "\(status) \(text)"
    }
}

/// The URLs a trigger is given.
public enum TriggerURL {
    /// `http://host:port` of `url`; nil when it is not an http(s) URL with a host.
    public static func origin(of url: String) -> String? {
        for scheme in ["http://", "https://"] where url.lowercased().hasPrefix(scheme) {
            let rest = url.dropFirst(scheme.count)
            let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
            return authority.isEmpty ? nil : scheme + authority
        }
        return nil
    }
}
