import Foundation
import PushMocks
import ReferenceBackend
import TestSupport
import Testing

/// The reference backend's log: a line per request and per push attempt, never a token, a request
/// body or a payload — unless the `log-push-secrets` defect writes them (CALLX-SEC-3's failing case).
@Suite struct BackendLogTests {
    static let token = ReferenceAPIClient.apnsToken("log-b-phone")

    /// Registers a phone, rings it, and returns the log once the push attempt is in it.
    func logOfOneCall(defects: Set<CallxDefect>) async throws -> String {
        let dir = TemporaryDirectory()
        let path = dir.file("backend.log")
        let stack = try await ReferenceStack.start(defects: defects, logFile: path)
        let registered = try await stack.api.registerAPNs(
            "user-b", installation: "log-b-phone", token: Self.token, environment: "production", appId: stack.appId)
        #expect(registered.status == 200)
        let callId = UUID().uuidString.lowercased()
        #expect(try await stack.api.create(callId).status == 200)
        #expect(await stack.waitForPushes(callId: callId, count: 1).count == 1)
        var log = ""
        for _ in 0..<50 {
            log = String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
            if log.contains("push job") { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        await stack.stop()
        #expect(log.contains("api PUT /v1/installations/log-b-phone/push-tokens/apnsVoip → 200"))
        #expect(log.contains("api POST /v1/calls → 200"))
        #expect(log.contains("push job") && log.contains("invitation via apnsVoip call \(callId)"))
        #expect(log.contains("→ 200 delivered, committed as sent"))
        return log
    }

    @Test func logsRequestsAndPushesWithoutSecrets() async throws {
        let log = try await logOfOneCall(defects: [])
        #expect(!log.contains(Self.token))
        #expect(!log.contains("\"callx\""))
        #expect(!log.contains("body="))
    }

    @Test func theDefectLogsTokensBodiesAndPayloads() async throws {
        let log = try await logOfOneCall(defects: [.logPushSecrets])
        #expect(log.contains("token=\(Self.token)"))
        #expect(log.contains("payload={\"aps\":{}"))
        #expect(log.contains("body={\"token\":\"\(Self.token)\""))
    }

    /// A push that gets no answer is logged with why, without the APNs URL whose path holds the token.
    @Test func aPushWithNoAnswerIsLoggedWithoutItsURL() async throws {
        let dir = TemporaryDirectory()
        let path = dir.file("backend.log")
        let stack = try await ReferenceStack.start(logFile: path)
        _ = try stack.mocks.faults.install(
            FaultPlan(mock: .apns, deviceToken: Self.token, times: 1, connection: .reset))
        let registered = try await stack.api.registerAPNs(
            "user-b", installation: "log-b-phone", token: Self.token, environment: "production", appId: stack.appId)
        #expect(registered.status == 200)
        let callId = UUID().uuidString.lowercased()
        #expect(try await stack.api.create(callId).status == 200)
        // The reset one is captured too (rejected), then the retry is accepted.
        #expect(await stack.waitForPushes(callId: callId, count: 2).count == 2)
        var log = ""
        for _ in 0..<100 {
            log = String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
            if log.contains("no response") && log.contains("delivered") { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        await stack.stop()
        #expect(log.contains("no response: POST request https://127.0.0.1:"))
        #expect(!log.contains(Self.token))
        #expect(!log.contains("/3/device/"))
    }

    @Test func anUnwritableLogIsAClearError() throws {
        let error = #expect(throws: BackendLogError.self) { try BackendLog(path: "/nonexistent-dir/x.log") }
        #expect(error?.description.contains("cannot open the log file /nonexistent-dir/x.log") == true)
    }
}
