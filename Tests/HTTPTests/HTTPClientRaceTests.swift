import HTTP
import TestSupport
import Testing

@Suite(.serialized) struct HTTPClientRaceTests {
    @Test func eightRequestsOverHTTP2LeaveTogetherOnOneConnection() async throws {
        try await ClientTestServers.withTLSNghttpd { server, client in
            let requests = (0..<8).map { ClientRequest.post(server.baseURL + "/answer", body: "device \($0)") }
            let race = try await client.race(requests)
            #expect(race.entries.count == 8)
            for (i, entry) in race.entries.enumerated() {
                let response = try entry.result.get()
                #expect(response.version == .http2)
                #expect(response.bodyString == "device \(i)")
                #expect(response.connectionReused)  // the warm-up opened it
                #expect(entry.sentAtNs == response.sentAtMonotonicNs)
            }
            #expect(race.connectionCount == 1)
            #expect(race.spreadMs < 50, "spread \(race.spreadMs) ms")
        }
    }

    @Test func eightRequestsOverHTTP1LeaveTogetherOnEightConnections() async throws {
        let dir = TemporaryDirectory()
        let server = try await ClientTestServers.pythonAsync(in: dir)
        defer { server.stop() }
        let client = try HTTPClient()
        defer { client.shutdown() }

        let requests = (0..<8).map { ClientRequest.post(server.baseURL + "/echo", body: "device \($0)") }
        let race = try await client.race(requests)
        let responses = try race.entries.map { try $0.result.get() }
        #expect(responses.map(\.bodyString) == (0..<8).map { "device \($0)" })
        #expect(responses.allSatisfy { $0.version == .http1_1 && $0.connectionReused })
        #expect(race.connectionCount == 8)
        #expect(race.spreadMs < 50, "spread \(race.spreadMs) ms")
    }

    @Test func automaticOverTLSWithAnHTTP1ServerRacesOnSeparateConnections() async throws {
        let dir = TemporaryDirectory()
        let certs = try await ServerTestCertificates.get()
        let server = try await ClientTestServers.pythonAsync(in: dir, certificates: certs)
        defer { server.stop() }
        let client = try HTTPClient(configuration: .init(caFile: certs.caFile))
        defer { client.shutdown() }

        let race = try await client.race((0..<4).map { ClientRequest.post(server.baseURL + "/echo", body: "\($0)") })
        let responses = try race.entries.map { try $0.result.get() }
        #expect(responses.map(\.bodyString) == ["0", "1", "2", "3"])
        #expect(responses.allSatisfy { $0.version == .http1_1 && $0.connectionReused })
        #expect(race.connectionCount == 4)
        #expect(race.spreadMs < 50, "spread \(race.spreadMs) ms")
    }

    @Test func aFailingRequestIsItsEntrysError() async throws {
        let dir = TemporaryDirectory()
        let server = try await ClientTestServers.pythonAsync(in: dir)
        defer { server.stop() }
        let client = try HTTPClient()
        defer { client.shutdown() }

        let closed = "http://127.0.0.1:\(ClientTestPeer.closedPort())/answer"
        let race = try await client.race([.get(server.baseURL + "/status/409"), .get(closed)])
        #expect(try race.entries[0].result.get().status == 409)
        guard case .failure(let error) = race.entries[1].result else {
            Issue.record("expected a failure")
            return
        }
        #expect(error.kind == .connect)
        #expect(race.entries[1].sentAtNs == nil)
        #expect(race.spreadMs == 0)
    }

    @Test func raceWithoutWarmUpStillCompletes() async throws {
        try await ClientTestServers.withTLSNghttpd { server, client in
            let race = try await client.race((0..<4).map { _ in .get(server.baseURL + "/index.html") }, warmUp: .none)
            for entry in race.entries {
                switch entry.result {
                case .success(let response): #expect(response.status == 200)
                case .failure(let error): Issue.record("\(error)")
                }
            }
            #expect(race.connectionCount == 1)
        }
    }
}
