import HTTP
import TestSupport
import Testing

@Suite struct HTTPClientHTTP1Tests {
    @Test func statusAndHeadersArriveInOrderLowercased() async throws {
        let dir = TemporaryDirectory()
        let server = try await ClientTestServers.pythonAsync(in: dir)
        defer { server.stop() }
        let client = try HTTPClient()
        defer { client.shutdown() }

        let response = try await client.send(.get(server.baseURL + "/status/418"))
        #expect(response.status == 418)
        #expect(response.version == .http1_1)
        #expect(response.bodyString == "status 418")
        #expect(response.headers["X-Test"] == "yes")
        #expect(response.headers.values("set-cookie") == ["a=1", "b=2"])
        let names = response.headers.map(\.name)
        #expect(names.firstIndex(of: "x-test")! < names.firstIndex(of: "set-cookie")!)
        #expect(names.allSatisfy { $0 == $0.lowercased() })
        #expect(response.timings.tlsHandshake == 0)
    }

    @Test func postBodyIsSentAsIsWithoutAFormContentType() async throws {
        let dir = TemporaryDirectory()
        let server = try await ClientTestServers.pythonAsync(in: dir)
        defer { server.stop() }
        let client = try HTTPClient()
        defer { client.shutdown() }

        let bytes: [UInt8] = Array(0...255) + Array(repeating: 7, count: 5000)
        let response = try await client.send(.post(server.baseURL + "/echo", body: bytes))
        #expect(response.body == bytes)
        #expect(response.headers["x-method"] == "POST")
        #expect(response.headers["x-content-type"] == "")

        let put = try await client.send(
            ClientRequest(
                method: "PUT", url: server.baseURL + "/echo", headers: ["content-type": "text/plain"], body: [65]))
        #expect(put.headers["x-method"] == "PUT")
        #expect(put.headers["x-content-type"] == "text/plain")
        #expect(put.bodyString == "A")

        let emptyPost = try await client.send(.post(server.baseURL + "/echo", body: []))
        #expect(emptyPost.status == 200)
        #expect(emptyPost.body.isEmpty)

        let delete = try await client.send(ClientRequest(method: "DELETE", url: server.baseURL + "/echo"))
        #expect(delete.headers["x-method"] == "DELETE")
    }

    @Test func maxConnectionsPerHostQueuesRequestsOnOneConnection() async throws {
        let dir = TemporaryDirectory()
        let server = try await ClientTestServers.pythonAsync(in: dir)
        defer { server.stop() }
        let client = try HTTPClient(configuration: .init(maxConnectionsPerHost: 1))
        defer { client.shutdown() }

        let responses = try await withThrowingTaskGroup(of: ClientResponse.self) { group in
            for _ in 0..<3 { group.addTask { try await client.send(.get(server.baseURL + "/slow?ms=50")) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(Set(responses.map(\.localPort)).count == 1)
        #expect(responses.filter(\.connectionReused).count == 2)
    }

    @Test func headHasNoBody() async throws {
        let dir = TemporaryDirectory()
        let server = try await ClientTestServers.pythonAsync(in: dir)
        defer { server.stop() }
        let client = try HTTPClient()
        defer { client.shutdown() }

        let response = try await client.send(ClientRequest(method: "HEAD", url: server.baseURL + "/status/204"))
        #expect(response.status == 204)
        #expect(response.body.isEmpty)
    }

    @Test func chunkedBodyAndFoldedHeaders() async throws {
        let dir = TemporaryDirectory()
        let server = try await ClientTestServers.pythonAsync(in: dir)
        defer { server.stop() }
        let client = try HTTPClient()
        defer { client.shutdown() }

        let chunked = try await client.send(.get(server.baseURL + "/chunked"))
        #expect(chunked.bodyString == "alpha-beta-gamma")
        #expect(chunked.headers["transfer-encoding"] == "chunked")
        let folded = try await client.send(.get(server.baseURL + "/folded"))
        #expect(folded.headers["x-folded"] == "one two")
        #expect(folded.bodyString == "ok")
    }

    @Test func userAgentAndRequestedHTTP1OverTLS() async throws {
        let dir = TemporaryDirectory()
        let certs = try await ServerTestCertificates.get()
        let server = try await ClientTestServers.nghttpdAsync(certificates: certs, in: dir)
        defer { server.stop() }
        let client = try HTTPClient(configuration: .init(caFile: certs.caFile, httpVersion: .http1_1))
        defer { client.shutdown() }
        #expect(client.configuration.userAgent.hasPrefix("ringcheck/"))

        // nghttpd speaks only HTTP/2: insisting on HTTP/1.1 over TLS must not silently get h2.
        let result = await #expect(throws: ClientError.self) { try await client.send(.get(server.baseURL + "/")) }
        #expect(result != nil)
        let h2 = try await client.send(ClientRequest(url: server.baseURL + "/index.html", httpVersion: .automatic))
        #expect(h2.version == .http2)
    }
}
