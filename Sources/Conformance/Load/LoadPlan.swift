/// How a load run drives the backend: how fast, for how long, and how it is judged. The mix of work (a
/// profile's knobs: Callx's short ring and retries, DialStack's redeliveries) is the workload's.
public struct LoadPlan: Sendable, Equatable {
    /// Units (calls, webhooks) started per second (open loop); nil with `concurrency`.
    public var rate: Double?
    /// Units kept in flight (closed loop); nil with `rate`.
    public var concurrency: Int?
    /// Stop starting units after this long (seconds).
    public var durationSeconds: Double?
    /// Stop after starting this many units.
    public var calls: Int?
    /// At most this many units in flight in rate mode: past it the driver waits (and the rate it reaches says so).
    public var maxInFlight: Int
    /// The hard bound on the whole run, in seconds, whatever else the plan says.
    public var hardLimitSeconds: Double
    /// Judge SHOULD requirements like MUSTs: any violation makes the run non-conformant (`run --strict`).
    public var strict: Bool

    /// Creates a plan; with neither rate nor concurrency it runs 4 units/s; with neither duration nor
    /// count it runs 10 s.
    public init(
        rate: Double? = nil, concurrency: Int? = nil, durationSeconds: Double? = nil, calls: Int? = nil,
        maxInFlight: Int = 200, hardLimitSeconds: Double = 3_600, strict: Bool = false
    ) {
        self.rate = rate ?? (concurrency == nil ? 4 : nil)
        self.concurrency = concurrency
        self.durationSeconds = durationSeconds ?? (calls == nil ? 10 : nil)
        self.calls = calls
        self.maxInFlight = max(1, maxInFlight)
        self.hardLimitSeconds = hardLimitSeconds
        self.strict = strict
    }

    /// `4 calls/s, for 10 s`, `8 in flight, 200 calls at most` (`unit` names what is started: `call`, `webhook`).
    public func summary(unit: String = "call") -> String {
        var parts: [String] = []
        if let rate { parts.append("\(LoadFigures.format(rate)) \(unit)s/s") }
        if let concurrency { parts.append("\(concurrency) in flight") }
        if let durationSeconds { parts.append("for \(LoadFigures.format(durationSeconds)) s") }
        if let calls { parts.append("\(calls) \(unit)s at most") }
        return parts.joined(separator: ", ")
    }
}
