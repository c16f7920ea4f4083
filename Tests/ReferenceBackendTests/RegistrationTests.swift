import JSON
import Testing

@testable import ReferenceBackend

@Suite struct RegistrationTests {
    @Test func savesAndReturnsTheRegistration() async throws {
        let backend = try BackendHarness()
        let reply = await backend.register(
            "user-b", installation: "b-phone", token: "voip-1", environment: "production")
        #expect(reply.status == 200)
        #expect(reply["installationId"] == "b-phone")
        #expect(reply["kind"] == "apnsVoip")
        #expect(reply["token"] == "voip-1")
        #expect(reply["appId"] == "com.example.calls")
        #expect(reply["apnsEnvironment"] == "production")
        #expect(reply["userId"] == "user-b")
        let fcm = await backend.register("user-b", installation: "b-tablet", kind: .fcm, token: "fcm-1")
        #expect(fcm.status == 200)
        #expect(fcm["apnsEnvironment"] == nil)
        #expect(try backend.registrations("user-b").map(\.installationId) == ["b-phone", "b-tablet"])
    }

    @Test func refusesBadInput() async throws {
        let backend = try BackendHarness()
        let noEnvironment = await backend.request(
            "PUT", "/v1/installations/b-phone/push-tokens/apnsVoip", as: "user-b",
            body: ["token": "t", "appId": "com.example.calls"])
        #expect(noEnvironment.status == 400)
        #expect(noEnvironment.errorCode == "invalid_request")
        let badEnvironment = await backend.register("user-b", installation: "b-phone", environment: "staging")
        #expect(badEnvironment.status == 400)
        let badKind = await backend.request(
            "PUT", "/v1/installations/b-phone/push-tokens/webpush", as: "user-b", body: ["token": "t", "appId": "x"])
        #expect(badKind.status == 404)
        let unauthenticated = await backend.register("nobody", installation: "b-phone")
        #expect(unauthenticated.status == 401)
        #expect(unauthenticated.errorCode == "unauthenticated")
    }

    @Test func reRegistrationReplacesTheToken() async throws {
        let backend = try BackendHarness()
        await backend.register("user-b", installation: "b-phone", token: "old")
        await backend.register("user-b", installation: "b-phone", token: "new")
        #expect(try backend.registrations("user-b").map(\.token) == ["new"])
    }

    @Test func rebindingToAnotherUserStopsRingingTheFirst() async throws {
        let backend = try BackendHarness()
        await backend.register("user-b", installation: "shared", kind: .apnsVoip)
        await backend.register("user-b", installation: "shared", kind: .fcm)
        // user-c signs in on the same installation.
        let reply = await backend.register("user-c", installation: "shared", kind: .fcm, token: "c-fcm")
        #expect(reply.status == 200)
        #expect(reply["userId"] == "user-c")
        #expect(try backend.registrations("user-b").isEmpty)
        #expect(try backend.registrations("user-c").map(\.token) == ["c-fcm"])
        let call = RandomIdentifier.uuid()
        await backend.create(call, callee: "user-b")
        #expect(try backend.jobs(call).isEmpty)
        // The first user can no longer manage or read it.
        #expect(await backend.request("DELETE", "/v1/installations/shared/push-tokens/fcm", as: "user-b").status == 403)
        #expect(await backend.events("user-b", installation: "shared").status == 403)
    }

    @Test func rebindingCancelsInvitationsNotYetSent() async throws {
        let backend = try BackendHarness()
        await backend.register("user-b", installation: "shared")
        let call = RandomIdentifier.uuid()
        await backend.create(call, callee: "user-b")
        await backend.register("user-c", installation: "shared")
        #expect(try backend.jobs(call).map(\.status) == [.cancelled])
    }

    @Test func aTokenClaimedByAnotherInstallationMovesThere() async throws {
        let backend = try BackendHarness()
        await backend.register("user-b", installation: "old-install", token: "device-token")
        await backend.register("user-b", installation: "new-install", token: "device-token")
        #expect(try backend.registrations("user-b").map(\.installationId) == ["new-install"])
    }

    @Test func deletionStopsRinging() async throws {
        let backend = try BackendHarness()
        await backend.register("user-b", installation: "b-phone")
        await backend.register("user-b", installation: "b-tablet", kind: .fcm)
        let deleted = await backend.request("DELETE", "/v1/installations/b-phone/push-tokens/apnsVoip", as: "user-b")
        #expect(deleted.status == 204)
        #expect(deleted.body.isEmpty)
        // Deleting again is fine.
        #expect(
            await backend.request("DELETE", "/v1/installations/b-phone/push-tokens/apnsVoip", as: "user-b").status
                == 204)
        let call = RandomIdentifier.uuid()
        await backend.create(call)
        #expect(try backend.jobs(call).map(\.installationId) == ["b-tablet"])
    }
}
