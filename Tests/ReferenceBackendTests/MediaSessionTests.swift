import JSON
import Testing

@testable import ReferenceBackend

@Suite struct MediaSessionTests {
    func media(_ backend: BackendHarness, _ call: String, as user: String, installation: String? = nil) async -> Reply {
        let body: JSONValue? = installation.map { ["installationId": .string($0)] }
        return await backend.request("POST", "/v1/calls/\(call)/media-session", as: user, body: body)
    }

    @Test func onlyTheCallerAndTheWinningInstallationAfterAccept() async throws {
        let backend = try BackendHarness()
        await backend.register("user-b", installation: "b-phone")
        await backend.register("user-b", installation: "b-tablet", kind: .fcm)
        let call = RandomIdentifier.uuid()
        await backend.create(call)
        #expect(await media(backend, call, as: "user-a").errorCode == "call_not_accepted")
        #expect(await media(backend, call, as: "user-b", installation: "b-phone").status == 409)
        await backend.answer(call, installation: "b-phone")

        let caller = await media(backend, call, as: "user-a")
        #expect(caller.status == 200)
        #expect(caller["userId"] == "user-a")
        #expect(caller["credential"]?.stringValue?.count == 64)
        #expect(caller["expiresAtMs"]?.int64Value == backend.clock.now + 300_000)

        let winner = await media(backend, call, as: "user-b", installation: "b-phone")
        #expect(winner.status == 200)
        #expect(winner["installationId"] == "b-phone")
        #expect(winner["credential"] != caller["credential"])
        #expect(
            await media(backend, call, as: "user-b", installation: "b-tablet").errorCode == "not_winning_installation")
        #expect(await media(backend, call, as: "user-b").errorCode == "not_winning_installation")
        #expect(await media(backend, call, as: "user-c").errorCode == "not_a_participant")

        await backend.end(call, as: "user-a", reason: "localHangup")
        #expect(await media(backend, call, as: "user-a").errorCode == "call_ended")
    }
}
