/// How a load run drives the backend: how fast, for how long, and with which mix of calls.
public struct LoadPlan: Sendable, Equatable {
    /// Calls started per second (open loop); nil with `concurrency`.
    public var rate: Double?
    /// Calls kept in flight (closed loop); nil with `rate`.
    public var concurrency: Int?
    /// Stop starting calls after this long (seconds).
    public var durationSeconds: Double?
    /// Stop after starting this many calls.
    public var calls: Int?
    /// At most this many calls in flight in rate mode: past it the driver waits (and the rate it reaches says so).
    public var maxInFlight: Int
    /// How long a call of the `expire` script rings, through the target's short-ring field.
    public var shortRingSeconds: Int
    /// Every n-th call retries its create with the same operationId and body; every n-th answer is retried too.
    public var retryEvery: Int
    /// How often each feed is read while calls run (milliseconds).
    public var feedPollMs: Int
    /// The longest any single wait of a call may take (its invitations, its expiry), in seconds.
    public var waitLimitSeconds: Double
    /// The hard bound on the whole run, in seconds, whatever else the plan says.
    public var hardLimitSeconds: Double

    /// Creates a plan; with neither rate nor concurrency it runs 4 calls/s; with neither duration nor
    /// count it runs 10 s.
    public init(
        rate: Double? = nil, concurrency: Int? = nil, durationSeconds: Double? = nil, calls: Int? = nil,
        maxInFlight: Int = 200, shortRingSeconds: Int = 3, retryEvery: Int = 4, feedPollMs: Int = 250,
        waitLimitSeconds: Double = 20, hardLimitSeconds: Double = 3_600
    ) {
        self.rate = rate ?? (concurrency == nil ? 4 : nil)
        self.concurrency = concurrency
        self.durationSeconds = durationSeconds ?? (calls == nil ? 10 : nil)
        self.calls = calls
        self.maxInFlight = max(1, maxInFlight)
        self.shortRingSeconds = max(1, shortRingSeconds)
        self.retryEvery = max(1, retryEvery)
        self.feedPollMs = max(10, feedPollMs)
        self.waitLimitSeconds = waitLimitSeconds
        self.hardLimitSeconds = hardLimitSeconds
    }

    /// `4 calls/s for 10 s`, `8 in flight, 200 calls`.
    public var summary: String {
        var parts: [String] = []
        if let rate { parts.append("\(LoadFigures.format(rate)) calls/s") }
        if let concurrency { parts.append("\(concurrency) in flight") }
        if let durationSeconds { parts.append("for \(LoadFigures.format(durationSeconds)) s") }
        if let calls { parts.append("\(calls) calls at most") }
        return parts.joined(separator: ", ")
    }
}
