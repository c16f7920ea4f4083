import Conformance

/// Webhook-to-push latency of one scenario run: for each push the provider accepted, the time from the moment
/// ringcheck sent the webhook it answers to the push's arrival at the mock (both wall-clock stamps on this
/// machine), judged against `DialStackTiming.latencyBoundMs`.
struct DialStackLatency: Sendable, Equatable {
    struct Sample: Sendable, Equatable {
        var sequence: Int
        var device: String
        var eventId: String
        var milliseconds: Int64
    }

    var samples: [Sample]

    init(_ pushes: [DialStackJudgedPush], deliveries: [DialStackDelivery]) {
        samples = pushes.compactMap { push in
            guard push.capture.outcome.isAccepted, let wakeUp = DialStackPush(push.capture),
                let delivery = DialStackInvariants.matchingDelivery(
                    wakeUp, arrivalMs: push.capture.arrivalMs, deliveries),
                delivery.signedValidly
            else { return nil }
            return Sample(
                sequence: push.capture.sequence, device: push.device, eventId: delivery.eventId,
                milliseconds: push.capture.arrivalMs - delivery.sentAtMs)
        }
    }

    /// The median (the lower middle value for an even count); nil without samples.
    var p50: Int64? {
        let sorted = samples.map(\.milliseconds).sorted()
        return sorted.isEmpty ? nil : sorted[(sorted.count - 1) / 2]
    }

    var max: Int64? { samples.map(\.milliseconds).max() }

    /// The samples over the bound.
    var tooSlow: [Sample] { samples.filter { $0.milliseconds > DialStackTiming.latencyBoundMs } }

    /// `wake-up latency over 3 pushes: p50 42 ms, max 57 ms (bound 15000 ms)`.
    var summary: String {
        guard let p50, let max else { return "wake-up latency: no push answered a webhook" }
        return "wake-up latency over \(samples.count) push\(samples.count == 1 ? "" : "es"): p50 \(p50) ms, "
            + "max \(max) ms (bound \(DialStackTiming.latencyBoundMs) ms)"
    }
}
