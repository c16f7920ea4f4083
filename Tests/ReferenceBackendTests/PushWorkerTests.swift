import HTTP
import JSON
import Testing

@testable import ReferenceBackend

@Suite struct PushWorkerTests {
    let settings = PushMessageSettings(fcmProjectID: "demo-project")

    func setUp(_ kind: PushKind, backend: BackendHarness) async -> String {
        await backend.register("user-b", installation: "b-device", kind: kind, token: "token-1")
        let call = RandomIdentifier.uuid()
        await backend.create(call)
        return call
    }

    func worker(_ backend: BackendHarness, _ transport: FakeTransport) -> PushWorker {
        PushWorker(
            service: backend.service, transport: transport, settings: settings,
            policy: PushRetryPolicy(initialBackoffMs: 1_000, maxBackoffMs: 8_000))
    }

    @Test func acceptedJobsAreSentOnce() async throws {
        let backend = try BackendHarness()
        let call = await setUp(.apnsVoip, backend: backend)
        let transport = FakeTransport()
        let report = await worker(backend, transport).runOnce()
        #expect(report.accepted == 1)
        await worker(backend, transport).runOnce()
        #expect(transport.sent.count == 1)
        #expect(try backend.jobs(call).map(\.status) == [.sent])
        #expect(try backend.jobs(call).first?.lastStatus == 200)
    }

