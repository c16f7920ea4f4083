import Testing

@testable import ReferenceBackend

/// A graceful stop of the reference's worker (`runPipelined` cancelled, as `ReferenceBackendServer.stop` does)
/// lets the sends in flight finish and records them: a push the provider accepted just before a restart is sent
/// once, not again after it (seen as CALLX-E2E-3 charged to the reference: a push APNs had accepted 2–17 ms before
/// the restart went out again). A send the provider never answers is cancelled past the bound and goes back to
/// the queue, so a hanging provider cannot stall the stop.
@Suite struct PushWorkerGracefulStopTests {
    /// Starts the pipelined worker on a ringing call's invitation and stops it while the send is held in flight.
    private func stopWhileInFlight(graceMs: Int64, releaseAfterStop: Bool) async throws -> (BackendHarness, String) {
        let backend = try BackendHarness()
        _ = await backend.register("user-b", installation: "b-phone")
        let callId = RandomIdentifier.uuid()
        #expect(await backend.create(callId).status == 200)
        let transport = HeldTransport()
        let worker = PushWorker(
            service: backend.service, transport: transport, settings: PushMessageSettings(fcmProjectID: "p"))
        let running = Task { await worker.runPipelined(stopGraceMs: graceMs) }
        while transport.sent.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
        running.cancel()
        backend.service.outboxSignal.notify()  // the loop may be idle, waiting for work
        if releaseAfterStop { transport.release() }
        await running.value
        #expect(transport.sent.count == 1)
        return (backend, callId)
    }

    /// Started again on the same store, as a restarted process: what the last one left in flight goes back to
    /// the queue (`releaseInterruptedJobs`), a retry's backoff passes, and one round sends what is due.
    private func restart(_ backend: BackendHarness) async throws -> Int {
        backend.clock.advance(ms: PushRetryPolicy().initialBackoffMs)
        let now = backend.clock.now
        try backend.store.transaction { tx in try tx.releaseInterruptedJobs(nowMs: now) }
        let transport = FakeTransport()
        await PushWorker(
            service: backend.service, transport: transport, settings: PushMessageSettings(fcmProjectID: "p")
        )
        .runOnce()
        return transport.sent.count
    }

    @Test func aSendInFlightAtAGracefulStopIsRecordedAndNotSentAgainAfterTheRestart() async throws {
        // A bound far beyond any busy machine: the send's answer, not the bound, ends the stop.
        let (backend, callId) = try await stopWhileInFlight(graceMs: 600_000, releaseAfterStop: true)
        let job = try #require(try backend.jobs(callId).first)
        #expect(job.status == .sent, "answered during the stop: recorded as sent")
        #expect(try await restart(backend) == 0, "not sent again after the restart")
    }

    @Test func aSendUnansweredPastTheBoundIsCancelledAndGoesBackToTheQueue() async throws {
        let (backend, callId) = try await stopWhileInFlight(graceMs: 1, releaseAfterStop: false)
        let job = try #require(try backend.jobs(callId).first)
        #expect(job.status == .pending, "no answer: back in the queue")
        #expect(try await restart(backend) == 1, "sent again after the restart")
    }
}
