import Conformance
import DialStack
import Foundation
import HTTP
import JSON
import PushMocks
import ReferenceBackend
import TestSupport
import Testing

@testable import RingcheckCLI

/// The dialstack profile's embedded reference, as `ringcheck run --profile dialstack` starts it: a target
/// with accounts per run, the webhook and its generated secret, pushes reaching the mocks.
@Suite struct EmbeddedDialStackReferenceTests {
    @Test func theTargetWakesARunsAccountThroughItsWebhook() async throws {
        let cleanup = RunCleanup()
        let embedded = try await DialStackReferenceKit().startEmbedded(
            defectNames: [], EmbeddedStart(runs: 2, userNames: ["alice", "bob"]), cleanup: cleanup)
        let target = embedded.target
        let webhook = try #require(target.webhook)
        #expect(webhook.path == "/webhooks/dialstack" && webhook.secret.count >= 32)
        #expect(target.capabilities == [.faults, .sandbox])
        #expect(target.appId == embedded.mocks.providers.credentials.bundleID)
        let bob = try #require(target.accounts("bob", 1))
        #expect(bob.userId == "u1-bob" && bob.bearerToken == "token-u1-bob")

        let client = try HTTPClient(configuration: .init(timeoutSeconds: 20, httpVersion: .http1_1))
        defer { client.shutdown() }
        let token = "fcm-embedded-bob:APA91b" + String(repeating: "e", count: 40)
        var headers = HTTPHeaders()
        headers.add("authorization", "Bearer \(bob.bearerToken)")
        let registered = try await client.send(
            ClientRequest(
                method: "PUT", url: target.baseURL + "/v1/installations/bob-tablet/push-tokens/fcm", headers: headers,
                body: (["token": .string(token), "appId": .string(target.appId)] as JSONValue).bytes()))
        #expect(registered.status == 200)

        let callId = "call_" + UUID().uuidString.lowercased()
        let body = DialStackReferenceStack.event(callId: callId, userId: bob.userId).bytes()
        var signed = HTTPHeaders()
        signed.add(
            WebhookSignature.headerName,
            WebhookSignature.header(secret: webhook.secret, timestamp: Int64(Date().timeIntervalSince1970), body: body))
        let posted = try await client.send(
            ClientRequest(method: "POST", url: target.baseURL + webhook.path, headers: signed, body: body))
        #expect(posted.status == 200)
        let push = await embedded.mocks.log.waitFor({ $0.wakeUpCallId == callId }, timeout: .seconds(15))
        #expect(push?.deviceToken == token && push?.fcm?.data["type"] == "call.mobile_push_wakeup")
        await cleanup.run()
    }

    @Test func anUnknownDefectNamesTheValidOnes() async throws {
        let cleanup = RunCleanup()
        await #expect {
            _ = try await DialStackReferenceKit().startEmbedded(
                defectNames: ["slow-push", "zero-ttl"], EmbeddedStart(runs: 1, userNames: ["a"]), cleanup: cleanup)
        } throws: { error in
            let text = "\(error)"
            return text.contains("'zero-ttl'") && DialStackReferenceKit().defectNames.allSatisfy { text.contains($0) }
        }
        await cleanup.run()
        #expect(DialStackReferenceKit().defectNames == DialStackDefect.allCases.map(\.name))
    }
}
