import Foundation
import JSON
import PushMocks
import TestSupport
import Testing

/// `persistentKeys`: mocks started again with the same state directory keep the APNs key, its IDs
/// and the service account, so a backend configured once with those files keeps working.
@Suite struct MockStackPersistentKeysTests {
    static func start(_ dir: String, keys: Bool = true, projectID: String = "ringcheck-test") async throws
        -> MockStackHarness
    {
        try await MockStackHarness.start { o in
            o.stateDirectory = dir
            o.persistentKeys = keys
            o.persistentCA = true
            o.serviceAccountKey = nil  // what ringcheck does: not the key the test process shares
            o.projectID = projectID
        }
    }

    static func text(_ path: String) -> String {
        String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
    }

    @Test func aSecondStartKeepsTheKeysAndAcceptsTokensSignedWithTheFirst() async throws {
        let dir = TemporaryDirectory()
        let state = dir.file("state")
        let first = try await Self.start(state)
        let settings1 = first.settings
        let p8 = Self.text(settings1.apnsKeyFile)
        let account1 = try JSONValue.parse(Array(Self.text(settings1.fcmServiceAccountFile).utf8))
        // A provider token signed from the .p8 file as the backend would (PyJWT), before the restart.
        let jwt = try #require(try await first.clients.providerTokens()["valid"])
        await first.stack.stop()

        let second = try await Self.start(state)
        let settings2 = second.settings
        #expect(settings2.apnsKeyID == settings1.apnsKeyID && settings2.apnsTeamID == settings1.apnsTeamID)
        #expect(Self.text(settings2.apnsKeyFile) == p8)
        let account2 = try JSONValue.parse(Array(Self.text(settings2.fcmServiceAccountFile).utf8))
        #expect(account2["private_key"] == account1["private_key"])
        #expect(account2["client_email"] == account1["client_email"])
        // token_uri names this start's Google port.
        #expect(account2["token_uri"]?.stringValue == settings2.oauthTokenURL)
        let push = try await second.clients.apnsPush(jwt: jwt)
        #expect(push.status == 200, "\(push)")
    }

    @Test func withoutTheOptionEveryStartMakesNewKeys() async throws {
        let dir = TemporaryDirectory()
        let first = try await Self.start(dir.file("state"), keys: false)
        let id1 = first.settings.apnsKeyID
        let account1 = try JSONValue.parse(Array(Self.text(first.settings.fcmServiceAccountFile).utf8))
        await first.stack.stop()
        let second = try await Self.start(dir.file("state"), keys: false)
        #expect(second.settings.apnsKeyID != id1)
        let account2 = try JSONValue.parse(Array(Self.text(second.settings.fcmServiceAccountFile).utf8))
        #expect(account2["private_key"] != nil && account2["private_key"] != account1["private_key"])
        #expect(!FileManager.default.fileExists(atPath: dir.file("state/" + MockKeyMaterial.persistentFileName)))
    }

    @Test func aDamagedOrForeignKeyFileIsAClearError() async throws {
        let dir = TemporaryDirectory()
        let state = dir.file("state")
        let first = try await Self.start(state, projectID: "project-one")
        await first.stack.stop()
        let other = await #expect(throws: MockKeyFileError.self) {
            _ = try await Self.start(state, projectID: "project-two")
        }
        #expect(other?.description.contains("holds keys for project 'project-one', not 'project-two'") == true)
        try "{not json".write(
            toFile: state + "/" + MockKeyMaterial.persistentFileName, atomically: true, encoding: .utf8)
        let damaged = await #expect(throws: MockKeyFileError.self) { _ = try await Self.start(state) }
        #expect(damaged?.description.contains("is not a ringcheck provider-keys file") == true)
    }
}
