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

    /// What `serve-reference ARGUMENTS --port 0` printed from start to Ctrl-C, with the mocks' settings
    /// and `environment` changes; `whileUp` runs against the server in between.
    static func banner(
        _ arguments: [String], _ environment: [String: String?] = [:],
        whileUp: (ReferenceServerProcess) async throws -> Void = { _ in }
    ) async throws -> String {
        let mocks = try await MockStack.start(.forTests)
        defer { mocks.stop() }
        var env = mocks.settings.environmentDictionary
        for (name, value) in environment { env[name] = value }
        let server = try await ReferenceServerProcess.start(arguments: arguments + ["--port", "0"], environment: env)
        try await whileUp(server)
        #expect(await server.interrupt() == 0)
        return server.log
    }

    @Test func thePushServiceNamesTheVariableItsKeyCameFrom() async throws {
        let key = Self.secret("psk_")
        let log = try await Self.banner(["--profile", "push-service"], ["RINGCHECK_PUSH_SERVICE_API_KEY": key])
        #expect(log.contains("rest key     from RINGCHECK_PUSH_SERVICE_API_KEY"), "\(log)")
        #expect(!log.contains(key))
    }

    @Test func aGeneratedPushServiceKeyIsInAPrivateFileNotOnTheTerminal() async throws {
        let appId = UUID().uuidString.lowercased()
        var path = "", key = ""
        let log = try await Self.banner(
            ["--profile", "push-service"],
            ["RINGCHECK_PUSH_SERVICE_API_KEY": "", "RINGCHECK_PUSH_SERVICE_APP_ID": appId]
        ) { server in
            let line = try #require(server.log.split(separator: "\n").first { $0.contains("rest key") })
            path = try #require(line.split(separator: " ").first { $0.hasPrefix("/") }.map(String.init))
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            #expect((attributes[.posixPermissions] as? Int) == 0o600)
            // The folder names its owner, so the next ringcheck start removes it after a kill -9.
            let owner = (path as NSString).deletingLastPathComponent + "/.ringcheck-owner"
            #expect(FileManager.default.fileExists(atPath: owner), "no owner file beside the key")
            key = try String(contentsOfFile: path, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            // The file holds the key the service checks.
            let client = try HTTPClient()
            defer { client.shutdown() }
            let sent = try await client.send(
                ClientRequest(
                    method: "POST", url: server.baseURL + "/notifications",
                    headers: ["content-type": "application/json", "authorization": "Key \(key)"],
                    body: PushServiceStack.call(["user-2"]).setting("app_id", to: .string(appId)).bytes()))
            #expect(sent.status == 200, "\(sent.bodyString)")
        }
        #expect(key.count >= 16 && !log.contains(key))
        #expect(!FileManager.default.fileExists(atPath: path), "the key file outlived the server")
    }

    @Test func theDialstackSecretFromTheOptionIsNotPrinted() async throws {
        let secret = Self.secret("whsec_")
        let log = try await Self.banner(
            ["--profile", "dialstack", "--webhook-secret", secret, "--log", "-"], ["DIALSTACK_WEBHOOK_SECRET": nil])
        #expect(log.contains("secret from --webhook-secret"), "\(log)")
        #expect(!log.contains(secret))
    }

    @Test func oneSignalKeysFromTheEnvironmentAreNotPrinted() async throws {
        let key = Self.secret("os_"), voipKey = Self.secret("osv_")
        let env: [String: String?] = [
            "ONESIGNAL_APP_ID": UUID().uuidString.lowercased(), "ONESIGNAL_API_KEY": key,
            "ONESIGNAL_VOIP_APP_ID": UUID().uuidString.lowercased(), "ONESIGNAL_VOIP_API_KEY": voipKey,
            "ONESIGNAL_API_URL": "http://127.0.0.1:9",
        ]
        let log = try await Self.banner(["--profile", "onesignal", "--log", "-"], env)
        #expect(log.contains("key from ONESIGNAL_API_KEY"), "\(log)")
        #expect(!log.contains(key) && !log.contains(voipKey))
    }

    @Test func callxTokensFromAUsersFileAreNotPrinted() async throws {
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
        let log = try await Self.banner(["--users", file, "--log", "-"])
        #expect(log.contains("alice, bob (Bearer tokens from \(file))"), "\(log)")
        #expect(!tokens.contains { log.contains($0) })
    }
}
