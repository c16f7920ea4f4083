import JSON
import Synchronization

/// The history as the driver records it, shared by every call task and feed reader.
final class LoadRecorder: Sendable {
    struct State {
        var calls: [LoadCall] = []
        var operations: [LoadOperation] = []
        /// Each endpoint's latencies, in fixed buckets: a run of an hour keeps no more than one of a second.
        var latencies: [LoadOperation.Kind: LatencyHistogram] = [:]
        var feeds: [String: [FeedEntry]] = [:]
        /// The raw events, for the profile's event invariants.
        var rawEvents: [ObservedEvent] = []
        var started = 0
        var finished = 0
        var failedCalls = 0
        var transportErrors = 0
        var scripts: [LoadScript: Int] = [:]
        var problems: [String] = []
    }

    let state = Mutex(State())

    func record(_ op: LoadOperation, latencyMs: Double) {
        state.withLock {
            $0.operations.append(op)
            $0.latencies[op.kind, default: LatencyHistogram()].add(latencyMs)
            if op.status == nil { $0.transportErrors += 1 }
        }
    }

    func latency(_ kind: LoadOperation.Kind, ms: Double) {
        state.withLock { $0.latencies[kind, default: LatencyHistogram()].add(ms) }
    }

    func callStarted(_ script: LoadScript) {
        state.withLock {
            $0.started += 1
            $0.scripts[script, default: 0] += 1
        }
    }

    func callFinished(_ call: LoadCall?, failure: String?) {
        state.withLock {
            $0.finished += 1
            if let call { $0.calls.append(call) }
            if let failure {
                $0.failedCalls += 1
                if $0.problems.count < 20 { $0.problems.append(failure) }
            }
        }
    }

    func feed(_ feed: String, entries: [FeedEntry], raw: [JSONValue], atMs: Int64) {
        state.withLock {
            $0.feeds[feed, default: []] += entries
            $0.rawEvents += raw.map { ObservedEvent(feed: feed, json: $0, receivedAtMs: atMs) }
        }
    }

    func problem(_ text: String) { state.withLock { if $0.problems.count < 20 { $0.problems.append(text) } } }

    var snapshot: State { state.withLock { $0 } }
}
