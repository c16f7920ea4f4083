import Foundation
import HTTP
import JSON
import TestSupport
import Testing

@testable import ReferenceBackend

/// `POST /v1/accounts`, the reference backend's sign-up: the account it makes signs in with the token it
/// answers, can be called, survives a restart (it is in the database), and its token is not stored as is.
@Suite struct SignUpTests {
    static func signUp(_ backend: BackendHarness, _ name: String = "Robin") async -> Reply {
        await backend.request("POST", "/v1/accounts", body: ["displayName": .string(name)])
    }

    @Test func aNewAccountSignsInIsCalledAndOutlivesARestart() async throws {
        let dir = TemporaryDirectory(prefix: "ringcheck-signup")
        let path = dir.file("reference.db")
        let clock = TestClock()
        let backend = try BackendHarness(location: .file(path), clock: clock)
        let made = await Self.signUp(backend)
        #expect(made.status == 201, "\(made.json)")
        let userId = try #require(made["userId"]?.stringValue)
        let token = try #require(made["token"]?.stringValue)
        #expect(made["displayName"]?.stringValue == "Robin" && made["handle"]?.stringValue == "callx:\(userId)")
        #expect(await backend.register("x", installation: "r-phone").status == 401, "an unknown user signed in")

        let registered = await backend.request(
            "PUT", "/v1/installations/r-phone/push-tokens/apnsVoip", bearer: token,
            body: ["token": "tok-r-phone", "appId": "com.example.calls", "apnsEnvironment": "sandbox"])
        #expect(registered.status == 200, "\(registered.json)")
        let call = await backend.create(as: "user-a", callee: userId)
        #expect(call.status == 200, "the new account cannot be called: \(call.json)")
        #expect(try backend.jobs(try #require(call["callId"]?.stringValue)).count == 1)

        let second = await Self.signUp(backend)
        #expect(second["userId"]?.stringValue != userId && second["token"]?.stringValue != token)

        let reopened = try BackendHarness(location: .file(path), clock: clock)
        let read = await reopened.request("GET", "/v1/calls/\(call["callId"]?.stringValue ?? "")", bearer: token)
        #expect(read.status == 200, "the account did not survive the restart: \(read.json)")
        // The database and its write-ahead log (where a fresh write may still be).
        for file in try FileManager.default.contentsOfDirectory(atPath: dir.path) {
            let stored = try Data(contentsOf: URL(fileURLWithPath: dir.file(file)))
            #expect(!stored.isEmpty || file != "reference.db")
            #expect(stored.range(of: Data(token.utf8)) == nil, "\(file) holds the token as is")
        }
    }

    @Test func aBadSignUpIsRefusedNamingTheField() async throws {
        let backend = try BackendHarness()
        let noName = await backend.request("POST", "/v1/accounts", body: ["handle": "callx:someone"])
        #expect(noName.status == 400 && noName.errorCode == "invalid_request", "\(noName.json)")
        #expect(noName["error.message"]?.stringValue?.contains("displayName") == true)
        let longHandle = await backend.request(
            "POST", "/v1/accounts",
            body: ["displayName": "Robin", "handle": .string(String(repeating: "h", count: 257))])
        #expect(longHandle.status == 400, "\(longHandle.json)")
        #expect(await backend.request("GET", "/v1/accounts").status == 405)
        let notJSON = await backend.api.handle(
            HTTPRequest(method: "POST", target: "/v1/accounts", headers: HTTPHeaders(), body: Array("{".utf8)))
        #expect(notJSON.status == 400)
    }
}
