import HTTP
import TestSupport
import Testing

@Suite struct HTTPClientHTTP2Tests {
    @Test func getOverTLSTrustingTheCAFileSpeaksHTTP2() async throws {
        try await ClientTestServers.withTLSNghttpd { server, client in
            let response = try await client.send(.get(server.baseURL + "/index.html"))
            #expect(response.status == 200)
            #expect(response.version == .http2)
            #expect(response.bodyString == "hello h2")
            #expect(response.headers["content-length"] == "8")
            #expect(response.headers.allSatisfy { !$0.name.hasPrefix(":") && $0.name == $0.name.lowercased() })
            #expect(response.remotePort == server.port)
            #expect(response.localPort > 0)
            #expect(!response.connectionReused)
            #expect(response.timings.tlsHandshake > 0)
            #expect(response.timings.total >= response.timings.startTransfer)
            #expect(response.sentAtMs <= response.receivedAtMs)

            let again = try await client.send(.get(server.baseURL + "/index.html"))
            #expect(again.connectionReused)
            #expect(again.localPort == response.localPort)
            #expect(again.timings.tlsHandshake == 0)
        }
    }

    @Test func postOverTLSSendsTheBody() async throws {
        try await ClientTestServers.withTLSNghttpd { server, client in
            let body = #"{"callId":"c-1","answer":true}"#
            let response = try await client.send(
                .post(server.baseURL + "/calls", headers: ["content-type": "application/json"], body: body))
            #expect(response.status == 200)
            #expect(response.version == .http2)
            #expect(response.bodyString == body)
        }
    }

    @Test func untrustedCertificateIsATLSError() async throws {
        let dir = TemporaryDirectory()
        let certs = try await ServerTestCertificates.get()
        let server = try await ClientTestServers.nghttpdAsync(certificates: certs, in: dir)
        defer { server.stop() }
        let client = try HTTPClient()  // system store: does not know the test CA
        defer { client.shutdown() }

        let error = await #expect(throws: ClientError.self) { try await client.send(.get(server.baseURL + "/")) }
        #expect(error?.kind == .tls)
        #expect(error?.curlCode == 60)
        #expect(error?.url == server.baseURL + "/")
        #expect(error?.message.isEmpty == false)
    }

    @Test func insecureSkipVerifyAcceptsAnyCertificate() async throws {
        let dir = TemporaryDirectory()
        let certs = try await ServerTestCertificates.get()
        let server = try await ClientTestServers.nghttpdAsync(certificates: certs, in: dir)
        defer { server.stop() }
        let client = try HTTPClient(configuration: .init(insecureSkipVerify: true))
        defer { client.shutdown() }

        let response = try await client.send(.get(server.baseURL + "/index.html"))
        #expect(response.status == 200)
        #expect(response.version == .http2)
    }

    @Test func h2cWithPriorKnowledge() async throws {
        let dir = TemporaryDirectory()
        let server = try await ClientTestServers.nghttpdAsync(certificates: nil, in: dir)
        defer { server.stop() }
        let client = try HTTPClient(configuration: .init(httpVersion: .http2))
        defer { client.shutdown() }

        let response = try await client.send(.post(server.baseURL + "/x", body: "h2c body"))
        #expect(response.version == .http2)
        #expect(response.bodyString == "h2c body")
        #expect(response.timings.tlsHandshake == 0)
        // A second request works too (on libcurl < 8 over a fresh connection: see curl/curl#10634).
        let again = try await client.send(.get(server.baseURL + "/index.html"))
        #expect(again.version == .http2)
        #expect(again.bodyString == "hello h2")
    }

    @Test func twentyConcurrentRequestsShareOneConnection() async throws {
        try await ClientTestServers.withTLSNghttpd { server, client in
            let responses = try await withThrowingTaskGroup(of: ClientResponse.self) { group in
                for i in 0..<20 {
                    group.addTask { try await client.send(.post(server.baseURL + "/n", body: "request \(i)")) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(responses.count == 20)
            #expect(responses.allSatisfy { $0.version == .http2 && $0.status == 200 })
            #expect(Set(responses.map(\.localPort)).count == 1)
            #expect(responses.filter { !$0.connectionReused }.count <= 1)
            #expect(Set(responses.map(\.bodyString)) == Set((0..<20).map { "request \($0)" }))
        }
    }
}
