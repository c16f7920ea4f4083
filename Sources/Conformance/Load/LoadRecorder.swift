import Synchronization

/// The run's counters and figures, shared by every unit's task and the workload's readers: a fixed size
/// whatever the run's length (a workload keeps its history itself, and may drop each unit once it has
/// judged it).
public final class LoadRecorder: Sendable {
    struct State {
        /// Each endpoint's latencies, in fixed buckets: a run of an hour keeps no more than one of a second.
        var latencies: [String: LatencyHistogram] = [:]
        var started = 0
        var finished = 0
        var failedCalls = 0
        var transportErrors = 0
        /// Units started per kind (Callx: per script).
        var scripts: [String: Int] = [:]
        var problems: [String] = []
    }

    let state = Mutex(State())

    /// An empty record.
    public init() {}

    /// A request to `endpoint` took `ms`; `answered` false when no answer came at all (a transport error).
    public func latency(_ endpoint: String, ms: Double, answered: Bool = true) {
        state.withLock {
            $0.latencies[endpoint, default: LatencyHistogram()].add(ms)
            if !answered { $0.transportErrors += 1 }
        }
    }

    /// A unit of work of `kind` started.
    public func unitStarted(kind: String) {
        state.withLock {
            $0.started += 1
            $0.scripts[kind, default: 0] += 1
        }
    }

    /// A unit finished; `failure` says why it could not be played (at most 20 are kept as problems).
    public func unitFinished(failure: String?) {
        state.withLock {
            $0.finished += 1
            if let failure {
                $0.failedCalls += 1
                if $0.problems.count < 20 { $0.problems.append(failure) }
            }
        }
    }

    /// Something that got in the way (at most 20 are kept).
    public func problem(_ text: String) { state.withLock { if $0.problems.count < 20 { $0.problems.append(text) } } }

    var snapshot: State { state.withLock { $0 } }

    /// Units started and not finished.
    var inFlight: Int { state.withLock { $0.started - $0.finished } }
}
