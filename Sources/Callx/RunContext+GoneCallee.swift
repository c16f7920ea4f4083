import Conformance
import JSON

extension RunContext {
    // MARK: A create to a callee whose tokens are gone

    /// A create refused with 404 because the callee has no registered device left, when the scenario
    /// made every token of the callee gone: evidence that the backend dropped them (no call, so no
    /// push), not a set-up failure. Returns true when `ex` is such a refusal (saved as the call's ID).
    func acceptsRefusalForGoneTokens(_ ex: Exchange, _ request: PreparedRequest, _ c: CreateCallStep) -> Bool {
        guard c.options.expect == nil, ex.status == 404 else { return false }
        let callee = devices.values.filter { $0.user == c.callee }
        guard !callee.isEmpty, callee.allSatisfy({ goneTokenDevices.contains($0.name) }) else { return false }
        let callId = request.body?["callId"] ?? .null
        note("the create was refused with 404: the callee has no registered device left (its tokens are gone)")
        if let save = c.options.save { resolver.saved[save] = ["callId": callId, "refusedStatus": 404] }
        return true
    }
}
