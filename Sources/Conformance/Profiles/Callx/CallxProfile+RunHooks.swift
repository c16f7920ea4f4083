extension CallxProfile {
    /// A create, answer or end whose mapped answer may carry no snapshot (`snapshotFromGet: true`) is
    /// completed by a follow-up get.
    public func completedAnswer(_ exchange: Exchange, to request: PreparedRequest, in run: isolated ScenarioRun)
        async -> Exchange
    {
        await run.completed(exchange, request)
    }

    /// Registers the installations whose event feeds the scenario reads.
    public func prepare(in run: isolated ScenarioRun) async throws {
        try await run.registerFeedInstallations()
    }
}
