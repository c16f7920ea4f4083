import Conformance
import Foundation
import HTTP
import JSON
import PushMocks
import PushService
import ReferenceBackend
import TestSupport
import Testing

@testable import RingcheckCLI

/// The push-service profile's embedded reference, as `ringcheck run --profile push-service` starts it: a
/// target with the app's App ID and key, external IDs per run, a call reaching the mocks.
@Suite struct EmbeddedPushServiceTests {
    @Test func theTargetDeliversACallToARunsExternalID() async throws {
        let cleanup = RunCleanup()
        let embedded = try await PushServiceReferenceKit().startEmbedded(
            defectNames: [], EmbeddedStart(runs: 2, userNames: ["alice", "bob"]), cleanup: cleanup)
        let target = embedded.target
        let app = try #require(target.serviceApp)
        #expect(UUID(uuidString: app.appId) != nil && app.apiKey.hasPrefix("psk_") && app.apiKey.count >= 36)
        #expect(target.capabilities == [.faults, .sandbox])
        #expect(target.appId == embedded.mocks.providers.credentials.bundleID)
        let bob = try #require(target.accounts("bob", 1))
        #expect(bob.userId == "u1-bob")

        let client = try HTTPClient(configuration: .init(timeoutSeconds: 20, httpVersion: .http1_1))
        defer { client.shutdown() }
        let token = "fcm-embedded-bob:APA91b" + String(repeating: "e", count: 40)
        let registered = try await client.send(
            ClientRequest(
                method: "POST", url: target.baseURL + "/api/v1/apps/\(app.appId)/devices",
                body: (["external_id": .string(bob.userId), "platform": "android", "token": .string(token)] as JSONValue)
                    .bytes()))
        #expect(registered.status == 200)
        let call = PushServiceStack.call([bob.userId]).setting("app_id", to: .string(app.appId))
        var headers = HTTPHeaders()
        headers.add("authorization", "Key \(app.apiKey)")
        let posted = try await client.send(
            ClientRequest(method: "POST", url: target.baseURL + "/notifications", headers: headers, body: call.bytes()))
        #expect(posted.status == 200)
        let push = await embedded.mocks.log.waitFor({ $0.mock == .fcm }, timeout: .seconds(15))
        #expect(push?.deviceToken == token && push?.fcm?.data["type"] == "incoming_call")
        await cleanup.run()
    }

    @Test func anUnknownDefectNamesTheValidOnes() async throws {
        let cleanup = RunCleanup()
        await #expect {
            _ = try await PushServiceReferenceKit().startEmbedded(
                defectNames: ["ignore-ttl", "zero-ttl"], EmbeddedStart(runs: 1, userNames: ["a"]), cleanup: cleanup)
        } throws: { error in
            let text = "\(error)"
            return text.contains("'zero-ttl'") && PushServiceReferenceKit().defectNames.allSatisfy { text.contains($0) }
        }
        await cleanup.run()
        #expect(PushServiceReferenceKit().defectNames == PushServiceDefect.allCases.map(\.name))
    }
}
