import HTTP
import JSON
import Testing

@testable import ReferenceBackend

/// Each defect switch breaks its rule: every test here asserts the non-conforming behaviour that
/// the matching conforming test elsewhere forbids.
@Suite struct DefectTests {
    let settings = PushMessageSettings(fcmProjectID: "demo-project")

    func backend(_ defect: CallxDefect) throws -> BackendHarness { try BackendHarness(defects: [defect]) }

    func sendDue(_ backend: BackendHarness, _ transport: FakeTransport = FakeTransport()) async -> FakeTransport {
        await PushWorker(service: backend.service, transport: transport, settings: settings).runOnce()
        return transport
    }

    @Test func everyDefectHasANameAndASummary() {
        #expect(Set(CallxDefect.allCases.map(\.name)).count == CallxDefect.allCases.count)
        #expect(CallxDefect.allCases.allSatisfy { !$0.summary.isEmpty && !$0.summary.contains("\n") })
        let parsed = CallxDefect.parse(["racy-answer", "zero-ttl", "bogus"])
        #expect(parsed.defects == [.racyAnswer, .zeroTTL])
        #expect(parsed.unknown == ["bogus"])
        for name in [
            "no-idempotency", "idempotency-ignores-payload", "racy-answer", "apns-expiration-30", "fixed-ttl-30s",
            "zero-ttl", "notification-block", "duplicate-invite-on-retry", "invite-after-cancel", "silent-gap",
            "no-membership-check", "identity-from-body", "keep-dead-tokens", "no-retry", "revision-not-incremented",
            "voip-stop-signal",
        ] {
            #expect(CallxDefect(rawValue: name) != nil, "missing defect \(name)")
        }
    }

    @Test func noIdempotency() async throws {
        let backend = try backend(.noIdempotency)
        let call = RandomIdentifier.uuid()
        #expect(await backend.create(call, operationId: "op").status == 200)
        #expect(await backend.create(call, operationId: "op").status == 409)  // not the original outcome
    }

    @Test func idempotencyIgnoresPayload() async throws {
        let backend = try backend(.idempotencyIgnoresPayload)
        let call = RandomIdentifier.uuid()
        let first = await backend.create(call, operationId: "op")
        let other = await backend.create(call, callee: "user-c", operationId: "op")
        #expect(other.status == 200)  // no 409
        #expect(other.body == first.body)
    }

    @Test func racyAnswer() async throws {
        let backend = try backend(.racyAnswer)
        let winners = await raceAnswers(backend, calls: 50, devices: 8)
        #expect(winners.contains { $0.count > 1 })
    }

    @Test func apnsExpiration30() async throws {
        let backend = try backend(.apnsExpiration30)
        await backend.register("user-b", installation: "b-phone")
        await backend.create()
        let sent = await sendDue(backend).sent
        #expect(sent.first?.headers["apns-expiration"] == String(backend.clock.now / 1000 + 30))
    }

    func fcmInvitation(_ defect: CallxDefect, after ms: Int64 = 4_200) async throws -> JSONValue? {
        let backend = try backend(defect)
        await backend.register("user-b", installation: "b-tablet", kind: .fcm)
        await backend.create()
        backend.clock.advance(ms: ms)
        return await sendDue(backend).sent.first?.json?["message"]
    }

    @Test func fixedTTL30s() async throws {
        #expect(try await fcmInvitation(.fixedTTL30s)?.value(atPath: "android.ttl") == "30s")
    }

    @Test func zeroTTL() async throws {
        #expect(try await fcmInvitation(.zeroTTL)?.value(atPath: "android.ttl") == "0s")
    }

    @Test func notificationBlock() async throws {
        let message = try await fcmInvitation(.notificationBlock)
        #expect(message?["notification"]?["title"] == "Alex")
    }

    @Test func duplicateInviteOnRetry() async throws {
        let backend = try backend(.duplicateInviteOnRetry)
        await backend.register("user-b", installation: "b-phone")
        let call = RandomIdentifier.uuid()
        let first = await backend.create(call, operationId: "op")
        let retry = await backend.create(call, operationId: "op")
        #expect(retry.body == first.body)  // the response is still idempotent…
        #expect(try backend.jobs(call).count == 2)  // …but the callee rings twice
    }

    @Test func inviteAfterCancel() async throws {
        let backend = try backend(.inviteAfterCancel)
        await backend.register("user-b", installation: "b-phone")
        let call = RandomIdentifier.uuid()
        await backend.create(call)
        await backend.end(call, as: "user-a", reason: "callerCancelled")
        let sent = await sendDue(backend).sent
        #expect(sent.contains { $0.callx?["type"] == "call.invited" && $0.callx?["callId"] == .string(call) })
    }

    @Test func silentGap() async throws {
        let backend = try BackendHarness(defects: [.silentGap], eventRetention: 2)
        await backend.register("user-b", installation: "b-phone")
        for _ in 0..<4 {
            let call = RandomIdentifier.uuid()
            await backend.create(call)
            await backend.end(call, as: "user-b", reason: "declined")
        }
        let old = await backend.events("user-a", installation: "a-phone", cursor: "0")
        #expect(old["gap"] == false)
        #expect(old["events"]?.arrayValue?.count == 2)  // two events silently skipped
        #expect(await backend.events("user-a", installation: "a-phone", cursor: "junk")["gap"] == false)
    }

