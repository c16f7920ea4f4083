import Conformance
import JSON

extension ScenarioDecoder {
    // MARK: The push-service steps (each step type's `decode` calls one)

    /// `registerDevice: {device, voip, save, expect}`.
    mutating func decodeRegisterDevice(_ node: YAMLNode, _ p: String) -> RegisterDeviceStep? {
        let errorsBefore = d.errors.count
        guard let f = d.mapping(node, p, known: ["device", "voip", "save", "expect"], required: ["device"]) else {
            return nil
        }
        let device = f["device"].flatMap { self.device($0.value, p + ".device") }
        let voip = f["voip"].flatMap { d.bool($0.value, p + ".voip") } ?? true
        let save = pushServiceSave(f, p)
        let expect = f["expect"].flatMap { responseExpectation($0.value, p + ".expect") }
        guard let device, d.errors.count == errorsBefore else { return nil }
        return RegisterDeviceStep(device: device, voip: voip, save: save, expect: expect)
    }

    /// `removeDevice: {device, expect}`.
    mutating func decodeRemoveDevice(_ node: YAMLNode, _ p: String) -> RemoveDeviceStep? {
        let errorsBefore = d.errors.count
        guard let f = d.mapping(node, p, known: ["device", "expect"], required: ["device"]) else { return nil }
        let device = f["device"].flatMap { self.device($0.value, p + ".device") }
        let expect = f["expect"].flatMap { responseExpectation($0.value, p + ".expect") }
        guard let device, d.errors.count == errorsBefore else { return nil }
        return RemoveDeviceStep(device: device, expect: expect)
    }

    /// `notify: {to, body, raw, app, auth, save, expect}`.
    mutating func decodeNotify(_ node: YAMLNode, _ p: String) -> NotifyStep? {
        let errorsBefore = d.errors.count
        guard let f = d.mapping(node, p, known: ["to", "body", "raw", "app", "auth", "save", "expect"]) else {
            return nil
        }
        let to = f["to"].flatMap { userList($0.value, p + ".to") }
        let body = f["body"].map { value($0.value, p + ".body") }
        let raw = f["raw"].flatMap { d.string($0.value, p + ".raw") }
        if let e = f["raw"], f["body"] != nil || f["to"] != nil {
            d.error(e.keyMark, p, "'raw' is sent as it is; it takes no 'body' or 'to'")
        }
        let app =
            f["app"].flatMap { d.choice($0.value, p + ".app", NotifyStep.App.allCases.map(\.rawValue)) }
            .flatMap(NotifyStep.App.init(rawValue:)) ?? .own
        let auth = pushServiceAuth(f, p)
        let save = pushServiceSave(f, p)
        let expect = f["expect"].flatMap { responseExpectation($0.value, p + ".expect") }
        guard d.errors.count == errorsBefore else { return nil }
        return NotifyStep(to: to, body: body, raw: raw, app: app, auth: auth, save: save, expect: expect)
    }

    /// `getNotification: {notification, within, requirement, auth, save, expect}`.
    mutating func decodeGetNotification(_ node: YAMLNode, _ p: String) -> GetNotificationStep? {
        let errorsBefore = d.errors.count
        guard
            let f = d.mapping(
                node, p, known: ["notification", "within", "requirement", "auth", "save", "expect"],
                required: ["notification"])
        else { return nil }
        let name = f["notification"].flatMap { d.nonEmptyString($0.value, p + ".notification") }
        let within =
            f["within"].flatMap { d.duration($0.value, p + ".within") } ?? ScenarioDuration(milliseconds: 30_000)
        let requirement =
            f["requirement"].flatMap { self.requirement($0.value, p + ".requirement") }.map { RequirementID($0) }
            ?? PushServiceRequirement.counts
        let auth = pushServiceAuth(f, p)
        let save = pushServiceSave(f, p)
        let expect = f["expect"].flatMap { responseExpectation($0.value, p + ".expect") }
        guard let name, d.errors.count == errorsBefore else { return nil }
        return GetNotificationStep(
            notification: name, within: within, requirement: requirement, auth: auth, save: save, expect: expect)
    }

    /// `malformedNotifications: {to}`.
    mutating func decodeMalformedNotifications(_ node: YAMLNode, _ p: String) -> MalformedNotificationsStep? {
        let errorsBefore = d.errors.count
        guard let f = d.mapping(node, p, known: ["to"], required: ["to"]),
            let to = f["to"].flatMap({ userList($0.value, p + ".to") }), d.errors.count == errorsBefore
        else { return nil }
        return MalformedNotificationsStep(to: to)
    }

    /// `malformedRegistrations: {user}`.
    mutating func decodeMalformedRegistrations(_ node: YAMLNode, _ p: String) -> MalformedRegistrationsStep? {
        let errorsBefore = d.errors.count
        guard let f = d.mapping(node, p, known: ["user"], required: ["user"]),
            let user = f["user"].flatMap({ self.user($0.value, p + ".user") }), d.errors.count == errorsBefore
        else { return nil }
        return MalformedRegistrationsStep(user: user)
    }

    private mutating func pushServiceAuth(_ f: [String: YAMLMapEntry], _ p: String) -> PushServiceAuth {
        f["auth"].flatMap { d.choice($0.value, p + ".auth", PushServiceAuth.allCases.map(\.rawValue)) }
            .flatMap(PushServiceAuth.init(rawValue:)) ?? .key
    }

    private mutating func pushServiceSave(_ f: [String: YAMLMapEntry], _ p: String) -> String? {
        guard let e = f["save"], let name = saveName(e.value, p + ".save") else { return nil }
        stepSaves.append(name)
        return name
    }

    /// One user or a list of users.
    private mutating func userList(_ node: YAMLNode, _ p: String) -> [String]? {
        if let items = node.items {
            return items.enumerated().compactMap { user($0.element, "\(p)[\($0.offset)]") }
        }
        return user(node, p).map { [$0] }
    }
}
