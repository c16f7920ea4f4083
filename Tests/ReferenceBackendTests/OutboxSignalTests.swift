import Testing

@testable import ReferenceBackend

@Suite struct OutboxSignalTests {
    @Test func notifyBeforeWaitIsNotLost() async {
        let signal = OutboxSignal()
        signal.notify()
        let start = SystemClock.milliseconds()
        // A lost notification would wait the full minute; a generous bound tells the two apart on a busy machine.
        await signal.wait(timeoutMs: 60_000)
        #expect(SystemClock.milliseconds() - start < 30_000)
    }

    @Test func waitEndsOnTimeout() async {
        let signal = OutboxSignal()
        let start = SystemClock.milliseconds()
        await signal.wait(timeoutMs: 20)
        #expect(SystemClock.milliseconds() - start >= 15)
    }

    /// The waiter's own timeout is an hour, so returning at all (well within the test's time limit, however busy
    /// the machine) shows `notify` woke it.
    @Test(.timeLimit(.minutes(5))) func notifyWakesAWaiter() async {
        let signal = OutboxSignal()
        let start = SystemClock.milliseconds()
        async let waited: Void = signal.wait(timeoutMs: 3_600_000)
        try? await Task.sleep(for: .milliseconds(20))
        signal.notify()
        await waited
        #expect(SystemClock.milliseconds() - start < 3_600_000)
    }

    /// The worker's idle poll is an hour, so a send at all (within the test's time limit, however busy the
    /// machine) shows the call's creation woke it: no bound on wall time (one of 30 s failed at 39.6 s in a
    /// run beside two busy loops).
    @Test(.timeLimit(.minutes(10))) func theWorkerSendsAsSoonAsACallIsCreated() async throws {
        let backend = try BackendHarness(clock: TestClock(SystemClock.milliseconds()))
        await backend.register("user-b", installation: "b-phone")
        let transport = FakeTransport()
        let worker = PushWorker(
            service: backend.service, transport: transport, settings: PushMessageSettings(fcmProjectID: "p"),
            policy: PushRetryPolicy(idlePollMs: 3_600_000))
        let task = Task { await worker.run() }
        try await Task.sleep(for: .milliseconds(50))  // the worker is idle, waiting up to an hour
        await backend.create()
        while transport.sent.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
        #expect(transport.sent.count == 1)
        task.cancel()
        backend.service.outboxSignal.notify()
        await task.value
    }
}
