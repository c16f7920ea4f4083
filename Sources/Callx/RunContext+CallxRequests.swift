import Conformance
import HTTP
import JSON

extension RunContext {
    // MARK: The Callx call requests

    /// The values of a request about call `callId` by `who`.
    func callValues(_ callId: String, _ who: TargetUser) -> [String: JSONValue] {
        ["callId": .string(callId), "userId": .string(who.userId)]
    }

    func callPath(_ template: String, _ call: JSONValue) throws -> String {
        RequestTemplate.fill(template, ["callId": try resolver.string(call)])
    }

    /// The calls a create makes the run's own: the one it names, and the one the backend answered with.
    static func createdCalls(_ body: JSONValue) -> @Sendable (Exchange) -> [String] {
        let sent = body["callId"]?.stringValue
        return { answer in [sent, answer.json?["callId"]?.stringValue].compactMap { $0 } }
    }

    func createRequest(_ c: CreateCallStep) throws -> PreparedRequest {
        let who = try identity(c.actor)
        var body: JSONValue = [
            "callId": try c.callId.map { try resolver.resolve($0) } ?? .string(RandomText.uuid()),
            "calleeUserId": .string(try user(c.callee).userId),
            "operationId": try operationId(c.operationId),
        ]
        if let video = c.video { body = body.setting("video", to: .bool(video)) }
        // Only scenarios about expiry ring short; every other call rings long enough for a busy machine.
        var values: [String: JSONValue] = ["userId": .string(who.user.userId)]
        if scenario.needs.contains(.shortRing), let field = target.shortRingField {
            body = body.setting(field, to: .int(Target.shortRingSeconds))
            // A target's create template places it with {ringSeconds}.
            values["ringSeconds"] = .int(Target.shortRingSeconds)
        }
        body = try merged(body, c.body)
        return PreparedRequest(
            actor: who.label, method: "POST", path: target.routes.calls, credentials: who.user.authHeaders,
            body: body, operation: .create, values: values, extraKeys: extraKeys(c.body),
            actorInstallation: who.installationId, claimedCalls: Self.createdCalls(body))
    }

    func answerRequest(_ a: AnswerCallStep) throws -> PreparedRequest {
        let who = try identity(a.actor)
        var body: JSONValue = [
            "operationId": try operationId(a.operationId),
            "installationId": try a.installationId.map { try resolver.resolve($0) } ?? .string(who.installationId),
        ]
        if let rev = a.expectedRevision { body = body.setting("expectedRevision", to: try resolver.resolve(rev)) }
        body = try merged(body, a.body)
        // The installation the answer answers as (before a target's mapping moves it).
        let answering = body["installationId"]?.stringValue
        return PreparedRequest(
            actor: who.label, method: "POST", path: try callPath(target.routes.answer, a.call),
            credentials: who.user.authHeaders, body: body, operation: .answer,
            values: callValues(try resolver.string(a.call), who.user), extraKeys: extraKeys(a.body),
            actorInstallation: who.installationId,
            wins: { CallxProfile.isWinner($0, answeringAs: answering) })
    }

    func endRequest(_ e: EndCallStep) throws -> PreparedRequest {
        let who = try identity(e.actor)
        var body: JSONValue = [
            "operationId": try operationId(e.operationId),
            "reason": try e.reason.map { try resolver.resolve($0) } ?? "remoteEnded",
        ]
        if who.isDevice { body = body.setting("installationId", to: .string(who.installationId)) }
        body = try merged(body, e.body)
        noteEndRequestLeaving(try resolver.string(e.call))
        return PreparedRequest(
            actor: who.label, method: "POST", path: try callPath(target.routes.end, e.call),
            credentials: who.user.authHeaders, body: body, operation: .end,
            values: callValues(try resolver.string(e.call), who.user), extraKeys: extraKeys(e.body),
            actorInstallation: who.installationId)
    }

    /// Takes the end request's place in `ArrivalOrder` for call `callId` just before it leaves (the request is
    /// built right before it is sent, alone or in a race); the first end request of a call keeps its place.
    func noteEndRequestLeaving(_ callId: String) {
        var t = callx.calls[callId] ?? CallTimeline(callId: callId)
        if t.endRequestOrder == nil { t.endRequestOrder = ArrivalOrder.next() }
        callx.calls[callId] = t
    }

    /// `get` or `mediaSession` of one call.
    func callRequest(_ r: CallRequestStep) throws -> PreparedRequest {
        let who = try identity(r.actor)
        let routes = target.routes
        if r.keyword == "get" {
            return PreparedRequest(
                actor: who.label, method: "GET", path: try callPath(routes.call, r.call),
                credentials: who.user.authHeaders, operation: .get,
                values: callValues(try resolver.string(r.call), who.user), actorInstallation: who.installationId)
        }
        let body: JSONValue = who.isDevice ? ["installationId": .string(who.installationId)] : [:]
        return PreparedRequest(
            actor: who.label, method: "POST", path: try callPath(routes.mediaSession, r.call),
            credentials: who.user.authHeaders, body: body, operation: .mediaSession,
            values: callValues(try resolver.string(r.call), who.user).merging(
                ["operationId": .string(freshOperationId())]) { a, _ in a },
            actorInstallation: who.installationId)
    }
}

extension CallxProfile {
    /// Whether a raced answer won: a 2xx answer, except one whose snapshot names another installation
    /// as the winner (the seed lets a later answer get the winner's snapshot, with any status).
    static func isWinner(_ ex: Exchange, answeringAs installation: String?) -> Bool {
        guard ex.isSuccess else { return false }
        guard let installation, let winner = ex.json?["answeredByInstallationId"]?.stringValue else { return true }
        return winner == installation
    }
}