    @Test func retriesWithBackoffOn5xx() async throws {
        let backend = try BackendHarness()
        let call = await setUp(.apnsVoip, backend: backend)
        let transport = FakeTransport()
        transport.script(
            .providerError(503, #"{"reason":"ServiceUnavailable"}"#),
            .providerError(500, #"{"reason":"InternalServerError"}"#))
        let worker = worker(backend, transport)
        await worker.runOnce()
        var job = try #require(try backend.jobs(call).first)
        #expect(job.status == .pending)
        #expect(job.nextAttemptAtMs == backend.clock.now + 1_000)
        await worker.runOnce()  // not due yet
        #expect(transport.sent.count == 1)
        backend.clock.advance(ms: 1_000)
        await worker.runOnce()
        job = try #require(try backend.jobs(call).first)
        #expect(job.nextAttemptAtMs == backend.clock.now + 2_000)  // doubled
        backend.clock.advance(ms: 2_000)
        await worker.runOnce()
        #expect(transport.sent.count == 3)
        #expect(try backend.jobs(call).first?.status == .sent)
        #expect(try backend.jobs(call).first?.attempts == 3)
        // Each retry carries the same eventId, so a device that got an earlier copy deduplicates.
        #expect(Set(transport.sent.compactMap { $0.callx?["eventId"] }).count == 1)
    }

    @Test func honoursRetryAfterOn429() async throws {
        let backend = try BackendHarness()
        let call = await setUp(.fcm, backend: backend)
        let transport = FakeTransport()
        transport.script(.providerError(429, #"{"error":{"status":"RESOURCE_EXHAUSTED"}}"#, retryAfter: "7"))
        let worker = worker(backend, transport)
        await worker.runOnce()
        #expect(try backend.jobs(call).first?.nextAttemptAtMs == backend.clock.now + 7_000)
        backend.clock.advance(ms: 6_999)
        await worker.runOnce()
        #expect(transport.sent.count == 1)
        backend.clock.advance(ms: 1)
        await worker.runOnce()
        #expect(transport.sent.count == 2)
        // The TTL is recomputed at send time: 30 s - 7 s.
        #expect(transport.sent[1].json?.value(atPath: "message.android.ttl") == "23s")
    }

    @Test func neverRetriesPastTheRingDeadline() async throws {
        let backend = try BackendHarness()
        let call = await setUp(.apnsVoip, backend: backend)
        let transport = FakeTransport()
        transport.script(.providerError(503, "{}", retryAfter: "45"))
        await worker(backend, transport).runOnce()
        #expect(try backend.jobs(call).first?.status == .expired)
        backend.clock.advance(ms: 60_000)
        await worker(backend, transport).runOnce()
        #expect(transport.sent.count == 1)
    }

    @Test func networkErrorsAreRetried() async throws {
        struct Refused: Error {}
        final class FailingTransport: PushTransport {
            func send(_ request: PushRequest) async throws -> HTTPResponse { throw Refused() }
        }
        let backend = try BackendHarness()
        let call = await setUp(.apnsVoip, backend: backend)
        await PushWorker(service: backend.service, transport: FailingTransport(), settings: settings).runOnce()
        let job = try #require(try backend.jobs(call).first)
        #expect(job.status == .pending)
        #expect(job.lastError?.contains("no response") == true)
    }

    @Test(arguments: [
        (PushKind.apnsVoip, 410, #"{"reason":"Unregistered"}"#),
        (PushKind.apnsVoip, 400, #"{"reason":"BadDeviceToken"}"#),
        (
            PushKind.fcm, 404,
            #"{"error":{"code":404,"status":"NOT_FOUND","details":[{"@type":"type.googleapis.com/google.firebase.fcm.v1.FcmError","errorCode":"UNREGISTERED"}]}}"#
        ),
    ])
    func deadTokensAreRemoved(kind: PushKind, status: Int, body: String) async throws {
        let backend = try BackendHarness()
        let call = await setUp(kind, backend: backend)
        let transport = FakeTransport()
        transport.script(.providerError(status, body))
        await worker(backend, transport).runOnce()
        #expect(try backend.jobs(call).first?.status == .dropped)
        #expect(try backend.registrations("user-b").isEmpty)
        let next = RandomIdentifier.uuid()
        await backend.create(next)
        #expect(try backend.jobs(next).isEmpty)
    }

    @Test func aDeadTokenDoesNotRemoveANewerOne() async throws {
        let backend = try BackendHarness()
        _ = await setUp(.apnsVoip, backend: backend)
        // The device re-registers with a fresh token before the worker sends to the old one.
        await backend.register("user-b", installation: "b-device", kind: .apnsVoip, token: "token-2")
        let transport = FakeTransport()
        transport.script(.providerError(410, #"{"reason":"Unregistered"}"#))
        await worker(backend, transport).runOnce()
        #expect(transport.sent.first?.path == "/3/device/token-1")
        #expect(try backend.registrations("user-b").map(\.token) == ["token-2"])
    }

    @Test func otherClientErrorsFailWithoutRetry() async throws {
        let backend = try BackendHarness()
        let call = await setUp(.apnsVoip, backend: backend)
        let transport = FakeTransport()
        transport.script(.providerError(400, #"{"reason":"BadTopic"}"#))
        await worker(backend, transport).runOnce()
        let job = try #require(try backend.jobs(call).first)
        #expect(job.status == .failed)
        #expect(job.lastError == "BadTopic")
        #expect(try backend.registrations("user-b").count == 1)
    }

    @Test func noInvitationForACallAlreadyEndedAnsweredOrExpired() async throws {
        let backend = try BackendHarness()
        await backend.register("user-b", installation: "b-phone")
        await backend.register("user-b", installation: "b-tablet", kind: .fcm)
        let cancelled = RandomIdentifier.uuid()
        await backend.create(cancelled)
        await backend.end(cancelled, as: "user-a", reason: "callerCancelled")
        let answered = RandomIdentifier.uuid()
        await backend.create(answered)
        await backend.answer(answered, installation: "b-phone")
        let expired = RandomIdentifier.uuid()
        await backend.create(expired)
        let transport = FakeTransport()
        backend.clock.advance(ms: 30_000)
        await worker(backend, transport).runOnce()
        let invitations = transport.sent.filter { $0.callx?["type"] == "call.invited" }
        #expect(invitations.isEmpty)
        for call in [cancelled, answered, expired] {
            #expect(try backend.jobs(call).filter { $0.purpose == .invitation }.allSatisfy { $0.status != .sent })
        }
    }

    @Test func anInvitationRetryStopsWhenTheCallIsAnswered() async throws {
        let backend = try BackendHarness()
        await backend.register("user-b", installation: "b-phone")
        await backend.register("user-b", installation: "b-tablet", kind: .fcm)
        let call = RandomIdentifier.uuid()
        await backend.create(call)
        let transport = FakeTransport()
        transport.script(.providerError(503, "{}"), .providerError(503, "{}"))
        let worker = worker(backend, transport)
        await worker.runOnce()
        await backend.answer(call, installation: "b-phone")
        backend.clock.advance(ms: 5_000)
        await worker.runOnce()
        let invitations = transport.sent.filter { $0.callx?["type"] == "call.invited" }
        #expect(invitations.count == 2)  // only the first round
        #expect(try backend.jobs(call).filter { $0.purpose == .invitation }.map(\.status) == [.cancelled, .cancelled])
    }

    @Test func anAbandonedClaimIsPickedUpAfterItsLease() async throws {
        let backend = try BackendHarness()
        let call = await setUp(.apnsVoip, backend: backend)
        let job = try #require(try backend.jobs(call).first)
        // A worker claimed it and died (kill -9) before recording the outcome.
        try backend.store.transaction { tx in
            try tx.claimJob(job.jobId, leaseUntilMs: backend.clock.now + 5_000, nowMs: backend.clock.now)
        }
        let transport = FakeTransport()
        await worker(backend, transport).runOnce()
        #expect(transport.sent.isEmpty)
        backend.clock.advance(ms: 5_000)
        await worker(backend, transport).runOnce()
        #expect(transport.sent.count == 1)
    }

    @Test func runLoopSendsAndStopsOnCancel() async throws {
        let backend = try BackendHarness()
        let call = await setUp(.apnsVoip, backend: backend)
        let transport = FakeTransport()
        let worker = PushWorker(
            service: backend.service, transport: transport, settings: settings, policy: PushRetryPolicy(idlePollMs: 5))
        let task = Task { await worker.run() }
        let deadline = ContinuousClock.now + .seconds(30)  // only a hang is a failure
        while transport.sent.isEmpty && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        task.cancel()
        await task.value
        #expect(try backend.jobs(call).first?.status == .sent)
    }
}

@Suite struct HousekeepingTests {
    @Test func purgesOldFinishedJobsAndIdempotencyRecordsButNeverCalls() async throws {
        let backend = try BackendHarness()
        await backend.register("user-b", installation: "b-phone")
        let call = RandomIdentifier.uuid()
        await backend.create(call, operationId: "op")
        await PushWorker(
            service: backend.service, transport: FakeTransport(), settings: PushMessageSettings(fcmProjectID: "p")
        ).runOnce()
        let pending = RandomIdentifier.uuid()
        backend.clock.advance(ms: 3_600_001)
        await backend.create(pending)
        try backend.service.purgeHistory()
        #expect(try backend.jobs(call).isEmpty)  // sent an hour ago
        #expect(try backend.jobs(pending).count == 1)
        #expect(await backend.create(call, operationId: "op").status == 200)  // record still kept
        backend.clock.advance(ms: 86_400_000)
        try backend.service.purgeHistory()
        #expect(await backend.create(call, operationId: "op").errorCode == "call_exists")
        #expect(await backend.get(call, as: "user-a").status == 200)
    }
}
