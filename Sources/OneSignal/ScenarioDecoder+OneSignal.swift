import Conformance
import JSON
import PushMocks

extension ScenarioDecoder {
    /// `pushToUser`, `pushBroadcast`, `voipPush`: `{user, title, body, data, options, unconfigured, expect, save}`
    /// (no `user` on a broadcast, no `title`/`body` on a VoIP push).
    mutating func decodeOneSignalSend(_ kind: OneSignalOperation.Kind, _ node: YAMLNode, _ p: String)
        -> OneSignalSendStep?
    {
        var known = ["data", "options", "unconfigured", "expect", "save"]
        if kind != .pushBroadcast { known.append("user") }
        if kind != .voipPush { known += ["title", "body"] }
        guard let f = d.mapping(node, p, known: known, required: kind == .pushBroadcast ? [] : ["user"]) else {
            return nil
        }
        let errorsBefore = d.errors.count
        let user = f["user"].flatMap { self.user($0.value, p + ".user") }
        let title = f["title"].map { value($0.value, p + ".title") }
        let body = f["body"].map { value($0.value, p + ".body") }
        let data = f["data"].map { value($0.value, p + ".data") }
        let options = f["options"].map { value($0.value, p + ".options") }
        let unconfigured = f["unconfigured"].flatMap { d.bool($0.value, p + ".unconfigured") } ?? false
        var expectDelivered: Bool?
        var requirement: String?
        if let e = f["expect"], let g = d.mapping(e.value, p + ".expect", known: ["delivered", "requirement"]) {
            expectDelivered = g["delivered"].flatMap { d.bool($0.value, p + ".expect.delivered") }
            requirement = g["requirement"].flatMap { self.requirement($0.value, p + ".expect.requirement") }
        }
        var save: String?
        if let e = f["save"], let name = saveName(e.value, p + ".save") {
            save = name
            stepSaves.append(name)
        }
        guard d.errors.count == errorsBefore else { return nil }
        return OneSignalSendStep(
            kind: kind, user: user, title: title, body: body, data: data, options: options, unconfigured: unconfigured,
            expectDelivered: expectDelivered, requirement: requirement, save: save)
    }

    /// `audience: {user, app: standard|voip, devices}`.
    mutating func decodeOneSignalAudience(_ node: YAMLNode, _ p: String) -> OneSignalAudienceStep? {
        guard let f = d.mapping(node, p, known: ["user", "app", "devices"], required: ["user"]) else { return nil }
        let errorsBefore = d.errors.count
        let user = f["user"].flatMap { self.user($0.value, p + ".user") }
        let app =
            f["app"].flatMap { d.choice($0.value, p + ".app", OneSignalApp.Role.allCases.map(\.rawValue)) }
            .flatMap(OneSignalApp.Role.init(rawValue:)) ?? .standard
        let devices = f["devices"].flatMap { d.int($0.value, p + ".devices", min: 0) } ?? 1
        guard d.errors.count == errorsBefore, let user else { return nil }
        return OneSignalAudienceStep(user: user, app: app, devices: devices)
    }

    /// `expectOneSignal: {count, within, app, requirement}` or `expectNoOneSignal: {for, requirement}`.
    mutating func decodeOneSignalRequests(expectNone: Bool, _ node: YAMLNode, _ p: String) -> OneSignalRequestsStep? {
        let known = expectNone ? ["for", "requirement"] : ["count", "within", "app", "requirement"]
        guard let f = d.mapping(node, p, known: known, required: expectNone ? ["for"] : []) else { return nil }
        let errorsBefore = d.errors.count
        let count = expectNone ? nil : (f["count"].flatMap { d.int($0.value, p + ".count", min: 1) } ?? 1)
        let key = expectNone ? "for" : "within"
        let duration = f[key].flatMap { d.duration($0.value, p + "." + key) }?.milliseconds ?? 5000
        let app = f["app"].flatMap { d.choice($0.value, p + ".app", OneSignalApp.Role.allCases.map(\.rawValue)) }
            .flatMap(OneSignalApp.Role.init(rawValue:))
        let requirement = f["requirement"].flatMap { self.requirement($0.value, p + ".requirement") }
        guard d.errors.count == errorsBefore else { return nil }
        return OneSignalRequestsStep(count: count, durationMs: duration, app: app, requirement: requirement)
    }
}
