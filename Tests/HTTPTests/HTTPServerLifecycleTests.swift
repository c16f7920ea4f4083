import Foundation
import HTTP
import Synchronization
import TestSupport
import Testing

/// Collects the requests a handler saw.
final class RequestLog: Sendable {
    private let requests = Mutex<[HTTPRequest]>([])
    func add(_ r: HTTPRequest) { requests.withLock { $0.append(r) } }
    var all: [HTTPRequest] { requests.withLock { $0 } }
}

@Suite struct HTTPServerLifecycleTests {
    @Test func stopIsIdempotentAndFreesThePort() async throws {
        #expect(HTTPServer(configuration: .init()) { _ in .text(200, "ok") }.port == 0)
        // The machine is shared: some other process may bind the port between stop() and the second
        // bind. Only a port that is never free again in three tries, on three ports, is a failure.
        var rebound: [String] = []
        for _ in 0..<3 {
            let server = try #require(Self.startedBelowTheEphemeralRange())
            let port = server.port
            #expect(port > 0)
            #expect(throws: HTTPServerError.self) { try server.start() }
            await offPool {
                server.stop()
                server.stop()
            }
            // The port can be bound again right away.
            let again = HTTPServer(configuration: .init(port: port)) { _ in .text(200, "ok") }
            do {
                try again.start()
                #expect(again.port == port)
                await offPool { again.stop() }
                return
            } catch {
                rebound.append("\(error)")
            }
        }
        Issue.record("the port was not free after stop(): \(rebound)")
    }

    /// A server on a port below the ephemeral range (32768 up): one the kernel picks could be handed to
    /// another test's outgoing connection between stop() and the second bind.
    private static func startedBelowTheEphemeralRange() -> HTTPServer? {
        for _ in 0..<20 {
            let server = HTTPServer(configuration: .init(port: Int.random(in: 20_000..<32_000))) { _ in
                .text(200, "ok")
            }
            if (try? server.start()) != nil { return server }
        }
        return nil
    }

    @Test func hostNames() async throws {
        let local = HTTPServer(configuration: .init(host: "localhost")) { _ in .text(200, "ok") }
        try local.start()
        #expect(local.port > 0)
        await offPool { local.stop() }
        let v6 = HTTPServer(configuration: .init(host: "::1")) { _ in .text(200, "v6") }
        if (try? v6.start()) != nil {  // IPv6 may be off in a container
            let r = try await runProcess("curl", curlBase + ["http://[::1]:\(v6.port)/"])
            #expect(r.stdout == "v6", "\(r.stderr)")
            await offPool { v6.stop() }
        }
        let bad = HTTPServer(configuration: .init(host: "no.such.host")) { _ in .text(200, "ok") }
        #expect(throws: HTTPServerError.self) { try bad.start() }
    }

    @Test func badTLSMaterialIsReportedAtStart() {
        let server = HTTPServer(
            configuration: .init(tls: .pem(certificateChain: "not a certificate", privateKey: "nope"))
        ) { _ in .text(200, "ok") }
        #expect(throws: HTTPServerError.self) { try server.start() }
        let missing = HTTPServer(
            configuration: .init(tls: .files(certificateChain: "/nonexistent.pem", privateKey: "/x"))
        ) { _ in .text(200, "ok") }
        #expect(throws: HTTPServerError.self) { try missing.start() }
    }

    @Test func tlsFromPEMStrings() async throws {
        let certs = try await ServerTestCertificates.get()
        let chain =
            try String(contentsOfFile: certs.certFile, encoding: .utf8)
            + String(contentsOfFile: certs.caFile, encoding: .utf8)  // leaf + an extra chain certificate
        let key = try String(contentsOfFile: certs.keyFile, encoding: .utf8)
        let server = HTTPServer(configuration: .init(tls: .pem(certificateChain: chain, privateKey: key))) { _ in
            .text(200, "pem")
        }
        try server.start()
        let r = try await runProcess(
            "curl", curlBase + ["--cacert", certs.caFile, "https://localhost:\(server.port)/"])
        #expect(r.stdout == "pem", "\(r.stderr)")
        await offPool { server.stop() }
    }

