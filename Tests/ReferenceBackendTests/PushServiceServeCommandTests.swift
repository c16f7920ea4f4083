import Foundation
import HTTP
import JSON
import PushMocks
import ReferenceBackend
import TestSupport
import Testing

/// `ringcheck serve-reference --profile push-service` as a user meets it: help, bad defects, and a
/// real start with the App ID and key from the environment that delivers a call through the mocks.
@Suite struct PushServiceServeCommandTests {
    @Test func helpListsTheProfileAndEveryPushServiceDefect() async throws {
        let result = try await RingcheckBinary.run(["serve-reference", "--help"])
        #expect(result.status == 0)
        #expect(
            result.stdout.contains("PROFILE push-service") && result.stdout.contains("RINGCHECK_PUSH_SERVICE_API_KEY"))
        for defect in PushServiceDefect.allCases {
            #expect(result.stdout.contains(defect.name), "\(defect.name) missing from --help")
        }
    }

    @Test func unknownDefectsAndOtherProfilesOptionsAreUsageErrors() async throws {
        let defect = try await RingcheckBinary.run(
            ["serve-reference", "--profile", "push-service", "--defect", "zero-ttl"], timeout: 30)
        #expect(defect.status == 2)
        #expect(defect.stderr.contains("unknown defect 'zero-ttl' for --profile push-service"))
        #expect(defect.stderr.contains("alert-for-calls") && defect.stderr.contains("ignore-ttl"))
        let ring = try await RingcheckBinary.run(
            ["serve-reference", "--profile", "push-service", "--ring-seconds", "5"], timeout: 30)
        #expect(ring.status == 2 && ring.stderr.contains("--ring-seconds does not apply to --profile push-service"))
    }

    @Test func theServedServiceDeliversACallAndLogsNoKey() async throws {
        let mocks = try await MockStack.start(.forTests)
        defer { mocks.stop() }
        let appId = UUID().uuidString.lowercased()
        let key = "psk_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let logFile = FileManager.default.temporaryDirectory.appendingPathComponent("served-\(UUID().uuidString).log")
            .path
        defer { try? FileManager.default.removeItem(atPath: logFile) }
        var env = mocks.settings.environmentDictionary
        env["RINGCHECK_PUSH_SERVICE_APP_ID"] = appId
        env["RINGCHECK_PUSH_SERVICE_API_KEY"] = key
        let server = try await ReferenceServerProcess.start(
            arguments: ["--profile", "push-service", "--port", "0", "--log", logFile], environment: env)
        let client = try HTTPClient()
        defer { client.shutdown() }
        let voip = ReferenceAPIClient.apnsToken("served-voip")
        let device: JSONValue = [
            "external_id": "user-2", "platform": "ios", "token": .string(ReferenceAPIClient.apnsToken("served-phone")),
            "voipToken": .string(voip),
        ]
        let registered = try await client.send(
            ClientRequest(
                method: "POST", url: server.baseURL + "/api/v1/apps/\(appId)/devices",
                headers: ["content-type": "application/json"], body: device.bytes()))
        #expect(registered.status == 200)
        let call = PushServiceStack.call(["user-2"]).setting("app_id", to: .string(appId))
        let sent = try await client.send(
            ClientRequest(
                method: "POST", url: server.baseURL + "/notifications",
                headers: ["content-type": "application/json", "authorization": "Key \(key)"], body: call.bytes()))
        #expect(sent.status == 200)
        let push = await mocks.log.waitFor({ $0.mock == .apns }, timeout: .seconds(15))
        #expect(push?.deviceToken == voip && push?.headers["apns-push-type"] == "voip")
        _ = await mocks.log.waitFor({ _ in false }, timeout: .milliseconds(200))  // the log line follows the push
        #expect(await server.interrupt() == 0)
        #expect(server.log.contains("profile      push-service"))
        #expect(server.log.contains("app id       \(appId)") && !server.log.contains(key))
        let text = try String(contentsOfFile: logFile, encoding: .utf8)
        #expect(text.contains("api POST /notifications → 200") && text.contains("via voip"))
        #expect(!text.contains(key) && !text.contains(voip))
    }
}
