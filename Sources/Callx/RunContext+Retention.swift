import Conformance
import JSON

extension RunContext {
    /// Places and cancels one call more than the target keeps events, so that every event the
    /// callee's feed had before has fallen out of retention.
    func overflowEvents(_ o: OverflowEventsStep, step: ScenarioStep) async throws {
        guard let retention = target.eventRetention, retention > 0 else {
            throw HarnessStop(message: "\(step.path): the target declares no event retention")
        }
        note("placing and cancelling \(retention + 1) calls to \(o.callee) (the target keeps \(retention) events)")
        for _ in 0...retention {
            let create = try createRequest(CreateCallStep(actor: o.actor, callee: o.callee, options: RequestOptions()))
            let created = await send(create)
            guard created.isSuccess, let callId = created.json?["callId"]?.stringValue else {
                throw HarnessStop(message: "\(step.path): creating a call failed: \(Self.outcome(created))")
            }
            let end = try endRequest(EndCallStep(actor: o.actor, call: .string(callId), options: RequestOptions()))
            let ended = await send(end)
            guard ended.isSuccess else {
                throw HarnessStop(message: "\(step.path): ending call \(callId) failed: \(Self.outcome(ended))")
            }
        }
    }

    /// `409 {"error":…}` or the transport error, for a harness message.
    static func outcome(_ e: Exchange) -> String {
        if let status = e.status { return "\(status) \(String(decoding: e.responseBody.prefix(300), as: UTF8.self))" }
        return e.error ?? "no response"
    }
}
