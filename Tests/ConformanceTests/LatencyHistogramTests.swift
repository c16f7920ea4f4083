import Conformance
import Foundation
import TestSupport
import Testing

/// A load run's latency figures come from fixed buckets: the same memory after any number of requests,
/// percentiles within 1% of the exact nearest-rank ones, count and maximum exact.
@Suite struct LatencyHistogramTests {
    @Test func percentilesStayWithinOnePercentOfTheExactOnes() {
        var generator = SeededGenerator(seed: 25)
        // Latencies from a tenth of a millisecond to a minute, spread over five orders of magnitude.
        let values = (0..<20_000).map { _ in pow(10, Double.random(in: -1...4.8, using: &generator)) }
        let figures = LatencyFigures(name: "create", values: values)
        let sorted = values.sorted()
        #expect(figures?.count == values.count)
        #expect(figures?.maxMs == sorted.last)
        for (p, got) in [(50.0, figures?.p50Ms), (90, figures?.p90Ms), (99, figures?.p99Ms)] {
            let exact = LoadFigures.percentile(sorted, p)
            let error = abs((got ?? 0) - exact) / exact
            #expect(error <= 0.01, "p\(p): \(got ?? 0) against exact \(exact)")
        }
    }

    @Test func itKeepsTheSameStorageHoweverManyLatenciesItCounts() {
        var histogram = LatencyHistogram()
        let empty = histogram.storageCount
        for i in 0..<200_000 { histogram.add(Double(i % 7_000) * 0.37) }
        #expect(histogram.count == 200_000)
        #expect(histogram.storageCount == empty)
        // Out of range both ways, and NaN, neither grows it nor crashes.
        for v in [0, -5, 1e30, .infinity, .nan] { histogram.add(v) }
        #expect(histogram.storageCount == empty)
        #expect(histogram.count == 200_004)
    }

    @Test func aSingleValueIsItsOwnEveryPercentile() {
        let figures = LatencyFigures(name: "get", values: [12.5])
        #expect(figures?.p50Ms == 12.5 && figures?.p99Ms == 12.5 && figures?.maxMs == 12.5)
        #expect(LatencyFigures(name: "get", values: []) == nil)
    }
}
