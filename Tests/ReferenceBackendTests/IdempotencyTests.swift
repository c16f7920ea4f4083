import JSON
import Testing

@testable import ReferenceBackend

@Suite struct IdempotencyTests {
    @Test func retriedCreateReturnsTheOriginalOutcomeAndRingsOnce() async throws {
        let backend = try BackendHarness()
        await backend.register("user-b", installation: "b-phone")
        let call = RandomIdentifier.uuid()
        let first = await backend.create(call, operationId: "op-1")
        backend.clock.advance(ms: 2_000)
        let retry = await backend.create(call, operationId: "op-1")
        #expect(retry.status == first.status)
        #expect(retry.body == first.body)
        #expect(try backend.jobs(call).count == 1)
    }

    @Test func sameOperationIdWithAnotherPayloadConflicts() async throws {
        let backend = try BackendHarness()
        let call = RandomIdentifier.uuid()
        await backend.create(call, operationId: "op-1")
        let conflict = await backend.create(call, callee: "user-c", operationId: "op-1")
        #expect(conflict.status == 409)
        #expect(conflict.errorCode == "idempotency_conflict")
        let otherCall = await backend.create(RandomIdentifier.uuid(), operationId: "op-1")
        #expect(otherCall.errorCode == "idempotency_conflict")
    }

    @Test func keyOrderDoesNotChangeTheFingerprint() async throws {
        let backend = try BackendHarness()
        let first = await backend.request(
            "POST", "/v1/calls", as: "user-a", body: ["callId": "c-1", "calleeUserId": "user-b", "operationId": "o"])
        let reordered = await backend.request(
            "POST", "/v1/calls", as: "user-a", body: ["operationId": "o", "calleeUserId": "user-b", "callId": "c-1"])
        #expect(reordered.status == 200)
        #expect(reordered.body == first.body)
    }

    @Test func keysArePerAccount() async throws {
        let backend = try BackendHarness()
        let fromA = await backend.create(RandomIdentifier.uuid(), as: "user-a", callee: "user-b", operationId: "shared")
        let fromC = await backend.create(RandomIdentifier.uuid(), as: "user-c", callee: "user-b", operationId: "shared")
        #expect(fromA.status == 200)
        #expect(fromC.status == 200)
        #expect(fromC["caller.userId"] == "user-c")
    }

    @Test func retriedAnswerAndEndReplay() async throws {
        let backend = try BackendHarness()
        await backend.register("user-b", installation: "b-phone")
        let call = RandomIdentifier.uuid()
        await backend.create(call)
        let answered = await backend.answer(call, installation: "b-phone", operationId: "ans")
        let ended = await backend.end(call, as: "user-a", reason: "localHangup", operationId: "end")
        backend.clock.advance(ms: 1_000)
        #expect(await backend.answer(call, installation: "b-phone", operationId: "ans").body == answered.body)
        let endRetry = await backend.end(call, as: "user-a", reason: "localHangup", operationId: "end")
        #expect(endRetry.status == 200)
        #expect(endRetry.body == ended.body)
        #expect(await backend.end(call, as: "user-a", reason: "failed", operationId: "end").status == 409)
        #expect(await backend.get(call, as: "user-a")["revision"] == "3")
    }

    @Test func aRetriedLateAnswerGetsTheSameConflict() async throws {
        let backend = try BackendHarness()
        await backend.register("user-b", installation: "b-phone")
        await backend.register("user-b", installation: "b-tablet", kind: .fcm)
        let call = RandomIdentifier.uuid()
        await backend.create(call)
        await backend.answer(call, installation: "b-phone")
        let late = await backend.answer(call, installation: "b-tablet", operationId: "late")
        #expect(late.status == 409)
        #expect(await backend.answer(call, installation: "b-tablet", operationId: "late").body == late.body)
    }
}
