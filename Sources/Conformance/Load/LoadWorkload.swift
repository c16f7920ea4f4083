/// What a profile puts under load: how one unit of work (a call, a notification…) is played and
/// recorded, what runs beside the units (feed readers), and how the recorded history is judged.
/// `LoadDriver` owns the rest, the same for every profile: the rate or concurrency, the duration or
/// count, the in-flight bound, Ctrl-C, progress, the figures, the backend's CPU and memory, and the
/// report.
///
/// A workload records into the driver's `LoadRecorder` (latencies per endpoint, units that failed,
/// problems) and keeps its own history, judging it as it goes (so a long run's memory stays flat) or
/// at `finish`.
///
/// ```swift
/// struct PingWorkload: LoadWorkload {
///     let client: HTTPClient
///     var profile: String { "ping" }
///     var unit: String { "ping" }
///     var targetName: String { "local" }
///     var endpoints: [String] { ["ping"] }
///     func prepare(_ recorder: LoadRecorder) async -> String? { nil }
///     func run(_ index: Int, _ recorder: LoadRecorder) async {
///         recorder.unitStarted(kind: "ping")
///         let started = ContinuousClock.now
///         let ok = (try? await client.send(ClientRequest(url: "http://127.0.0.1:8080/ping")))?.status == 200
///         recorder.latency("ping", ms: LoadDriver.seconds(.now - started) * 1000)
///         recorder.unitFinished(failure: ok ? nil : "ping \(index) failed")
///     }
///     func follow(_ recorder: LoadRecorder, until stopped: @escaping @Sendable () -> Bool) async {}
///     func settle() async {}
///     func finish(_ recorder: LoadRecorder) async -> LoadFindings { LoadFindings() }
///     func shutdown() { client.shutdown() }
/// }
/// let result = await LoadDriver(workload: PingWorkload(client: try HTTPClient()), plan: LoadPlan(rate: 5)).run()
/// ```
public protocol LoadWorkload: Sendable {
    /// The profile's name in the report (`callx`).
    var profile: String { get }
    /// What one unit of work is called in progress lines and messages (`call`, `webhook`).
    var unit: String { get }
    /// The target's name in the report.
    var targetName: String { get }
    /// The endpoints whose latencies the report lists, in its order.
    var endpoints: [String] { get }
    /// Gets the backend ready before the first unit (registers devices, say); the reason when it cannot:
    /// the run is then inconclusive.
    func prepare(_ recorder: LoadRecorder) async -> String?
    /// Plays unit number `index` to its end, telling `recorder` when it starts and finishes.
    func run(_ index: Int, _ recorder: LoadRecorder) async
    /// Runs beside the units (reads feeds, judges units that closed) until `stopped()` says so.
    func follow(_ recorder: LoadRecorder, until stopped: @escaping @Sendable () -> Bool) async
    /// After the last unit, before `follow` is stopped: waits for what is still on its way (pushes).
    func settle() async
    /// The run is over: reads what is left and judges what is not judged yet.
    func finish(_ recorder: LoadRecorder) async -> LoadFindings
    /// Releases what the workload holds (its HTTP client).
    func shutdown()
}

/// What a workload's judgement found, for the report.
public struct LoadFindings: Sendable {
    public var history: [LoadViolation]
    public var invariants: [LoadViolation]
    public var pushes: Int
    public var invitations: Int
    public var pushLatency: [LatencyFigures]
    /// Why the history could not be judged whole (a feed could not be read to its end), if so.
    public var incomplete: String?

    /// Creates a value from its parts.
    public init(
        history: [LoadViolation] = [], invariants: [LoadViolation] = [], pushes: Int = 0,
        invitations: Int = 0, pushLatency: [LatencyFigures] = [], incomplete: String? = nil
    ) {
        self.history = history
        self.invariants = invariants
        self.pushes = pushes
        self.invitations = invitations
        self.pushLatency = pushLatency
        self.incomplete = incomplete
    }
}

/// Why a workload cannot be set up for a target (no webhook, no user): a configuration error (exit 2).
public struct LoadSetupError: Error, CustomStringConvertible {
    public var message: String

    /// Creates a value from its parts.
    public init(message: String) { self.message = message }

    public var description: String { message }
}