    @Test func noMembershipCheck() async throws {
        let backend = try backend(.noMembershipCheck)
        await backend.register("user-b", installation: "b-phone")
        let call = RandomIdentifier.uuid()
        await backend.create(call)
        #expect(await backend.get(call, as: "user-c").status == 200)
        #expect(await backend.answer(call, as: "user-c", installation: "b-phone").status == 200)
        #expect(await backend.request("POST", "/v1/calls/\(call)/media-session", as: "user-c").status == 200)
    }

    @Test func identityFromBody() async throws {
        let backend = try backend(.identityFromBody)
        let reply = await backend.create(
            as: "user-c",
            extra: [("caller", ["userId": "user-a", "displayName": "Mallory", "handle": "callx:mallory"])])
        #expect(reply["caller"] == ["userId": "user-a", "displayName": "Mallory", "handle": "callx:mallory"])
    }

    @Test func keepDeadTokens() async throws {
        let backend = try backend(.keepDeadTokens)
        await backend.register("user-b", installation: "b-phone")
        await backend.create()
        let transport = FakeTransport()
        transport.script(.providerError(410, #"{"reason":"Unregistered"}"#))
        _ = await sendDue(backend, transport)
        #expect(try backend.registrations("user-b").count == 1)
        let next = RandomIdentifier.uuid()
        await backend.create(next)
        #expect(try backend.jobs(next).count == 1)  // the dead token is used again
    }

    @Test func noRetry() async throws {
        let backend = try backend(.noRetry)
        await backend.register("user-b", installation: "b-phone")
        let call = RandomIdentifier.uuid()
        await backend.create(call)
        let transport = FakeTransport()
        transport.script(.providerError(503, "{}"))
        _ = await sendDue(backend, transport)
        #expect(try backend.jobs(call).first?.status == .failed)
    }

    @Test func revisionNotIncremented() async throws {
        let backend = try backend(.revisionNotIncremented)
        await backend.register("user-b", installation: "b-phone")
        let call = RandomIdentifier.uuid()
        await backend.create(call)
        #expect(await backend.answer(call, installation: "b-phone")["revision"] == "1")
        #expect(await backend.end(call, as: "user-a", reason: "localHangup")["revision"] == "1")
    }

    @Test func voipStopSignal() async throws {
        let backend = try backend(.voipStopSignal)
        await backend.register("user-b", installation: "b-phone")
        let call = RandomIdentifier.uuid()
        await backend.create(call)
        _ = await sendDue(backend)
        await backend.end(call, as: "user-a", reason: "callerCancelled")
        let sent = await sendDue(backend).sent
        let stop = try #require(sent.first)
        #expect(stop.destination == .apns(.sandbox))
        #expect(stop.headers["apns-push-type"] == "voip")
        #expect(stop.callx?["type"] == "call.ended")
    }

    @Test func retryAfterExpiry() async throws {
        let backend = try backend(.retryAfterExpiry)
        await backend.register("user-b", installation: "b-phone")
        let call = RandomIdentifier.uuid()
        await backend.create(call)
        let transport = FakeTransport()
        transport.script(.providerError(503, "{}", retryAfter: "45"))
        _ = await sendDue(backend, transport)
        backend.clock.advance(ms: 45_000)
        _ = await sendDue(backend, transport)
        #expect(transport.sent.count == 2)  // an invitation sent after the call stopped ringing
        #expect(try backend.jobs(call).first?.status == .sent)
    }

    @Test func lateAnswerWins() async throws {
        let backend = try backend(.lateAnswerWins)
        await backend.register("user-b", installation: "b-phone")
        await backend.register("user-b", installation: "b-tablet", kind: .fcm)
        let call = RandomIdentifier.uuid()
        await backend.create(call)
        await backend.answer(call, installation: "b-phone")
        let late = await backend.answer(call, installation: "b-tablet")
        #expect(late.status == 200)
        #expect(late["answeredByInstallationId"] == "b-tablet")
    }

    @Test func resurrectEndedCall() async throws {
        let backend = try backend(.resurrectEndedCall)
        await backend.register("user-b", installation: "b-phone")
        let call = RandomIdentifier.uuid()
        await backend.create(call, operationId: "first")
        await backend.end(call, as: "user-a", reason: "callerCancelled")
        let again = await backend.create(call, operationId: "second")
        #expect(again.status == 200)
        #expect(again["state"] == "ringing")
        #expect(try backend.jobs(call).filter { $0.status == .pending }.count == 1)
    }

    /// A defect changes only its rule: the same conforming scenario gives the same answers
    /// with any push-side defect switched on.
    @Test(arguments: [
        CallxDefect.apnsExpiration30, .fixedTTL30s, .zeroTTL, .notificationBlock, .keepDeadTokens, .noRetry,
        .voipStopSignal, .retryAfterExpiry, .silentGap,
    ])
    func pushSideDefectsLeaveTheAPIAlone(defect: CallxDefect) async throws {
        func scenario(_ backend: BackendHarness) async -> [String] {
            await backend.register("user-b", installation: "b-phone")
            let call = "85a4fd88-b5c3-4f79-a2cf-a7db9df06750"
            var log: [String] = []
            for reply in [
                await backend.create(call), await backend.answer(call, installation: "b-phone"),
                await backend.end(call, as: "user-b", reason: "localHangup", installation: "b-phone"),
                await backend.get(call, as: "user-a"),
            ] {
                log.append("\(reply.status) \(reply.json.serialized())")
            }
            let events = await backend.allEvents("user-a", installation: "a-phone")
            log += events.map { "\($0["type"]?.stringValue ?? "") \($0["revision"]?.stringValue ?? "")" }
            return log
        }
        let conforming = await scenario(try BackendHarness())
        let defective = await scenario(try BackendHarness(defects: [defect]))
        #expect(conforming == defective)
    }
}
