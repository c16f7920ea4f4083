import Conformance
import JSON

extension RunContext {
    // MARK: Answers without a snapshot

    /// `ex` completed with the call's snapshot when the target's 2xx answer to that operation may
    /// carry none (`snapshotFromGet: true`) and did not: a `get` by the same actor right after gives
    /// it. The answer's own status and media stay; the snapshot is judged as if the answer had carried it.
    func completed(_ ex: Exchange, _ canonical: PreparedRequest) async -> Exchange {
        guard ex.isSuccess, ex.json?["state"] == nil, let operation = canonical.operation.flatMap(TargetOperation.init),
            [.create, .answer, .end].contains(operation),
            target.mapping?[operation].response.snapshotByGet == true,
            let callId = (canonical.values["callId"] ?? canonical.body?["callId"]).map(RequestTemplate.text)
        else { return ex }
        var values = canonical.values
        values["callId"] = .string(callId)
        let get = PreparedRequest(
            actor: canonical.actor, method: "GET",
            path: RequestTemplate.fill(target.routes.call, ["callId": callId]),
            credentials: canonical.credentials, operation: .get, values: values,
            actorInstallation: canonical.actorInstallation)
        let read = await send(get)
        guard read.isSuccess, let snapshot = read.json, snapshot["state"] != nil else {
            note(
                "\(canonical.actor): the \(operation.rawValue) answer carries no snapshot and the follow-up get gave none"
            )
            return ex
        }
        var out = ex
        var json = ex.json?.objectValue.map(JSONValue.object) ?? .object([])
        for m in snapshot.objectValue ?? [] { json = json.setting(m.key, to: m.value) }
        out.json = json
        return out
    }
}
