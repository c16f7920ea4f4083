import JSON
import Testing

@testable import ReferenceBackend

@Suite struct CreateCallTests {
    @Test func snapshotIsExactlyTheSeedShape() async throws {
        let backend = try BackendHarness()
        let callId = "85a4fd88-b5c3-4f79-a2cf-a7db9df06750"
        let reply = await backend.create(callId)
        #expect(reply.status == 200)
        let expected: JSONValue = [
            "schemaVersion": 1,
            "callId": .string(callId),
            "revision": "1",
            "state": "ringing",
            "caller": ["userId": "user-a", "displayName": "Alex", "handle": "callx:user-a"],
            "calleeUserId": "user-b",
            "createdAtMs": 1_790_000_000_000,
            "expiresAtMs": 1_790_000_030_000,
        ]
        #expect(reply.json == expected)
        #expect(reply.json.serialized() == expected.serialized())  // same keys in the same order
        #expect(await backend.get(callId, as: "user-b").json == expected)
    }

    @Test func ringSecondsSetsTheDeadline() async throws {
        let backend = try BackendHarness(ringSeconds: 45)
        let reply = await backend.create()
        #expect(reply["expiresAtMs"]?.int64Value == backend.clock.now + 45_000)
    }

    /// ringcheck's scenarios about expiry ask for a short ring in the create body; every other call keeps
    /// the configured one. A bad value is refused.
    @Test func aCreateMayAskForItsOwnRing() async throws {
        let backend = try BackendHarness(ringSeconds: 60)
        let short = await backend.create(extra: [("ringSeconds", 4)])
        #expect(short["expiresAtMs"]?.int64Value == backend.clock.now + 4_000)
        #expect(await backend.create()["expiresAtMs"]?.int64Value == backend.clock.now + 60_000)
        #expect(await backend.create(extra: [("ringSeconds", 0)]).status == 400)
        #expect(await backend.create(extra: [("ringSeconds", "4")]).status == 400)
    }

    @Test func identityComesFromTheSessionOnly() async throws {
        let backend = try BackendHarness()
        let reply = await backend.create(
            as: "user-c",
            extra: [
                ("caller", ["userId": "user-a", "displayName": "Mallory", "handle": "callx:mallory"]),
                ("callerUserId", "user-a"), ("displayName", "Mallory"),
            ])
        #expect(reply.status == 200)
        #expect(reply["caller"] == ["userId": "user-c", "displayName": "Casey", "handle": "callx:user-c"])
    }

    @Test func refusesUnauthenticatedAndBadRequests() async throws {
        let backend = try BackendHarness()
        let noToken = await backend.request(
            "POST", "/v1/calls", body: ["callId": "x", "calleeUserId": "user-b", "operationId": "o"])
        #expect(noToken.status == 401)
        #expect(noToken.json.objectValue?.map(\.key) == ["error"])
        #expect(noToken.json["error"]?.objectValue?.map(\.key) == ["code", "message"])
        #expect(await backend.request("GET", "/v1/calls/x", as: "user-z").status == 401)
        #expect(await backend.create(callee: "user-z").status == 404)
        #expect(await backend.create(callee: "user-a").errorCode == "cannot_call_self")
        let noOperation = await backend.request(
            "POST", "/v1/calls", as: "user-a", body: ["callId": "x", "calleeUserId": "user-b"])
        #expect(noOperation.status == 400)
        let notJSON = await backend.request("POST", "/v1/calls", as: "user-a")
        #expect(notJSON.errorCode == "invalid_json")
        #expect(await backend.request("DELETE", "/v1/calls", as: "user-a").status == 405)
        #expect(await backend.request("GET", "/v1/nothing", as: "user-a").status == 404)
        #expect(await backend.get("missing", as: "user-a").errorCode == "call_not_found")
    }

    @Test func membershipIsCheckedOnEveryCallRequest() async throws {
        let backend = try BackendHarness()
        await backend.register("user-b", installation: "b-phone")
        await backend.register("user-c", installation: "c-phone")
        let call = RandomIdentifier.uuid()
        await backend.create(call)
        #expect(await backend.get(call, as: "user-c").errorCode == "not_a_participant")
        #expect(await backend.answer(call, as: "user-c", installation: "c-phone").status == 403)
        #expect(await backend.answer(call, as: "user-c", installation: "b-phone").status == 403)
        #expect(await backend.end(call, as: "user-c", reason: "localHangup").status == 403)
        #expect(await backend.request("POST", "/v1/calls/\(call)/media-session", as: "user-c").status == 403)
        #expect(await backend.get(call, as: "user-a")["state"] == "ringing")
    }

    @Test func invitationsAreQueuedInTheSameTransaction() async throws {
        let backend = try BackendHarness()
        await backend.register("user-b", installation: "b-phone")
        await backend.register("user-b", installation: "b-tablet", kind: .fcm)
        await backend.register("user-c", installation: "c-phone")
        let call = RandomIdentifier.uuid()
        await backend.create(call)
        let jobs = try backend.jobs(call)
        #expect(jobs.map(\.installationId) == ["b-phone", "b-tablet"])
        #expect(jobs.allSatisfy { $0.purpose == .invitation && $0.status == .pending })
        #expect(jobs.allSatisfy { $0.validUntilMs == backend.clock.now + 30_000 })
        #expect(Set(jobs.compactMap { $0.payload["eventId"]?.stringValue }).count == 2)  // unique per message
        #expect(jobs[0].payload["displayName"] == "Alex")
        #expect(jobs[0].payload["handle"] == "callx:user-a")
    }

    @Test func anEndedCallIsNeverResurrected() async throws {
        let backend = try BackendHarness()
        await backend.register("user-b", installation: "b-phone")
        let call = RandomIdentifier.uuid()
        await backend.create(call, operationId: "first")
        await backend.end(call, as: "user-a", reason: "callerCancelled")
        let delayed = await backend.create(call, operationId: "second")
        #expect(delayed.status == 409)
        #expect(delayed.errorCode == "call_exists")
        #expect(delayed["state"] == "ended")  // the caller sees what became of it
        #expect(delayed["endReason"] == "callerCancelled")
        let stranger = await backend.create(call, as: "user-c", operationId: "third")
        #expect(stranger.errorCode == "call_exists")
        #expect(stranger["state"] == nil)
        #expect(await backend.get(call, as: "user-a")["state"] == "ended")
        #expect(try backend.jobs(call).filter { $0.status == .pending }.isEmpty)
        // Also after expiry.
        let expired = RandomIdentifier.uuid()
        await backend.create(expired)
        backend.clock.advance(ms: 31_000)
        #expect(await backend.create(expired, operationId: "again").status == 409)
        #expect(await backend.get(expired, as: "user-b")["endReason"] == "unanswered")
    }
}
