import Conformance
import JSON

extension RunContext {
    /// After a run on fixed accounts (and its token deletes): ends the calls the run left unfinished, as
    /// their caller `a`, so that the next scenario on the same accounts starts clean. Never judged, not on
    /// the timeline. Each end carries `a`'s own installation where the target places one otherwise than the
    /// reference design, as `a`'s ends in the steps do (`TargetMapping.carriesActorInstallation`).
    func endUnfinishedCalls() async {
        guard let caller = users["a"], let installation = try? identity(.user("a")).installationId else { return }
        let state = callx
        for t in state.calls.values.sorted(by: { $0.callId < $1.callId }) where t.endedObservedAtMs == nil {
            if state.snapshots[t.callId]?["state"]?.stringValue == "ended" { continue }
            let body: JSONValue = [
                "operationId": .string(freshOperationId()),
                "reason": .string(t.answeredObservedAtMs == nil ? "callerCancelled" : "remoteEnded"),
            ]
            let r = PreparedRequest(
                actor: "a", method: "POST", path: RequestTemplate.fill(target.routes.end, ["callId": t.callId]),
                credentials: caller.authHeaders, body: body, operation: .end, values: callValues(t.callId, caller),
                actorInstallation: installation)
            await quietlySend(r)
        }
    }
}
