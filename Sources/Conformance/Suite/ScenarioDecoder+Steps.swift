import JSON
import PushMocks

// MARK: - Steps

extension ScenarioDecoder {
    /// Fields every request step accepts besides its own.
    static let requestFields = ["save", "expect"]

    /// One step: a mapping with exactly one step keyword (a `race` may add `expect`).
    mutating func decodeStep(_ node: YAMLNode, path: String, inRace: Bool) -> ScenarioStep? {
        guard let entries = node.entries, !entries.isEmpty else {
            d.error(node.mark, path, "expected a step such as 'create: {...}', got \(node.kindName)")
            return nil
        }
        let kinds = stepKinds
        var keywords = entries.filter { kinds.contains($0.key) }
        // `save` next to another step is a misplaced field of that step, not a second step.
        if keywords.count > 1 { keywords.removeAll { $0.key == "save" } }
        guard let keyword = keywords.first else {
            let first = entries[0]
            d.error(
                first.keyMark, path,
                "unknown step '\(first.key)'\(Diagnostics.suggestion(first.key, kinds)) (steps: \(kinds.joined(separator: ", ")))"
            )
            return nil
        }
        if keywords.count > 1 {
            d.error(
                keywords[1].keyMark, path, "one step per list item; found '\(keyword.key)' and '\(keywords[1].key)'")
            return nil
        }
        let siblingsAllowed = keyword.key == "race" ? ["expect"] : []
        for entry in entries where entry.key != keyword.key && !siblingsAllowed.contains(entry.key) {
            let hint =
                Self.requestFields.contains(entry.key) || keyword.value.entries != nil
                ? " (put it inside '\(keyword.key)': it is indented one level too little)" : ""
            d.error(entry.keyMark, path, "unknown field '\(entry.key)' next to '\(keyword.key)'\(hint)")
        }
        let raceable = requestKinds
        if inRace && !raceable.contains(keyword.key) {
            d.error(
                keyword.keyMark, path,
                "'\(keyword.key)' cannot run in a race; only requests can (\(raceable.joined(separator: ", ")))"
            )
            return nil
        }
        let p = "\(path).\(keyword.key)"
        var pendingSaves: [String] = []
        let errorsBefore = d.errors.count
        let step = decodeStepBody(keyword.key, keyword.value, p, entries: entries, path: path, saves: &pendingSaves)
        // A step's own saves become visible to the steps after it (a race's after the whole race).
        if !inRace { saved.formUnion(pendingSaves) } else { raceSaves += pendingSaves }
        guard let step, d.errors.count == errorsBefore else { return nil }
        return ScenarioStep(step, path: path, mark: node.mark)
    }

    private mutating func decodeStepBody(
        _ kind: String, _ node: YAMLNode, _ p: String, entries: [YAMLMapEntry], path: String, saves: inout [String]
    ) -> Step? {
        if profile.stepKeywords.contains(kind) {
            let profile = self.profile
            stepSaves = []
            let step = profile.decodeStep(kind, node, path: p, decoder: &self)
            saves += stepSaves
            stepSaves = []
            return step.map { .profile(AnyProfileStep($0)) }
        }
        switch kind {
        case "race": return decodeRace(node, p, expect: entries.first { $0.key == "expect" }, path: path)
        case "save": return decodeSave(node, p, saves: &saves)
        case "fault": return decodeFault(node, p)
        case "expectNotLogged":
            guard let f = d.mapping(node, p, known: ["for", "values", "requirement"], required: ["for"]),
                let duration = f["for"].flatMap({ d.duration($0.value, p + ".for") })
            else { return nil }
            var values: [JSONValue] = []
            if let list = f["values"] {
                guard let items = list.value.items else {
                    d.error(list.value.mark, p + ".values", "expected a list of values, got \(list.value.kindName)")
                    return nil
                }
                for (i, item) in items.enumerated() { values.append(value(item, "\(p).values[\(i)]")) }
            }
            let requirement = f["requirement"].flatMap { self.requirement($0.value, p + ".requirement") }
            return .expectNotLogged(ExpectNotLoggedStep(duration: duration, values: values, requirement: requirement))
        case "restartBackend": return decodeRestart(node, p)
        case "wait": return d.duration(node, p).map(Step.wait)
        case "expectPush", "expectNoPush":
            return decodePushExpectation(kind, node, p, saves: &saves)
        default:
            return decodeRequest(kind, node, p, saves: &saves)
        }
    }

    // MARK: Requests

    /// A request step's fields (its own `known` and `required` ones, and `save` and `expect`) and its
    /// options; the names it saves go to `saves`.
    package mutating func requestFields(
        _ node: YAMLNode, _ p: String, known: [String], required: [String], saves: inout [String]
    ) -> ([String: YAMLMapEntry], RequestOptions)? {
        guard let f = d.mapping(node, p, known: known + Self.requestFields, required: required) else { return nil }
        var options = RequestOptions()
        if let e = f["save"], let name = saveName(e.value, p + ".save") {
            options.save = name
            saves.append(name)
        }
        if let e = f["expect"] { options.expect = responseExpectation(e.value, p + ".expect") }
        return (f, options)
    }

