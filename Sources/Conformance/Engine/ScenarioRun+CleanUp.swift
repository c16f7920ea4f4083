import HTTP
import JSON

extension ScenarioRun {
    /// After a run on fixed accounts: deletes the tokens its devices registered and ends the calls it left
    /// unfinished, so the next scenario on the same accounts starts clean. Best effort, never judged,
    /// not on the timeline.
    func cleanUpBackend() async {
        for d in devices.values.sorted(by: { $0.name < $1.name }) {
            // A token rebound to another user is deleted as that user.
            let owners = [d.user] + users.keys.sorted().filter { $0 != d.user }
            for owner in owners {
                guard let account = users[owner] else { continue }
                let r = PreparedRequest(
                    actor: owner, method: "DELETE",
                    path: TargetRoutes.fill(
                        engine.target.routes.pushToken, ["installationId": d.installationId, "kind": d.kind.rawValue]),
                    credentials: account.authHeaders, operation: .deleteToken, values: deviceValues(d, account))
                if await quietlySend(r) { break }
            }
        }
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
            _ = await quietlySend(r)
        }
    }

    /// Sends `canonical` without recording it; true on a 2xx answer.
    private func quietlySend(_ canonical: PreparedRequest) async -> Bool {
        guard let response = try? await engine.client.send(clientRequest(wire(canonical))) else { return false }
        let status =
            engine.target.mapping?.normalize(canonical.operation ?? .get, status: response.status, json: nil)
            .status ?? response.status
        return (200..<300).contains(status)
    }
}
