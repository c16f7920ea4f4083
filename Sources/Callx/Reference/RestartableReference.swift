import Foundation
import HTTP
import ReferenceBackend
import Synchronization

/// The in-process reference backend of `ringcheck run`, restartable on the same port and database
/// (the `restartBackend` step): a restart stops the HTTP server, the push worker and the expiry
/// sweeper, and starts new ones over the same SQLite file, so only what the database holds survives.
///
/// The provider connections and their cached APNs token are kept across restarts: APNs (and its
/// mock) refuses a new provider token within 20 minutes of the previous one, which would hold every
/// VoIP push after a restart for reasons that have nothing to do with what the scenario checks.
package final class RestartableReference: Sendable {
    private let options: ReferenceBackendServer.Options
    private let transport: SharedPushTransport
    private let current: Mutex<ReferenceBackendServer?>
    /// The folder holding the database file, removed by `stop()`.
    package let directory: String

    /// Creates the database folder; nothing runs until `start()`.
    package init(options: ReferenceBackendServer.Options, providers: PushProviderSettings) throws {
        directory =
            FileManager.default.temporaryDirectory
            .appendingPathComponent("ringcheck-reference-\(getpid())-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var options = options
        options.database = .file(directory + "/reference.db")
        self.options = options
        transport = SharedPushTransport(try ProviderPushTransport(settings: providers))
        current = Mutex(nil)
    }

    /// `http://127.0.0.1:PORT` of the running server.
    package var baseURL: String { current.withLock { $0?.baseURL } ?? "" }

    /// Starts the first server on a free port.
    package func start() throws {
        let server = try makeServer(port: options.port)
        try server.start()
        current.withLock { $0 = server }
    }

    /// Stops the running server and starts a new one on the same port and database.
    package func restart() async throws {
        guard let old = current.withLock({ $0 }) else { throw RestartError(message: "the backend is not running") }
        let port = old.port
        await old.stop()
        let server = try makeServer(port: port)
        do { try server.start() } catch {
            throw RestartError(message: "cannot listen on port \(port) again: \(error)")
        }
        current.withLock { $0 = server }
    }

    /// Stops the server and the provider connections and removes the database.
    package func stop() async {
        let server = current.withLock { s in
            defer { s = nil }
            return s
        }
        await server?.stop()
        transport.base.shutdown()
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func makeServer(port: Int) throws -> ReferenceBackendServer {
        var options = self.options
        options.port = port
        return try ReferenceBackendServer(
            options: options, transport: transport, messageSettings: transport.base.messageSettings)
    }

    package struct RestartError: Error, CustomStringConvertible {
        package var message: String
        package var description: String { message }
    }
}

/// Forwards to one `ProviderPushTransport` that outlives the servers using it (a server shuts down a
/// `ProviderPushTransport` it was given when it stops; it leaves this one alone).
package struct SharedPushTransport: PushTransport {
    package let base: ProviderPushTransport

    package init(_ base: ProviderPushTransport) { self.base = base }

    package func send(_ request: PushRequest) async throws -> HTTPResponse { try await base.send(request) }
}