    @Test func stopLetsInFlightRequestsFinish() async throws {
        var config = HTTPServer.Configuration()
        // Generous: stop() returns as soon as the in-flight requests are done.
        config.shutdownGraceSeconds = 30
        let log = RequestLog()
        let release = Atomic<Bool>(false)
        // The handlers answer only once the stop has begun (not after a fixed time, which a loaded
        // machine can let pass before the test gets to call stop()).
        let server = HTTPServer(configuration: config) { req in
            log.add(req)
            while !release.load(ordering: .acquiring) { try? await Task.sleep(nanoseconds: 5_000_000) }
            return await ServerTestHandler().handle(req)
        }
        try server.start()
        let port = server.port
        // Deadlines with a wide margin, not speed bounds: on a loaded machine starting two clients and
        // getting both requests into the handler can take far longer than curlBase's 10 s; a hang still ends.
        async let h1 = runProcess(
            "curl", ["-sS", "--max-time", "150", "http://127.0.0.1:\(port)/slow?ms=100"], timeout: 180)
        async let h2 = runProcess(
            "nghttp", ["-v", "--timeout=150", "http://127.0.0.1:\(port)/slow?ms=100"], timeout: 180)
        // Stop once both requests are in the handler.
        let deadline = Date().addingTimeInterval(150)
        while log.all.count < 2 && Date() < deadline { try await Task.sleep(nanoseconds: 10_000_000) }
        #expect(log.all.count == 2)
        async let stopped: Void = offPool { server.stop() }
        // stop() has begun once the port reads 0; the answers then queue behind its GOAWAY.
        while server.port != 0 && Date() < deadline { try await Task.sleep(nanoseconds: 1_000_000) }
        release.store(true, ordering: .releasing)
        await stopped
        let (a, b) = try await (h1, h2)
        #expect(a.stdout == "slow\n", "\(a.stderr)")
        #expect(b.stdout.contains(":status: 200"))
        #expect(b.stdout.contains("recv GOAWAY frame"))
        // Nothing listens any more.
        let after = try await runProcess("curl", curlBase + ["http://127.0.0.1:\(port)/"])
        #expect(after.status == 7)
    }

    @Test func requestCarriesConnectionFacts() async throws {
        let log = RequestLog()
        let handler = ClosureHandler { req in
            log.add(req)
            return .text(200, "ok")
        }
        try await withTestServer(tls: true, handler: handler) { server in
            let ca = try await ServerTestCertificates.get().caFile
            let before = Int64(Date().timeIntervalSince1970 * 1000)
            _ = try await runProcess(
                "curl",
                curlBase + [
                    "--http2", "--cacert", ca, "-H", "x-a: 1", "-H", "x-a: 2", "https://localhost:\(server.port)/p?q=1",
                ])
            _ = try await runProcess(
                "curl", curlBase + ["--http1.1", "--cacert", ca, "-d", "b", "https://localhost:\(server.port)/h1"])
            let after = Int64(Date().timeIntervalSince1970 * 1000)
            let reqs = log.all
            #expect(reqs.count == 2)
            let h2 = try #require(reqs.first { $0.version == .http2 })
            #expect(h2.method == "GET")
            #expect(h2.target == "/p?q=1")
            #expect(h2.authority == "localhost:\(server.port)")
            #expect(h2.headers.values("x-a") == ["1", "2"])
            #expect(!h2.headers.fields.contains { $0.name.hasPrefix(":") })
            #expect(h2.streamID == 1)
            #expect(h2.connection.isTLS)
            #expect(h2.connection.alpn == "h2")
            #expect(h2.connection.serverName == "localhost")
            #expect(h2.connection.localPort == server.port)
            #expect(h2.connection.remoteAddress.hasPrefix("127.0.0.1:"))
            #expect(h2.arrivalMs >= before && h2.arrivalMs <= after)
            let h1 = try #require(reqs.first { $0.version == .http1_1 })
            #expect(h1.body == Array("b".utf8))
            #expect(h1.streamID == nil)
            #expect(h1.connection.alpn == "http/1.1")
            #expect(h1.connection.id != h2.connection.id)
        }
    }

    /// Handlers run on the server's own threads, before and after they suspend, so a busy or blocked
    /// global cooperative pool cannot stall them.
    @Test func handlersRunOnTheServersOwnThreads() async throws {
        let handler = ClosureHandler { _ in
            let before = currentThreadName()
            try? await Task.sleep(for: .milliseconds(5))
            return .text(200, before + "," + currentThreadName())
        }
        try await withTestServer(handler: handler) { server in
            let r = try await runProcess("curl", curlBase + ["http://127.0.0.1:\(server.port)/"])
            #expect(r.stdout == "rc-handlers,rc-handlers", "\(r.stderr)")
        }
    }

    @Test func severalLoopsShareThePort() async throws {
        try await withTestServer(configure: { $0.loopCount = 2 }) { server in
            let r = try await runProcess(
                "h2load", ["-n", "400", "-c", "8", "-m", "10", "http://127.0.0.1:\(server.port)/echo"])
            #expect(r.stdout.contains("400 succeeded"), "\(r.stdout)")
        }
    }
}

@Suite struct HTTPServerSignalTests {
    /// A signal sent right after `install()` returns is kept for a later `wait()`: none is lost in between.
    @Test func terminationSignalIsCaughtFromInstallAndReported() async throws {
        try TerminationSignals.install()
        #expect(!Self.sigtermIsDefault())
        kill(getpid(), SIGTERM)
        try await Task.sleep(nanoseconds: 20_000_000)  // delivered before anyone waits
        #expect(await TerminationSignals.wait() == SIGTERM)
        signal(SIGTERM, SIG_DFL)  // the test process must stay killable by a supervisor
    }

    private static func sigtermIsDefault() -> Bool {
        var current = sigaction()
        sigaction(SIGTERM, nil, &current)
        return unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) == 0  // SIG_DFL
    }
}

/// The calling thread's name, as Linux reports it.
private func currentThreadName() -> String {
    let name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "?"
    return name.trimmingCharacters(in: .whitespacesAndNewlines)
}
