import Conformance

extension CallxProfile {
    /// A create, answer or end whose mapped answer may carry no snapshot (`snapshotFromGet: true`) is
    /// completed by a follow-up get.
    public func completedAnswer(
        _ exchange: Exchange, to request: PreparedRequest, with context: isolated any RunContext
    ) async -> Exchange {
        await context.completed(exchange, request)
    }

    /// Registers the users' own installations: of those whose event feeds the scenario reads, and of
    /// those whose call requests carry them.
    public func prepare(with context: isolated any RunContext) async throws {
        try await context.registerUserInstallations()
    }
}
