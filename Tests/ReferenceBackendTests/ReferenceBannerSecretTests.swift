import Foundation
import HTTP
import JSON
import PushMocks
import TestSupport
import Testing

/// What `serve-reference` prints at start reaches CI logs (the examples upload backend.log): a secret
/// the user gave (environment or option) is named by where it came from, never printed, and a key
/// ringcheck generated is handed over in a private file whose path is printed.
@Suite struct ReferenceBannerSecretTests {
    static func secret(_ prefix: String) -> String {
        prefix + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    }

    @Test func thePushServiceNamesTheVariableItsKeyCameFrom() async throws {
        let mocks = try await MockStack.start(.forTests)
        defer { mocks.stop() }
        let key = Self.secret("psk_")
        var env = mocks.settings.environmentDictionary
        env["RINGCHECK_PUSH_SERVICE_API_KEY"] = key
        let server = try await ReferenceServerProcess.start(
            arguments: ["--profile", "push-service", "--port", "0"], environment: env)
        #expect(await server.interrupt() == 0)
        #expect(server.log.contains("rest key     from RINGCHECK_PUSH_SERVICE_API_KEY"), "\(server.log)")
        #expect(!server.log.contains(key))
    }

    @Test func aGeneratedPushServiceKeyIsInAPrivateFileNotOnTheTerminal() async throws {
        let mocks = try await MockStack.start(.forTests)
        defer { mocks.stop() }
        var env = mocks.settings.environmentDictionary
        env["RINGCHECK_PUSH_SERVICE_API_KEY"] = ""
        let appId = UUID().uuidString.lowercased()
        env["RINGCHECK_PUSH_SERVICE_APP_ID"] = appId
        let server = try await ReferenceServerProcess.start(
            arguments: ["--profile", "push-service", "--port", "0"], environment: env)
        let line = try #require(server.log.split(separator: "\n").first { $0.contains("rest key") })
        let path = try #require(line.split(separator: " ").first { $0.hasPrefix("/") }.map(String.init))
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let key = try String(contentsOfFile: path, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(key.count >= 16 && !server.log.contains(key))
        // The file holds the key the service checks.
        let client = try HTTPClient()
        defer { client.shutdown() }
        let sent = try await client.send(
            ClientRequest(
                method: "POST", url: server.baseURL + "/notifications",
                headers: ["content-type": "application/json", "authorization": "Key \(key)"],
                body: PushServiceStack.call(["user-2"]).setting("app_id", to: .string(appId)).bytes()))
        #expect(sent.status == 200, "\(sent.bodyString)")
        #expect(await server.interrupt() == 0)
        #expect(!FileManager.default.fileExists(atPath: path), "the key file outlived the server")
        #expect(!server.log.contains(key))
    }

    @Test func theDialstackSecretFromTheOptionIsNotPrinted() async throws {
        let mocks = try await MockStack.start(.forTests)
        defer { mocks.stop() }
        let secret = Self.secret("whsec_")
        var env = mocks.settings.environmentDictionary
        env["DIALSTACK_WEBHOOK_SECRET"] = nil
        let server = try await ReferenceServerProcess.start(
            arguments: ["--profile", "dialstack", "--port", "0", "--webhook-secret", secret, "--log", "-"],
            environment: env)
        #expect(await server.interrupt() == 0)
        #expect(server.log.contains("secret from --webhook-secret"), "\(server.log)")
        #expect(!server.log.contains(secret))
    }

    @Test func oneSignalKeysFromTheEnvironmentAreNotPrinted() async throws {
        let key = Self.secret("os_"), voipKey = Self.secret("osv_")
        let env = [
            "ONESIGNAL_APP_ID": UUID().uuidString.lowercased(), "ONESIGNAL_API_KEY": key,
            "ONESIGNAL_VOIP_APP_ID": UUID().uuidString.lowercased(), "ONESIGNAL_VOIP_API_KEY": voipKey,
            "ONESIGNAL_API_URL": "http://127.0.0.1:9",
        ]
        let server = try await ReferenceServerProcess.start(
            arguments: ["--profile", "onesignal", "--port", "0", "--log", "-"], environment: env)
        #expect(await server.interrupt() == 0)
        #expect(server.log.contains("key from ONESIGNAL_API_KEY"), "\(server.log)")
        #expect(!server.log.contains(key) && !server.log.contains(voipKey))
    }

    @Test func callxTokensFromAUsersFileAreNotPrinted() async throws {
        let mocks = try await MockStack.start(.forTests)
        defer { mocks.stop() }
        let dir = TemporaryDirectory(prefix: "ringcheck-users")
        let tokens = [Self.secret("tok_"), Self.secret("tok_")]
        let users: JSONValue = [
            "users": [
                ["userId": "alice", "displayName": "Alice", "handle": "callx:alice", "token": .string(tokens[0])],
                ["userId": "bob", "displayName": "Bob", "handle": "callx:bob", "token": .string(tokens[1])],
            ]
        ]
        let file = dir.file("users.json")
        try users.serialized().write(toFile: file, atomically: true, encoding: .utf8)
        let server = try await ReferenceServerProcess.start(
            arguments: ["--port", "0", "--users", file, "--log", "-"], environment: mocks.settings.environmentDictionary
        )
        #expect(await server.interrupt() == 0)
        #expect(server.log.contains("alice, bob (Bearer tokens from \(file))"), "\(server.log)")
        #expect(!tokens.contains { server.log.contains($0) })
    }
}
