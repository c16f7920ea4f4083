import Foundation
import PushMocks
import TestSupport
import Testing

/// `persistentKeys`: mocks started again with the same state directory keep both OneSignal apps' IDs
/// and keys, so a kit server configured once keeps sending; without it every start makes new ones.
@Suite struct OneSignalMockPersistentAppsTests {
    static func start(_ dir: String, keys: Bool) async throws -> MockStackHarness {
        try await MockStackHarness.start { o in
            o.stateDirectory = dir
            o.persistentKeys = keys
        }
    }

    static func apps(_ mocks: MockStackHarness) -> [OneSignalApp] { mocks.stack.providers.oneSignal!.apps }

    @Test func aSecondStartKeepsBothAppsAndTheirKeys() async throws {
        let dir = TemporaryDirectory()
        let first = try await Self.start(dir.file("state"), keys: true)
        let apps = Self.apps(first)
        await first.stack.stop()
        let file = dir.file("state/" + OneSignalApp.persistentFileName)
        let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
        #expect(mode == 0o600)

        let second = try await Self.start(dir.file("state"), keys: true)
        #expect(Self.apps(second) == apps)
        #expect(second.settings.extra.first { $0.name == "RINGCHECK_ONESIGNAL_VOIP_API_KEY" }?.value == apps[1].apiKey)
        await second.stack.stop()

        let fresh = try await Self.start(dir.file("state"), keys: false)
        #expect(Self.apps(fresh).map(\.apiKey) != apps.map(\.apiKey))
    }

    @Test func anUnreadableAppsFileStopsTheStartAndSaysWhatToDo() async throws {
        let dir = TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir.file("state"), withIntermediateDirectories: true)
        try "{\"standard\": 1}".write(
            toFile: dir.file("state/" + OneSignalApp.persistentFileName), atomically: true, encoding: .utf8)
        do {
            _ = try await Self.start(dir.file("state"), keys: true)
            Issue.record("a broken onesignal-apps.json was accepted")
        } catch {
            #expect("\(error)".contains("is not a ringcheck OneSignal apps file; delete it"), "\(error)")
        }
    }
}
