import Foundation

/// Latencies counted into fixed logarithmic buckets, so a load run's figures take the same memory after an
/// hour as after a second: each bucket spans 2% (bucket `i` holds `[floor·1.02^i, floor·1.02^(i+1))` ms),
/// so a percentile read from it is within 1% of the exact nearest-rank value (the bucket's geometric middle,
/// kept within the smallest and largest value seen). The count, the smallest and the largest value are exact.
public struct LatencyHistogram: Sendable, Equatable {
    /// The smallest latency told apart from zero, in ms; smaller values count in the first bucket.
    static let floorMs = 0.01
    /// The ratio between a bucket's bounds.
    static let growth = 1.02
    /// Buckets from 0.01 ms to past 24 hours (`floor·1.02^1500`, about 1.5e11 ms); longer values count in
    /// the last one.
    static let bucketCount = 1500

    private var buckets = [Int](repeating: 0, count: LatencyHistogram.bucketCount)
    public private(set) var count = 0
    public private(set) var minMs = Double.infinity
    public private(set) var maxMs = -Double.infinity

    /// An empty histogram.
    public init() {}

    /// The histogram of `values`.
    public init(_ values: some Sequence<Double>) {
        for v in values { add(v) }
    }

    /// How many buckets it keeps: the same whatever was added.
    public var storageCount: Int { buckets.count }

    /// Counts `ms` (a NaN is ignored).
    public mutating func add(_ ms: Double) {
        guard !ms.isNaN else { return }
        buckets[Self.bucket(ms)] += 1
        count += 1
        minMs = Swift.min(minMs, ms)
        maxMs = Swift.max(maxMs, ms)
    }

    static func bucket(_ ms: Double) -> Int {
        guard ms > floorMs else { return 0 }
        guard ms.isFinite else { return bucketCount - 1 }
        let i = Int(log(ms / floorMs) / log(growth))
        return Swift.min(Swift.max(i, 0), bucketCount - 1)
    }

    /// The nearest-rank percentile `p` (0–100), within 1% of the exact one; 0 when empty.
    public func percentile(_ p: Double) -> Double {
        guard count > 0 else { return 0 }
        let rank = Swift.min(Swift.max(Int((p / 100 * Double(count)).rounded(.up)), 1), count)
        if rank == count { return maxMs }
        var seen = 0
        for (i, n) in buckets.enumerated() where n > 0 {
            seen += n
            if seen >= rank {
                let middle = Self.floorMs * pow(Self.growth, Double(i) + 0.5)
                return Swift.min(Swift.max(middle, minMs), maxMs)
            }
        }
        return maxMs
    }
}