    /// The value of an optional field.
    package mutating func optionalValue(_ f: [String: YAMLMapEntry], _ key: String, _ p: String) -> JSONValue? {
        f[key].map { value($0.value, "\(p).\(key)") }
    }

    /// A request's `body`: a mapping of extra fields, unless `anyShape` (a raw request's whole body).
    package mutating func requestBody(_ f: [String: YAMLMapEntry], _ p: String, anyShape: Bool) -> JSONValue? {
        guard let e = f["body"] else { return nil }
        if e.value.entries == nil, !anyShape {
            d.error(e.value.mark, p + ".body", "expected a mapping of extra body fields, got \(e.value.kindName)")
        }
        return value(e.value, p + ".body")
    }

    private mutating func decodeRequest(_ kind: String, _ node: YAMLNode, _ p: String, saves: inout [String]) -> Step? {
        let (known, required): ([String], [String]) =
            switch kind {
            case "registerToken": (["device", "as", "token", "appId", "environment"], ["device"])
            case "deleteToken": (["device", "as"], ["device"])
            default: (["as", "device", "auth", "method", "path", "headers", "body"], ["method", "path"])
            }
        guard let (f, options) = requestFields(node, p, known: known, required: required, saves: &saves) else {
            return nil
        }
        func optionalValue(_ key: String) -> JSONValue? { self.optionalValue(f, key, p) }

        switch kind {
        case "registerToken", "deleteToken":
            guard let dev = f["device"].flatMap({ device($0.value, p + ".device") }) else { return nil }
            let asUser = f["as"].flatMap { user($0.value, p + ".as") }
            if kind == "deleteToken" {
                return .deleteToken(DeleteTokenStep(device: dev, asUser: asUser, options: options))
            }
            let environment = f["environment"].flatMap {
                d.choice($0.value, p + ".environment", VirtualDevice.Environment.allCases.map(\.rawValue))
            }.flatMap(VirtualDevice.Environment.init(rawValue:))
            return .registerToken(
                RegisterTokenStep(
                    device: dev, asUser: asUser, token: optionalValue("token"), appId: optionalValue("appId"),
                    environment: environment, options: options))
        default:
            let who = actor(f, p, node: node, required: false)
            let auth =
                f["auth"].flatMap {
                    d.choice($0.value, p + ".auth", RawRequestStep.Auth.allCases.map(\.rawValue))
                }.flatMap(RawRequestStep.Auth.init(rawValue:)) ?? .session
            if auth != .none, who == nil, f["as"] == nil, f["device"] == nil {
                d.error(node.mark, p, "give 'as' or 'device' to send credentials, or 'auth: none'")
            }
            let method = f["method"].flatMap {
                d.choice($0.value, p + ".method", ["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"])
            }
            var headers: [String: JSONValue] = [:]
            if let e = f["headers"] {
                if let entries = e.value.entries {
                    for h in entries {
                        let v = value(h.value, "\(p).headers.\(h.key)")
                        if case .object = v { d.error(h.value.mark, "\(p).headers.\(h.key)", "a header value is text") }
                        if case .array = v { d.error(h.value.mark, "\(p).headers.\(h.key)", "a header value is text") }
                        headers[h.key.lowercased()] = v
                    }
                } else {
                    d.error(
                        e.value.mark, p + ".headers",
                        "expected a mapping of header names to values, got \(e.value.kindName)")
                }
            }
            let path = f["path"].map { value($0.value, p + ".path") }
            if let e = f["path"], !(path?.stringValue?.hasPrefix("/") ?? false) {
                d.error(e.value.mark, p + ".path", "expected a path starting with '/'")
            }
            guard let method, let path else { return nil }
            return .request(
                RawRequestStep(
                    actor: who, auth: auth, method: method, path: path, headers: headers,
                    body: requestBody(f, p, anyShape: true), options: options
                ))
        }
    }

    // MARK: Expectations

    /// The fields `expectPush`, `expectNoPush` and a profile's expectations share: `type`, `call`,
    /// `match`, `requirement`, `within` (5 s by default), `for` and `save` (when `known` has them).
    package struct ExpectationFields {
        package var type: String?
        package var call: JSONValue?
        package var requirement: String?
        package var within: ScenarioDuration
        package var duration: ScenarioDuration?
        package var match: [PathMatcher]
        package var save: String?
    }

    package mutating func expectationFields(_ f: [String: YAMLMapEntry], _ p: String, saves: inout [String])
        -> ExpectationFields
    {
        var out = ExpectationFields(
            type: f["type"].flatMap { d.nonEmptyString($0.value, p + ".type") },
            call: f["call"].map { value($0.value, p + ".call") },
            requirement: f["requirement"].flatMap { self.requirement($0.value, p + ".requirement") },
            within: f["within"].flatMap { d.duration($0.value, p + ".within") } ?? ScenarioDuration(milliseconds: 5000),
            duration: f["for"].flatMap { d.duration($0.value, p + ".for") },
            match: f["match"].map { matchers($0.value, p + ".match") } ?? [])
        if let e = f["save"], let name = saveName(e.value, p + ".save") {
            out.save = name
            saves.append(name)
        }
        return out
    }

