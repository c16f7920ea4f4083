import Foundation
import TestSupport
import Testing

/// `.cpuBound` moves a test case off Swift's cooperative pool onto the trait's own threads, and only
/// there: a test without it still runs on the pool.
@Suite struct CPUBoundTraitTests {
    /// The name of the thread this runs on (the kernel's, as `top -H` shows it).
    static func threadName() -> String {
        ((try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "")
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test(.cpuBound) func aCPUBoundTestRunsOnTheTraitsThreads() async throws {
        #expect(Self.threadName() == "rc-test-cpu")
        // And resumes there after a suspension.
        try await Task.sleep(for: .milliseconds(1))
        #expect(Self.threadName() == "rc-test-cpu")
    }

    @Test(.cpuBound) func aSynchronousCPUBoundTestRunsThereToo() {
        #expect(Self.threadName() == "rc-test-cpu")
    }

    @Test func anotherTestRunsOnThePool() {
        #expect(Self.threadName() != "rc-test-cpu")
    }
}
