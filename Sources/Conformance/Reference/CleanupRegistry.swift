/// Where a start hands over how to undo it (stop a server, a child process, remove a folder): the
/// command that started it runs every action once, in the reverse order of adding, at its end, after a
/// failure or on Ctrl-C. The CLI's `RunCleanup` conforms. A reference kit registers each thing it starts
/// before it can fail to start the next:
///
/// ```swift
/// let mocks = try await MockStack.start()
/// await cleanup.add { await mocks.stop() }
/// let server = try ProbeServer(providers: mocks.settings.providerSettings(bundleID: "app"))
/// await cleanup.add { await server.stop() }
/// ```
package protocol CleanupRegistry: Sendable {
    /// Adds an action; actions run in the reverse order of adding (the backend before the mocks it uses).
    func add(_ action: @escaping @Sendable () async -> Void) async
}
