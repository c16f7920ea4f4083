import Conformance
import JSON

extension ScenarioDecoder {
    // MARK: The Callx steps (each step type's `decode` calls one; names they save go to `stepSaves`)

    /// `waitUntilExpiry: {call, margin}`.
    mutating func decodeWaitUntilExpiry(_ node: YAMLNode, _ p: String) -> WaitUntilExpiryStep? {
        guard let f = d.mapping(node, p, known: ["call", "margin"], required: ["call"]), let call = f["call"] else {
            return nil
        }
        let margin =
            f["margin"].flatMap { d.duration($0.value, p + ".margin") } ?? ScenarioDuration(milliseconds: 500)
        return WaitUntilExpiryStep(call: value(call.value, p + ".call"), margin: margin)
    }

    /// `overflowEvents: {as|device, callee}`.
    mutating func decodeOverflowEvents(_ node: YAMLNode, _ p: String) -> OverflowEventsStep? {
        guard let f = d.mapping(node, p, known: ["as", "device", "callee"], required: ["callee"]) else {
            return nil
        }
        let who = actor(f, p, node: node, required: true)
        let callee = f["callee"].flatMap { user($0.value, p + ".callee") }
        guard let who, let callee else { return nil }
        return OverflowEventsStep(actor: who, callee: callee)
    }

    /// `create: {as|device, callee, callId, operationId, video, body}` and the request fields.
    mutating func decodeCreate(_ node: YAMLNode, _ p: String) -> CreateCallStep? {
        callRequest(node, p, known: ["callee", "callId", "operationId", "video", "body"], required: ["callee"]) {
            decoder, f, options in
            let who = decoder.actor(f, p, node: node, required: true)
            let callee = f["callee"].flatMap { decoder.user($0.value, p + ".callee") }
            let video = f["video"].flatMap { decoder.d.bool($0.value, p + ".video") }
            guard let who, let callee else { return nil }
            return CreateCallStep(
                actor: who, callee: callee, callId: decoder.optionalValue(f, "callId", p),
                operationId: decoder.optionalValue(f, "operationId", p), video: video,
                body: decoder.requestBody(f, p, anyShape: false), options: options)
        }
    }

    /// `answer: {as|device, call, operationId, expectedRevision, installationId, body}` and the request fields.
    mutating func decodeAnswer(_ node: YAMLNode, _ p: String) -> AnswerCallStep? {
        callRequest(
            node, p, known: ["call", "operationId", "expectedRevision", "installationId", "body"], required: ["call"]
        ) { decoder, f, options in
            let call = decoder.optionalValue(f, "call", p) ?? .null
            guard let who = decoder.actor(f, p, node: node, required: true) else { return nil }
            return AnswerCallStep(
                actor: who, call: call, operationId: decoder.optionalValue(f, "operationId", p),
                expectedRevision: decoder.optionalValue(f, "expectedRevision", p),
                installationId: decoder.optionalValue(f, "installationId", p),
                body: decoder.requestBody(f, p, anyShape: false), options: options)
        }
    }

    /// `end: {as|device, call, operationId, reason, body}` and the request fields.
    mutating func decodeEnd(_ node: YAMLNode, _ p: String) -> EndCallStep? {
        callRequest(node, p, known: ["call", "operationId", "reason", "body"], required: ["call"]) {
            decoder, f, options in
            let call = decoder.optionalValue(f, "call", p) ?? .null
            guard let who = decoder.actor(f, p, node: node, required: true) else { return nil }
            return EndCallStep(
                actor: who, call: call, operationId: decoder.optionalValue(f, "operationId", p),
                reason: decoder.optionalValue(f, "reason", p), body: decoder.requestBody(f, p, anyShape: false),
                options: options)
        }
    }

    /// `get` or `mediaSession`: `{as|device, call}` and the request fields.
    mutating func decodeCallRead(_ keyword: String, _ node: YAMLNode, _ p: String) -> CallRequestStep? {
        callRequest(node, p, known: ["call"], required: ["call"]) { decoder, f, options in
            let call = decoder.optionalValue(f, "call", p) ?? .null
            guard let who = decoder.actor(f, p, node: node, required: true) else { return nil }
            return CallRequestStep(keyword: keyword, actor: who, call: call, options: options)
        }
    }

    /// `pollEvents: {as|device, cursor, drain}` and the request fields.
    mutating func decodePollEvents(_ node: YAMLNode, _ p: String) -> PollEventsStep? {
        callRequest(node, p, known: ["cursor", "drain"], required: []) { decoder, f, options in
            guard let who = decoder.actor(f, p, node: node, required: true) else { return nil }
            let drain = f["drain"].flatMap { decoder.d.bool($0.value, p + ".drain") } ?? true
            return PollEventsStep(
                actor: who, cursor: decoder.optionalValue(f, "cursor", p), drain: drain, options: options)
        }
    }

    /// A Callx request step: its own fields beside `as`/`device` and the request fields (`save`, `expect`), read
    /// by `build`.
    private mutating func callRequest<S>(
        _ node: YAMLNode, _ p: String, known: [String], required: [String],
        build: (inout ScenarioDecoder, [String: YAMLMapEntry], RequestOptions) -> S?
    ) -> S? {
        var saves: [String] = []
        defer { stepSaves += saves }
        guard
            let (f, options) = requestFields(
                node, p, known: ["as", "device"] + known, required: required, saves: &saves)
        else { return nil }
        return build(&self, f, options)
    }

    /// `expectEvent: {as|device, type, call, match, requirement, within, save}` or
    /// `expectNoEvent: {as|device, type, call, match, requirement, for}`.
    mutating func decodeEventExpectation(_ isNegative: Bool, _ node: YAMLNode, _ p: String) -> (any ProfileStep)? {
        var saves: [String] = []
        defer { stepSaves += saves }
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
