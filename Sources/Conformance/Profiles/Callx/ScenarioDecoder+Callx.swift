import JSON

extension ScenarioDecoder {
    // MARK: The Callx steps

    /// One of the Callx profile's steps; names it saves go to `stepSaves`.
    mutating func decodeCallxStep(_ kind: String, _ node: YAMLNode, _ p: String) -> (any ProfileStep)? {
        var saves: [String] = []
        defer { stepSaves += saves }
        switch kind {
        case "waitUntilExpiry":
            guard let f = d.mapping(node, p, known: ["call", "margin"], required: ["call"]), let call = f["call"] else {
                return nil
            }
            let margin =
                f["margin"].flatMap { d.duration($0.value, p + ".margin") } ?? ScenarioDuration(milliseconds: 500)
            return WaitUntilExpiryStep(call: value(call.value, p + ".call"), margin: margin)
        case "overflowEvents":
            guard let f = d.mapping(node, p, known: ["as", "device", "callee"], required: ["callee"]) else {
                return nil
            }
            let who = actor(f, p, node: node, required: true)
            let callee = f["callee"].flatMap { user($0.value, p + ".callee") }
            guard let who, let callee else { return nil }
            return OverflowEventsStep(actor: who, callee: callee)
        case "expectEvent", "expectNoEvent":
            return decodeEventExpectation(kind, node, p, saves: &saves)
        default:
            return decodeCallRequest(kind, node, p, saves: &saves)
        }
    }

    private mutating func decodeCallRequest(_ kind: String, _ node: YAMLNode, _ p: String, saves: inout [String])
        -> (any ProfileStep)?
    {
        let (known, required): ([String], [String]) =
            switch kind {
            case "create": (["as", "device", "callee", "callId", "operationId", "video", "body"], ["callee"])
            case "answer":
                (["as", "device", "call", "operationId", "expectedRevision", "installationId", "body"], ["call"])
            case "end": (["as", "device", "call", "operationId", "reason", "body"], ["call"])
            case "get", "mediaSession": (["as", "device", "call"], ["call"])
            default: (["as", "device", "cursor", "drain"], [])
            }
        guard let (f, options) = requestFields(node, p, known: known, required: required, saves: &saves) else {
            return nil
        }
        func optionalValue(_ key: String) -> JSONValue? { self.optionalValue(f, key, p) }
        func body() -> JSONValue? { requestBody(f, p, anyShape: false) }
        let call = optionalValue("call") ?? .null

        switch kind {
        case "create":
            let who = actor(f, p, node: node, required: true)
            let callee = f["callee"].flatMap { user($0.value, p + ".callee") }
            let video = f["video"].flatMap { d.bool($0.value, p + ".video") }
            guard let who, let callee else { return nil }
            return CreateCallStep(
                actor: who, callee: callee, callId: optionalValue("callId"), operationId: optionalValue("operationId"),
                video: video, body: body(), options: options)
        case "answer":
            guard let who = actor(f, p, node: node, required: true) else { return nil }
            return AnswerCallStep(
                actor: who, call: call, operationId: optionalValue("operationId"),
                expectedRevision: optionalValue("expectedRevision"), installationId: optionalValue("installationId"),
                body: body(), options: options)
        case "end":
            guard let who = actor(f, p, node: node, required: true) else { return nil }
            return EndCallStep(
                actor: who, call: call, operationId: optionalValue("operationId"), reason: optionalValue("reason"),
                body: body(), options: options)
        case "get", "mediaSession":
            guard let who = actor(f, p, node: node, required: true) else { return nil }
            return CallRequestStep(keyword: kind, actor: who, call: call, options: options)
        default:
            guard let who = actor(f, p, node: node, required: true) else { return nil }
            let drain = f["drain"].flatMap { d.bool($0.value, p + ".drain") } ?? true
            return PollEventsStep(actor: who, cursor: optionalValue("cursor"), drain: drain, options: options)
        }
    }

    private mutating func decodeEventExpectation(
        _ kind: String, _ node: YAMLNode, _ p: String, saves: inout [String]
    ) -> (any ProfileStep)? {
        let isNegative = kind == "expectNoEvent"
        var known = ["type", "call", "match", "requirement", "as", "device"]
        known += isNegative ? ["for"] : ["within", "save"]
        let required = isNegative ? ["for"] : ["type"]
        guard let f = d.mapping(node, p, known: known, required: required) else { return nil }
        let e = expectationFields(f, p, saves: &saves)
        if !isNegative {
            guard let who = actor(f, p, node: node, required: true), let type = e.type else { return nil }
            return ExpectEventStep(
                actor: who, type: type, call: e.call, within: e.within, match: e.match, save: e.save,
                requirement: e.requirement)
        }
        guard let who = actor(f, p, node: node, required: true), let duration = e.duration else { return nil }
        return ExpectNoEventStep(
            actor: who, type: e.type, call: e.call, duration: duration, match: e.match, requirement: e.requirement)
    }
}
