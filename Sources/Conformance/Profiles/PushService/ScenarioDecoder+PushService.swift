import JSON

extension ScenarioDecoder {
    /// The push-service steps: `registerDevice`, `removeDevice`, `notify`, `getNotification`,
    /// `malformedNotifications`, `malformedRegistrations`.
    mutating func decodePushServiceStep(_ keyword: String, _ node: YAMLNode, _ p: String) -> (any ProfileStep)? {
        let errorsBefore = d.errors.count
        var out: (any ProfileStep)?
        switch keyword {
        case "registerDevice":
            guard let f = d.mapping(node, p, known: ["device", "voip", "save", "expect"], required: ["device"])
            else { return nil }
            let device = f["device"].flatMap { self.device($0.value, p + ".device") }
            let voip = f["voip"].flatMap { d.bool($0.value, p + ".voip") } ?? true
            let save = pushServiceSave(f, p)
            let expect = f["expect"].flatMap { responseExpectation($0.value, p + ".expect") }
            if let device { out = RegisterDeviceStep(device: device, voip: voip, save: save, expect: expect) }
        case "removeDevice":
            guard let f = d.mapping(node, p, known: ["device", "expect"], required: ["device"]) else { return nil }
            let device = f["device"].flatMap { self.device($0.value, p + ".device") }
            let expect = f["expect"].flatMap { responseExpectation($0.value, p + ".expect") }
            if let device { out = RemoveDeviceStep(device: device, expect: expect) }
        case "notify":
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
            out = NotifyStep(to: to, body: body, raw: raw, app: app, auth: auth, save: save, expect: expect)
        case "getNotification":
            guard
                let f = d.mapping(
                    node, p, known: ["notification", "within", "requirement", "auth", "save", "expect"],
                    required: ["notification"])
            else { return nil }
            let name = f["notification"].flatMap { d.nonEmptyString($0.value, p + ".notification") }
            let within =
                f["within"].flatMap { d.duration($0.value, p + ".within") } ?? ScenarioDuration(milliseconds: 30_000)
            let requirement =
                f["requirement"].flatMap { self.requirement($0.value, p + ".requirement") }
                ?? PushServiceRequirement.counts
            let auth = pushServiceAuth(f, p)
            let save = pushServiceSave(f, p)
            let expect = f["expect"].flatMap { responseExpectation($0.value, p + ".expect") }
            if let name {
                out = GetNotificationStep(
                    notification: name, within: within, requirement: requirement, auth: auth, save: save,
                    expect: expect)
            }
        case "malformedNotifications":
            guard let f = d.mapping(node, p, known: ["to"], required: ["to"]) else { return nil }
            if let to = f["to"].flatMap({ userList($0.value, p + ".to") }) { out = MalformedNotificationsStep(to: to) }
        case "malformedRegistrations":
            guard let f = d.mapping(node, p, known: ["user"], required: ["user"]) else { return nil }
            if let user = f["user"].flatMap({ self.user($0.value, p + ".user") }) {
                out = MalformedRegistrationsStep(user: user)
            }
        default:
            return nil
        }
        return d.errors.count == errorsBefore ? out : nil
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