    private mutating func decodePushExpectation(
        _ kind: String, _ node: YAMLNode, _ p: String, saves: inout [String]
    ) -> Step? {
        var known = ["type", "call", "match", "requirement", "to"]
        known += kind == "expectNoPush" ? ["for", "from"] : ["within", "save", "count"]
        let required = ["to"] + (kind == "expectNoPush" ? ["for"] : [])
        guard let f = d.mapping(node, p, known: known, required: required) else { return nil }
        let e = expectationFields(f, p, saves: &saves)
        if kind == "expectPush" {
            guard let to = f["to"].flatMap({ deviceList($0.value, p + ".to") }) else { return nil }
            let count = f["count"].flatMap { d.int($0.value, p + ".count", min: 1) } ?? 1
            return .expectPush(
                ExpectPushStep(
                    to: to, type: e.type ?? profile.defaultPushType, call: e.call, within: e.within, count: count,
                    match: e.match, save: e.save, requirement: e.requirement))
        }
        guard let to = f["to"].flatMap({ deviceList($0.value, p + ".to") }), let duration = e.duration else {
            return nil
        }
        return .expectNoPush(
            ExpectNoPushStep(
                to: to, type: e.type, call: e.call, duration: duration, match: e.match, requirement: e.requirement,
                fromNow: f["from"].flatMap { d.choice($0.value, p + ".from", ["start", "now"]) } == "now"))
    }

    // MARK: Control

    private mutating func decodeRace(_ node: YAMLNode, _ p: String, expect: YAMLMapEntry?, path: String) -> Step? {
        guard let items = node.items, items.count >= 2 else {
            d.error(node.mark, p, "expected a list of at least two request steps, got \(node.kindName)")
            return nil
        }
        raceSaves = []
        var steps: [ScenarioStep] = []
        for (i, item) in items.enumerated() {
            if let step = decodeStep(item, path: "\(p)[\(i)]", inRace: true) { steps.append(step) }
        }
        saved.formUnion(raceSaves)
        var winners: Int?
        var requirement: String?
        if let expect, let f = d.mapping(expect.value, path + ".expect", known: ["winners", "requirement"]) {
            winners = f["winners"].flatMap { d.int($0.value, path + ".expect.winners", min: 0) }
            if let w = winners, w > items.count, let mark = f["winners"]?.value.mark {
                d.error(mark, path + ".expect.winners", "\(w) winners among \(items.count) steps is impossible")
            }
            requirement = f["requirement"].flatMap { self.requirement($0.value, path + ".expect.requirement") }
        }
        guard steps.count == items.count else { return nil }
        return .race(RaceStep(steps: steps, winners: winners, requirement: requirement))
    }

    private mutating func decodeSave(_ node: YAMLNode, _ p: String, saves: inout [String]) -> Step? {
        guard let entries = node.entries, !entries.isEmpty else {
            d.error(node.mark, p, "expected a mapping of names to values, got \(node.kindName)")
            return nil
        }
        var out: [String: JSONValue] = [:]
        for e in entries {
            guard let name = saveName(YAMLNode(.scalar(e.key, .doubleQuoted), mark: e.keyMark), p) else { continue }
            out[name] = value(e.value, "\(p).\(e.key)")
            saves.append(name)
        }
        return .save(out)
    }

    private mutating func decodeFault(_ node: YAMLNode, _ p: String) -> Step? {
        // The plan's own fields (PushMocks' JSON form) without `deviceToken`, which comes from the device.
        let planKeys = ["id", "mock", "times", "respond", "latencyMs", "retryAfter", "connection", "goawayErrorCode"]
        guard let f = d.mapping(node, p, known: ["device"] + planKeys) else { return nil }
        let dev = f["device"].flatMap { device($0.value, p + ".device") }
        if f["device"] != nil, let m = f["mock"] {
            d.error(m.keyMark, p, "give 'device' or 'mock', not both (the device decides the mock)")
            return nil
        }
        if f["device"] == nil, f["mock"] == nil {
            d.error(node.mark, p, "missing 'device' (a scenario device) or 'mock' (apns, fcm, oauth)")
            return nil
        }
        let json = JSONValue.object(
            (node.entries ?? []).filter { $0.key != "device" }.map { (key: $0.key, value: $0.value.json) })
        do {
            let plan = try FaultPlan(json: json)
            let problems = plan.validationErrors()
            for message in problems { d.error(node.mark, p, message) }
            guard problems.isEmpty, f["device"] == nil || dev != nil else { return nil }
            return .fault(FaultStep(device: dev, plan: plan))
        } catch {
            for message in error.messages { d.error(node.mark, p, message) }
            return nil
        }
    }
}
