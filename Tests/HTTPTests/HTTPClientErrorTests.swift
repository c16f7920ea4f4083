import HTTP
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct HTTPClientErrorTests {
    @Test func refusedConnectionIsAConnectError() async throws {
        let client = try HTTPClient()
        defer { client.shutdown() }
        let url = "http://127.0.0.1:\(ClientTestPeer.closedPort())/"
        let error = await #expect(throws: ClientError.self) { try await client.send(.get(url)) }
        #expect(error?.kind == .connect)
        #expect(error?.curlCode == 7)
        #expect(error?.operation == "GET request")
        #expect(error?.description.contains(url) == true)
    }

    @Test func slowResponseIsATimeout() async throws {
        let dir = TemporaryDirectory()
        let server = try await ClientTestServers.pythonAsync(in: dir)
        defer { server.stop() }
        let client = try HTTPClient(configuration: .init(timeoutSeconds: 0.3))
        defer { client.shutdown() }

        let error = await #expect(throws: ClientError.self) {
            try await client.send(.get(server.baseURL + "/slow?ms=3000"))
        }
        #expect(error?.kind == .timeout)
        // A per-request timeout overrides the client's.
        let slow = try await client.send(ClientRequest(url: server.baseURL + "/slow?ms=500", timeoutSeconds: 5))
        #expect(slow.bodyString == "slow")
    }

    @Test func resetConnectionIsAResetError() async throws {
        let dir = TemporaryDirectory()
        let server = try await ClientTestServers.pythonAsync(in: dir)
        defer { server.stop() }
        let client = try HTTPClient()
        defer { client.shutdown() }

        let error = await #expect(throws: ClientError.self) { try await client.send(.get(server.baseURL + "/reset")) }
        #expect(error?.kind == .reset)
    }

    @Test func unsupportedSchemeIsAnInvalidRequest() async throws {
        let client = try HTTPClient()
        defer { client.shutdown() }
        let error = await #expect(throws: ClientError.self) { try await client.send(.get("ftp://127.0.0.1/x")) }
        #expect(error?.kind == .invalidRequest)
    }

    @Test func headerWithALineBreakIsAnInvalidRequest() async throws {
        let client = try HTTPClient()
        defer { client.shutdown() }
        let request = ClientRequest.get("http://127.0.0.1:9/", headers: ["x-a": "1\r\nx-b: 2"])
        let error = await #expect(throws: ClientError.self) { try await client.send(request) }
        #expect(error?.kind == .invalidRequest)
    }

    @Test func cancellingTheTaskAbortsTheTransfer() async throws {
        let dir = TemporaryDirectory()
        let server = try await ClientTestServers.pythonAsync(in: dir)
        defer { server.stop() }
        let client = try HTTPClient()
        defer { client.shutdown() }

        let task = Task { try await client.send(.get(server.baseURL + "/slow?ms=60000")) }
        try await Task.sleep(for: .milliseconds(200))
        task.cancel()
        // Aborted, not answered: the answer would take a minute and end in a response, the client's own 30 s
        // timeout in a ClientError; only the abort ends in CancellationError. (No bound on the wall time: a
        // test process starved at the start of a full run once took 28 s to get here.)
        await #expect(throws: CancellationError.self) { try await task.value }

        // Already cancelled before sending.
        let early = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await client.send(.get(server.baseURL + "/"))
        }
        await #expect(throws: CancellationError.self) { try await early.value }

        // The client carries on.
        #expect(try await client.send(.get(server.baseURL + "/")).bodyString == "ok")
    }

    @Test func shutdownFailsInFlightAndLaterRequests() async throws {
        let dir = TemporaryDirectory()
        let server = try await ClientTestServers.pythonAsync(in: dir)
        defer { server.stop() }
        let client = try HTTPClient()

        let inFlight = Task { try await client.send(.get(server.baseURL + "/slow?ms=5000")) }
        try await Task.sleep(for: .milliseconds(200))
        client.shutdown()
        client.shutdown()
        let error = await #expect(throws: ClientError.self) { try await inFlight.value }
        #expect(error?.kind == .shutdown)
        let later = await #expect(throws: ClientError.self) { try await client.send(.get(server.baseURL + "/")) }
        #expect(later?.kind == .shutdown)
    }

    @Test func manyClientsComeAndGo() async throws {
        let dir = TemporaryDirectory()
        let server = try await ClientTestServers.pythonAsync(in: dir)
        defer { server.stop() }
        for i in 0..<100 {
            let client = try HTTPClient()
            if i % 10 == 0 {
                #expect(try await client.send(.get(server.baseURL + "/")).status == 200)
            }
            if i % 2 == 0 { client.shutdown() }  // the others shut down when released
        }
    }
}
