import Synchronization

/// The run's counters and figures, shared by every call task and feed reader: a fixed size whatever the
/// run's length (the history itself is filed per call by `LoadJudge` and dropped once judged).
final class LoadRecorder: Sendable {
    struct State {
        /// Each endpoint's latencies, in fixed buckets: a run of an hour keeps no more than one of a second.
        var latencies: [LoadOperation.Kind: LatencyHistogram] = [:]
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

    func callFinished(failure: String?) {
        state.withLock {
            $0.finished += 1
            if let failure {
                $0.failedCalls += 1
                if $0.problems.count < 20 { $0.problems.append(failure) }
            }
        }
    }

    func problem(_ text: String) { state.withLock { if $0.problems.count < 20 { $0.problems.append(text) } } }

    var snapshot: State { state.withLock { $0 } }
}
