import Foundation

/// Latency percentiles of one endpoint or one kind of push, in milliseconds.
public struct LatencyFigures: Sendable, Equatable, Codable {
    /// `create`, `answer`, … or `invitation`, `call.ended stop signal`.
    public var name: String
    public var count: Int
    public var p50Ms: Double
    public var p90Ms: Double
    public var p99Ms: Double
    public var maxMs: Double

    /// The figures of `values` (nil when there are none).
    public init?(name: String, values: [Double]) {
        self.init(name: name, histogram: LatencyHistogram(values))
    }

    /// The figures a histogram keeps (nil when it is empty): the percentiles within 1% of the exact ones,
    /// the count and the maximum exact.
    public init?(name: String, histogram: LatencyHistogram) {
        guard histogram.count > 0 else { return nil }
        self.name = name
        count = histogram.count
        p50Ms = histogram.percentile(50)
        p90Ms = histogram.percentile(90)
        p99Ms = histogram.percentile(99)
        maxMs = histogram.maxMs
    }
}

/// The arithmetic of a load report.
public enum LoadFigures {
    /// The nearest-rank percentile `p` (0–100) of ascending `sorted` values.
    public static func percentile(_ sorted: [Double], _ p: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }

    /// `4`, `2.5`, `0.33`: a number without trailing zeros.
    public static func format(_ v: Double) -> String {
        if v == v.rounded() && abs(v) < 1e15 { return String(Int64(v)) }
        return String(format: abs(v) >= 10 ? "%.1f" : "%.2f", v)
    }
}

/// CPU and memory of the backend's process over the run.
public struct ResourceFigures: Sendable, Equatable, Codable {
    /// What was measured: the child process, or ringcheck's own process for the in-process reference.
    public var label: String
    public var pid: Int32
    public var cpuSeconds: Double
    /// CPU seconds per wall second over the run, as a percentage of one core.
    public var cpuPercent: Double
    public var rssStartKiB: Int
    public var rssPeakKiB: Int
    public var rssEndKiB: Int
    /// Every sample, once a second.
    public var samples: [ProcessSample]

    /// The figures of `samples` (nil when there are fewer than two).
    public init?(process: WatchedProcess, samples: [ProcessSample]) {
        guard let first = samples.first, let last = samples.last, samples.count >= 2 else { return nil }
        label = process.label
        pid = process.pid
        cpuSeconds = last.cpuSeconds - first.cpuSeconds
        let wall = last.atSeconds - first.atSeconds
        cpuPercent = wall > 0 ? cpuSeconds / wall * 100 : 0
        rssStartKiB = first.rssKiB
        rssPeakKiB = samples.map(\.rssKiB).max() ?? 0
        rssEndKiB = last.rssKiB
        self.samples = samples
    }
}
