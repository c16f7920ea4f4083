import JSON
import Testing

@testable import ReferenceBackend

/// Answers `calls` calls with `devices` concurrent answers each; returns the winners per call.
func raceAnswers(_ backend: BackendHarness, calls: Int, devices: Int) async -> [[String]] {
    for d in 0..<devices {
        await backend.register("user-b", installation: "b-\(d)", kind: d.isMultiple(of: 2) ? .apnsVoip : .fcm)
    }
    var callIds: [String] = []
    for _ in 0..<calls {
        let id = RandomIdentifier.uuid()
        await backend.create(id)
        callIds.append(id)
    }
    return await withTaskGroup(of: (Int, String, Int).self) { group in
        for (c, callId) in callIds.enumerated() {
            for d in 0..<devices {
                group.addTask {
                    let reply = await backend.answer(callId, installation: "b-\(d)")
                    return (c, "b-\(d)", reply.status)
                }
            }
        }
        var winners = Array(repeating: [String](), count: calls)
        for await (c, device, status) in group where status == 200 { winners[c].append(device) }
        return winners
    }
}

@Suite struct ArbitrationTests {
    @Test func exactlyOneWinnerPerCallUnderConcurrentAnswers() async throws {
        let backend = try BackendHarness()
        let winners = await raceAnswers(backend, calls: 50, devices: 8)
        #expect(winners.allSatisfy { $0.count == 1 })
    }

    @Test func lateAnswersGetTheWinnersSnapshot() async throws {
        let backend = try BackendHarness()
        await backend.register("user-b", installation: "b-phone")
        await backend.register("user-b", installation: "b-tablet", kind: .fcm)
        let call = RandomIdentifier.uuid()
        await backend.create(call)
        let won = await backend.answer(call, installation: "b-phone", expectedRevision: "1")
        #expect(won.status == 200)
        #expect(won["state"] == "accepted")
        #expect(won["revision"] == "2")
        #expect(won["answeredByInstallationId"] == "b-phone")
        let late = await backend.answer(call, installation: "b-tablet", expectedRevision: "1")
        #expect(late.status == 409)
        #expect(late.errorCode == "call_already_answered")
        #expect(late["answeredByInstallationId"] == "b-phone")
        #expect(late["state"] == "accepted")
        #expect(late["revision"] == "2")
        #expect(late["callId"] == .string(call))
        // The winner repeating itself is not a conflict.
        #expect(await backend.answer(call, installation: "b-phone", operationId: "again").status == 200)
    }

    @Test func answeringInstallationMustBelongToTheCallee() async throws {
        let backend = try BackendHarness()
        await backend.register("user-b", installation: "b-phone")
        await backend.register("user-c", installation: "c-phone")
        let call = RandomIdentifier.uuid()
        await backend.create(call)
        #expect(await backend.answer(call, installation: "c-phone").errorCode == "installation_not_callee")
        #expect(await backend.answer(call, installation: "unknown").errorCode == "installation_not_callee")
        #expect(await backend.answer(call, as: "user-a", installation: "b-phone").errorCode == "not_the_callee")
        #expect(await backend.get(call, as: "user-a")["state"] == "ringing")
    }

    @Test func noAnswerAfterTheDeadlineOrTheEnd() async throws {
        let backend = try BackendHarness()
        await backend.register("user-b", installation: "b-phone")
        let expired = RandomIdentifier.uuid()
        await backend.create(expired)
        backend.clock.advance(ms: 30_000)
        let late = await backend.answer(expired, installation: "b-phone")
        #expect(late.status == 409)
        #expect(late.errorCode == "call_expired")
        #expect(late["state"] == "ended")
        #expect(late["endReason"] == "unanswered")
        let cancelled = RandomIdentifier.uuid()
        await backend.create(cancelled)
        await backend.end(cancelled, as: "user-a", reason: "callerCancelled")
        #expect(await backend.answer(cancelled, installation: "b-phone").errorCode == "call_ended")
    }

    @Test func staleExpectedRevisionConflicts() async throws {
        let backend = try BackendHarness()
        await backend.register("user-b", installation: "b-phone")
        let call = RandomIdentifier.uuid()
        await backend.create(call)
        let stale = await backend.answer(call, installation: "b-phone", expectedRevision: "7")
        #expect(stale.status == 409)
        #expect(stale.errorCode == "revision_mismatch")
        #expect(
            await backend.answer(call, installation: "b-phone", operationId: "fresh", expectedRevision: "1").status
                == 200)
    }
}
