import HTTP
import JSON

extension ScenarioRun {
    /// After a run on fixed accounts, once its tokens are deleted: ends the calls it left unfinished, so the
    /// next scenario on the same accounts starts clean (Callx's `Profile.cleanUp(in:)`). Never judged, not on
    /// the timeline.
    func endUnfinishedCalls() async {
        guard let caller = users["a"] else { return }
        for t in calls.values.sorted(by: { $0.callId < $1.callId }) where t.endedObservedAtMs == nil {
            if snapshots[t.callId]?["state"]?.stringValue == "ended" { continue }
            let body: JSONValue = [
                "operationId": .string(freshOperationId()),
                "reason": .string(t.answeredObservedAtMs == nil ? "callerCancelled" : "remoteEnded"),
            ]
            let r = PreparedRequest(
                actor: "a", method: "POST", path: TargetRoutes.fill(engine.target.routes.end, ["callId": t.callId]),
                credentials: caller.authHeaders, body: body, operation: .end, values: callValues(t.callId, caller))
            await quietlySend(r)
        }
    }
}
