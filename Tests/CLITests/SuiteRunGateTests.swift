import Synchronization
import TestSupport
import Testing

/// `ExclusiveGate`, which `SuiteRunGate` and the heavy-traffic trait take turns through: at most `slots`
/// bodies run at once, and a waiting body goes ahead as soon as one of them ends.
@Suite struct SuiteRunGateTests {
    /// Bodies that each wait until the test lets them end, counting how many run at once.
    final class Bodies: Sendable {
        let state = Mutex((running: 0, most: 0, entered: 0, released: 0))

        /// Counts the body in, waits until `release()` has let this many bodies end, counts it out.
        func body() async {
            let turn = state.withLock { s -> Int in
                s.running += 1
                s.most = max(s.most, s.running)
                s.entered += 1
                return s.entered
            }
            await Self.until(deadlineSeconds: 120) { self.state.withLock { $0.released >= turn } }
            state.withLock { $0.running -= 1 }
        }

        func release() { state.withLock { $0.released += 1 } }

        /// Yields until `condition` holds or the generous deadline passes (then the expectations fail).
        static func until(deadlineSeconds: Double, _ condition: @Sendable () -> Bool) async {
            let end = ContinuousClock.now + .seconds(deadlineSeconds)
            while !condition() && ContinuousClock.now < end { try? await Task.sleep(for: .milliseconds(5)) }
        }
    }

    @Test func twoSlotsLetTwoBodiesRunAndTheThirdWaitsForOneToEnd() async {
        let gate = ExclusiveGate(slots: 2)
        let bodies = Bodies()
        let tasks = (0..<3).map { _ in Task { await gate.exclusive { await bodies.body() } } }
        await Bodies.until(deadlineSeconds: 120) { bodies.state.withLock { $0.entered } == 2 && gate.waiting == 1 }
        #expect(bodies.state.withLock { $0.entered } == 2)
        #expect(gate.waiting == 1)
        bodies.release()
        await Bodies.until(deadlineSeconds: 120) { bodies.state.withLock { $0.entered } == 3 }
        #expect(gate.waiting == 0)
        bodies.release()
        bodies.release()
        for t in tasks { await t.value }
        #expect(bodies.state.withLock { $0.most } == 2)
        #expect(bodies.state.withLock { $0.running } == 0)
    }

    @Test func oneSlotLetsOneBodyRunAtATime() async {
        let gate = ExclusiveGate()
        let bodies = Bodies()
        let tasks = (0..<3).map { _ in Task { await gate.exclusive { await bodies.body() } } }
        await Bodies.until(deadlineSeconds: 120) { bodies.state.withLock { $0.entered } == 1 && gate.waiting == 2 }
        #expect(gate.waiting == 2)
        for _ in 0..<3 { bodies.release() }
        for t in tasks { await t.value }
        #expect(bodies.state.withLock { $0.most } == 1)
    }
}
