import Foundation
import HTTP
import PushMocks
import ReferenceBackend
import TestSupport
import Testing

/// `ringcheck serve-reference --profile dialstack` as a user meets it: help, a missing secret, bad
/// defects, and a real start that wakes a device through the mocks.
@Suite struct DialStackServeCommandTests {
    @Test func helpListsTheProfileAndEveryDialstackDefect() async throws {
        let result = try await RingcheckBinary.run(["serve-reference", "--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("--profile") && result.stdout.contains("--webhook-secret"))
        #expect(result.stdout.contains("DIALSTACK_WEBHOOK_SECRET"))
        for defect in DialStackDefect.allCases {
            #expect(result.stdout.contains(defect.name), "\(defect.name) missing from --help")
        }
    }

    @Test func aMissingSecretIsExitTwoSayingWhereToPutIt() async throws {
        var env = ProcessInfo.processInfo.environment
        env["DIALSTACK_WEBHOOK_SECRET"] = nil
        let result = try await RingcheckBinary.run(
            ["serve-reference", "--profile", "dialstack", "--port", "0"], timeout: 30, environment: env)
        #expect(result.status == 2)
        #expect(result.stderr.contains("set DIALSTACK_WEBHOOK_SECRET, or pass --webhook-secret"), "\(result.stderr)")
        #expect(!result.stdout.contains("listening on"))
    }

    @Test func unknownDefectsAndCallxOnlyOptionsAreUsageErrors() async throws {
        let env = ["DIALSTACK_WEBHOOK_SECRET": "whsec_x"]
        let defect = try await RingcheckBinary.run(
            ["serve-reference", "--profile", "dialstack", "--defect", "zero-ttl"], timeout: 30,
            environment: ProcessInfo.processInfo.environment.merging(env) { $1 })
        #expect(defect.status == 2)
        #expect(defect.stderr.contains("unknown defect 'zero-ttl' for --profile dialstack"))
        #expect(defect.stderr.contains("verify-parsed-body") && defect.stderr.contains("slow-push"))
        let db = try await RingcheckBinary.run(
            ["serve-reference", "--profile", "dialstack", "--db", "/tmp/x.db"], timeout: 30,
            environment: ProcessInfo.processInfo.environment.merging(env) { $1 })
        #expect(db.status == 2 && db.stderr.contains("--db does not apply to --profile dialstack"))
        let profile = try await RingcheckBinary.run(["serve-reference", "--profile", "nosuchprofile"], timeout: 30)
        #expect(profile.status == 2 && profile.stderr.contains("unknown --profile 'nosuchprofile'"))
    }

    @Test func theServedBackendWakesARegisteredDevice() async throws {
        let mocks = try await MockStack.start(.forTests)
        defer { mocks.stop() }
        let (server, secret) = try await ReferenceServerProcess.dialstack(mocks: mocks)
        let api = try ReferenceAPIClient(baseURL: server.baseURL)
        defer { api.client.shutdown() }
        let token = ReferenceAPIClient.apnsToken("served-phone")
        let appId = mocks.providers.credentials.bundleID
        #expect(
            try await api.registerAPNs("user-b", installation: "p1", token: token, environment: "sandbox", appId: appId)
                .status == 200)
        let callId = "call_" + UUID().uuidString.lowercased()
        let body = DialStackReferenceStack.event(callId: callId).bytes()
        var headers = HTTPHeaders()
        headers.add(
            WebhookSignature.headerName,
            WebhookSignature.header(secret: secret, timestamp: Int64(Date().timeIntervalSince1970), body: body))
        let response = try await api.client.send(
            ClientRequest(method: "POST", url: server.baseURL + "/webhooks/dialstack", headers: headers, body: body))
        #expect(response.status == 200 && response.bodyString == "OK")
        let push = await mocks.log.waitFor({ $0.wakeUpCallId == callId }, timeout: .seconds(15))
        #expect(push?.deviceToken == token && push?.headers["apns-push-type"] == "voip")
        _ = await mocks.log.waitFor({ _ in false }, timeout: .milliseconds(200))  // the log line follows the answer
        #expect(await server.interrupt() == 0)
        #expect(server.log.contains("profile      dialstack"))
        #expect(server.log.contains("webhook      POST \(server.baseURL)/webhooks/dialstack"))
        #expect(server.log.contains("secret from DIALSTACK_WEBHOOK_SECRET"))
        #expect(!server.log.contains(secret) && !server.log.contains(token))
    }
}
