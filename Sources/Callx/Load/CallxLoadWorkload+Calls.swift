import Conformance
import Foundation
import JSON

extension CallxLoadWorkload {
    // MARK: One call

    /// Places call number `index` and plays its script to the end.
    func runCall(_ index: Int) async {
        let script = LoadScript.script(for: index, shortRing: target.shortRingField != nil)
        recorder.unitStarted(kind: script.rawValue)
        let callerIndex = index % callers.count
        let calleeIndex = index % callees.count
        let caller = callers[callerIndex]
        let callee = callees[calleeIndex]
        let phones = devices[calleeIndex]
        let callId = RandomText.uuid()
        judge.open(
            callId, feeds: [callerFeeds[callerIndex]] + phones.map(\.installationId),
            invitationTokens: Set(phones.map { $0.token.lowercased() }))
        var body: JSONValue = [
            "callId": .string(callId), "calleeUserId": .string(callee.userId),
            "operationId": .string(Self.operationId()),
        ]
        if script == .expire, let field = target.shortRingField {
            body = body.setting(field, to: .int(Int64(settings.shortRingSeconds)))
        }
        let create = await perform(.create, callId: callId, as: caller, body: body)
        guard create.succeeded else {
            recorder.unitFinished(failure: "create \(callId): \(HistoryChecker.describe(create))")
            judge.close(callId, record: nil)
            return
        }
        let call = LoadCall(
            callId: callId, script: script.rawValue, callerFeed: callerFeeds[callerIndex],
            calleeFeeds: phones.map(\.installationId), expiresAtMs: nil)
        // Register the call before anything else can fail, so the history knows it.
        var failure: String?
        // A retried create, as after a lost response: same operationId, same body.
        // Only against a target that declares idempotency: one without it is not judged on retries.
        if retries && index % settings.retryEvery == 0 {
            await perform(.create, callId: callId, as: caller, body: body, isRetry: true)
        }
        if mocks != nil,
            !(await judge.waitForInvitations(
                callId, count: phones.count, timeout: .milliseconds(Int64(settings.waitLimitSeconds * 1000))))
        {
            recorder.problem("call \(callId): not every device's invitation reached the mocks within the wait limit")
        }
        switch script {
        case .race:
            let answers = await withTaskGroup(of: LoadOperation.self) { group in
                for d in phones { group.addTask { await self.answer(callId, as: callee, from: d) } }
                var all: [LoadOperation] = []
                for await op in group { all.append(op) }
                return all
            }
            if answers.contains(where: \.succeeded) { await hangUp(callId, caller) }
        case .answerRetry:
            let body = answerBody(phones[0])
            let first = await perform(
                .answer, callId: callId, as: callee, installationId: phones[0].installationId, body: body)
            if retries {
                await perform(
                    .answer, callId: callId, as: callee, installationId: phones[0].installationId, body: body,
                    isRetry: true)
            }
            if first.succeeded { await hangUp(callId, caller) }
        case .calleeHangup:
            let d = phones[index % phones.count]
            let answered = await answer(callId, as: callee, from: d)
            if answered.succeeded {
                try? await Task.sleep(for: .milliseconds(200))
                await end(callId, as: callee, from: d, reason: "localHangup")
            }
        case .cancel:
            await end(callId, as: caller, reason: "callerCancelled")
        case .decline:
            await end(callId, as: callee, from: phones[phones.count - 1], reason: "declined")
        case .expire:
            failure = await awaitExpiry(callId, caller, expiresAtMs: create.expiresAtMs)
        }
        var recorded = call
        recorded.expiresAtMs = create.expiresAtMs
        await perform(.get, callId: callId, as: caller)
        recorder.unitFinished(failure: failure)
        judge.close(callId, record: recorded)
    }

    /// Whether the driver retries creates and answers with the same operationId (the target declares `idempotency`).
    var retries: Bool { target.capabilities.contains(.idempotency) }

    func answerBody(_ d: VirtualCallee) -> JSONValue {
        ["operationId": .string(Self.operationId()), "installationId": .string(d.installationId)]
    }

    func answer(_ callId: String, as user: TargetUser, from d: VirtualCallee) async -> LoadOperation {
        await perform(.answer, callId: callId, as: user, installationId: d.installationId, body: answerBody(d))
    }

    /// The caller hangs up after a moment of talk.
    func hangUp(_ callId: String, _ caller: TargetUser) async {
        try? await Task.sleep(for: .milliseconds(200))
        await end(callId, as: caller, reason: "localHangup")
    }

    @discardableResult
    func end(_ callId: String, as user: TargetUser, from d: VirtualCallee? = nil, reason: String) async -> LoadOperation
    {
        var body: JSONValue = ["operationId": .string(Self.operationId()), "reason": .string(reason)]
        if let d { body = body.setting("installationId", to: .string(d.installationId)) }
        return await perform(.end, callId: callId, as: user, installationId: d?.installationId, body: body)
    }

    /// Waits past the call's expiry and reads its snapshot until it shows the call ended; the reason
    /// when it never did within the wait limit.
    func awaitExpiry(_ callId: String, _ caller: TargetUser, expiresAtMs: Int64?) async -> String? {
        let expires = expiresAtMs ?? (LoadDriver.wallMs() + Int64(settings.shortRingSeconds) * 1000)
        let wait = max(0, expires - LoadDriver.wallMs()) + 300
        try? await Task.sleep(for: .milliseconds(min(wait, Int64(settings.waitLimitSeconds * 1000))))
        let deadline = ContinuousClock.now + .milliseconds(Int64(settings.waitLimitSeconds * 1000))
        while ContinuousClock.now < deadline {
            let op = await perform(.get, callId: callId, as: caller)
            if op.state == "ended" { return nil }
            try? await Task.sleep(for: .milliseconds(250))
        }
        return "call \(callId) was still not ended \(LoadFigures.format(settings.waitLimitSeconds)) s after its expiry"
    }
}
