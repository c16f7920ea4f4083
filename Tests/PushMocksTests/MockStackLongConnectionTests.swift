import Foundation
import HTTP
import PushMocks
import TestSupport
import Testing

/// 20,000 pushes on one HTTP/2 connection to mock APNs, each to its own device token, from libcurl (one
/// at a time, and multiplexed) and from h2load: every one answered 200 and captured exactly once. Before
/// the session kept its own rapid-reset budget, nghttp2's ended curl's connections about every 1,000
/// requests with a GOAWAY that disowned requests already captured, so the client sent them again.
@Suite(.serialized, .heavyTraffic) struct MockStackLongConnectionTests {
    static let pushes = 20_000

    let mocks: MockStackHarness
    let jwt: String

    init() async throws {
        mocks = try await MockStackHarness.start()
        jwt = try #require(try await mocks.clients.providerTokens()["valid"])
    }

    /// The device token of push `i`: 64 hex digits, as APNs issues them.
    static func token(_ i: Int) -> String {
        let hex = String(i, radix: 16)
        return String(repeating: "0", count: 64 - hex.count) + hex
    }

    /// A libcurl client that keeps to one connection.
    func client() throws -> HTTPClient {
        try HTTPClient(
            configuration: .init(caFile: mocks.settings.caFile, httpVersion: .http2, maxConnectionsPerHost: 1))
    }

    func push(_ i: Int) -> ClientRequest {
        var headers = HTTPHeaders()
        for (name, value) in mocks.clients.voipHeaders(jwt: jwt) { headers.add(name, value) }
        return .post(
            mocks.settings.apnsURL + "/3/device/\(Self.token(i))", headers: headers, body: MockStackClients.voipBody)
    }

    /// Expects every push in `range` captured as accepted exactly once since `sequence`, and nothing else.
    func expectCapturedOnce(_ range: Range<Int>, since sequence: Int) {
        var filter = CaptureFilter()
        filter.afterSequence = sequence
        let captures = mocks.log.captures(filter)
        #expect(captures.count == range.count, "\(captures.count) captures for \(range.count) pushes")
        #expect(captures.allSatisfy { $0.outcome == .accepted })
        #expect(Set(captures.compactMap(\.deviceToken)) == Set(range.map(Self.token)))
    }

    @Test func libcurlOneAtATime() async throws {
        let client = try client()
        defer { client.shutdown() }
        let since = mocks.log.lastSequence
        var failures: [String] = []
        var ports = Set<Int>()
        for i in 0..<Self.pushes {
            do {
                let r = try await client.send(push(i))
                ports.insert(r.localPort)
                if r.status != 200 { failures.append("push \(i): \(r.status) \(r.bodyString)") }
            } catch {
                failures.append("push \(i): \(error)")
            }
            if failures.count > 5 { break }
        }
        #expect(failures.isEmpty, "\(failures)")
        #expect(ports.count == 1, "connections: \(ports.count)")
        expectCapturedOnce(0..<Self.pushes, since: since)
    }

    @Test func libcurlMultiplexed() async throws {
        let client = try client()
        defer { client.shutdown() }
        let since = mocks.log.lastSequence
        // The first push alone: APNs allows one stream until a valid provider token arrives.
        let first = try await client.send(push(0))
        #expect(first.status == 200)
        let inFlight = 64
        let results = await withTaskGroup(of: (Int, Result<ClientResponse, any Error>).self) { group in
            var next = 1
            var results: [(Int, Result<ClientResponse, any Error>)] = []
            func add() {
                let i = next
                next += 1
                let request = push(i)
                group.addTask {
                    do { return (i, .success(try await client.send(request))) } catch { return (i, .failure(error)) }
                }
            }
            while next <= inFlight { add() }
            while let result = await group.next() {
                results.append(result)
                if next < Self.pushes { add() }
            }
            return results
        }
        #expect(results.count == Self.pushes - 1)
        var failures: [String] = []
        var ports: Set<Int> = [first.localPort]
        for (i, result) in results {
            switch result {
            case .success(let r):
                ports.insert(r.localPort)
                if r.status != 200 { failures.append("push \(i): \(r.status) \(r.bodyString)") }
            case .failure(let error): failures.append("push \(i): \(error)")
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
        #expect(ports.count == 1, "connections: \(ports.count)")
        expectCapturedOnce(0..<Self.pushes, since: since)
    }

    /// h2load opens its streams before it reads the server's SETTINGS, so against APNs's one-stream start
    /// (REFUSED_STREAM, which h2load does not retry) it sends one push at a time.
    @Test func h2loadOnOneConnection() async throws {
        let dir = TemporaryDirectory()
        let payload = try dir.write("payload.json", MockStackClients.voipBody)
        let uris = try dir.write(
            "uris", (0..<Self.pushes).map { mocks.settings.apnsURL + "/3/device/\(Self.token($0))\n" }.joined())
        let since = mocks.log.lastSequence
        var args = ["-n", "\(Self.pushes)", "-c", "1", "-m", "1", "-d", payload, "-i", uris]
        for (name, value) in mocks.clients.voipHeaders(jwt: jwt) { args += ["-H", "\(name): \(value)"] }
        let r = try await runProcess("h2load", args, timeout: 300)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            r.stdout.contains(
                "requests: \(Self.pushes) total, \(Self.pushes) started, \(Self.pushes) done, "
                    + "\(Self.pushes) succeeded, 0 failed, 0 errored, 0 timeout"), "\(r.stdout)")
        #expect(r.stdout.contains("status codes: \(Self.pushes) 2xx"), "\(r.stdout)")
        expectCapturedOnce(0..<Self.pushes, since: since)
    }
}
