import Foundation
import PushMocks
import ReferenceBackend
import TestSupport
import Testing

/// The reference backend keeps its APNs provider token in its database: a restarted process reuses it
/// rather than sign a new one within APNs's 20 minutes (which APNs answers with TooManyProviderTokenUpdates).
@Suite struct ProviderTokenRestartTests {
    static func transport(_ mocks: MockStack, _ database: Database.Location) throws -> ProviderPushTransport {
        let settings = try PushProviderSettings(environment: mocks.settings.environmentDictionary)
        let transport = try ProviderPushTransport(settings: settings)
        _ = try ReferenceBackendServer(options: .init(database: database), transport: transport)
        return transport
    }

    @Test func aRestartWithTheSameDatabaseReusesTheToken() async throws {
        let mocks = try await MockStack.start(.forTests)
        defer { mocks.stop() }
        let dir = TemporaryDirectory()
        let db = Database.Location.file(dir.file("reference.db"))
        let first = try Self.transport(mocks, db)
        let token = try first.providerTokens.token()
        first.shutdown()

        let second = try Self.transport(mocks, db)
        #expect(try second.providerTokens.token() == token)
        #expect(second.providerTokens.signedCount == 0, "nothing newly signed after the restart")
        second.shutdown()

        // In memory (or with forget-on-restart) nothing is kept: a new process signs its own.
        let fresh = try Self.transport(mocks, .inMemory)
        #expect(try fresh.providerTokens.token() != token)
        #expect(fresh.providerTokens.signedCount == 1)
        fresh.shutdown()
    }
}
