import Foundation
import JSON
import PushMocks
import TestSupport
import Testing

/// APNs speaks HTTP/2 only: its listeners offer only `h2` in ALPN, and an HTTP/1.1 request is dropped
/// without an answer and never captured as delivered. FCM and OAuth keep HTTP/1.1.
@Suite struct MockStackHTTP2OnlyTests {
    let mocks: MockStackHarness
    var clients: MockStackClients { mocks.clients }
    var port: Int { mocks.stack.impersonation!.listen[0].port }

    init() async throws {
        mocks = try await MockStackHarness.start { options in
            options.impersonation = ImpersonationOptions(
                listen: [ListenAddress(host: "127.0.0.1", port: 0)], proxy: ListenAddress(host: "127.0.0.1", port: 0))
        }
    }

    /// The protocol ALPN settles on when Python's ssl offers `protocols` to `baseURL` ("none" for none).
    func negotiated(_ baseURL: String, offering protocols: [String]) async throws -> String {
        let url = try #require(URL(string: baseURL))
        let script = """
            import socket, ssl, sys
            ctx = ssl.create_default_context(cafile=sys.argv[3])
            ctx.set_alpn_protocols(sys.argv[4].split(","))
            with socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=10) as raw:
                with ctx.wrap_socket(raw, server_hostname=sys.argv[1]) as tls:
                    print(tls.selected_alpn_protocol() or "none")
            """
        let r = try await clients.run(
            "python3",
            ["-c", script, url.host!, String(url.port!), mocks.settings.caFile, protocols.joined(separator: ",")],
            timeout: 20)
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines) + r.stderr
    }

    @Test func apnsListenersOfferOnlyH2() async throws {
        for base in [mocks.settings.apnsURL, mocks.settings.apnsSandboxURL] {
            #expect(try await negotiated(base, offering: ["http/1.1"]) == "none")
            #expect(try await negotiated(base, offering: ["http/1.1", "h2"]) == "h2")
        }
        // Google keeps HTTP/1.1 (SDKs such as google-auth's requests transport use it).
        #expect(try await negotiated(mocks.settings.fcmURL, offering: ["http/1.1"]) == "http/1.1")
    }

    /// A VoIP push with curl `--http1.1` to `url` (plus `options`).
    func http1Push(_ url: String, options: [String] = [], environment: [String: String] = [:]) async throws
        -> CurlResponse
    {
        let jwt = try #require(try await clients.providerTokens()["valid"])
        return try await clients.curl(
            url + "/3/device/\(MockStackClients.deviceToken)", method: "POST", headers: clients.voipHeaders(jwt: jwt),
            body: MockStackClients.voipBody, options: ["--http1.1"] + options, environment: environment)
    }

    func expectRefusedNotDelivered(_ r: CurlResponse, sourceLocation: SourceLocation = #_sourceLocation) {
        // No answer at all: the connection is dropped, as APNs does to a request that is not HTTP/2.
        #expect(r.status == 0 && r.exitCode != 0, "\(r.status) \(r.body) \(r.stderr)", sourceLocation: sourceLocation)
        let apns = mocks.log.captures(CaptureFilter(mock: .apns))
        #expect(!apns.contains { $0.outcome.isAccepted }, sourceLocation: sourceLocation)
        #expect(
            apns.last?.outcome == .rejected(reason: APNsMock.http1RefusedReason), sourceLocation: sourceLocation)
    }

    @Test func anHTTP1RequestToAPNsIsDroppedAndNotDelivered() async throws {
        expectRefusedNotDelivered(try await http1Push(mocks.settings.apnsURL))
        expectRefusedNotDelivered(try await http1Push(mocks.settings.apnsSandboxURL))
        // The same push over HTTP/2 is delivered.
        let jwt = try #require(try await clients.providerTokens()["valid"])
        #expect(try await clients.apnsPush(jwt: jwt).status == 200)
    }

    @Test func anHTTP1RequestToAnImpersonatedAPNsHostIsRefused() async throws {
        for host in [ImpersonatedHost.apnsProduction, .apnsSandbox, .apnsDevelopment] {
            let r = try await http1Push(
                "https://\(host.name):\(port)", options: ["--resolve", "\(host.name):\(port):127.0.0.1"])
            expectRefusedNotDelivered(r)
        }
        let proxy = mocks.stack.impersonation!.proxyURL!
        let tunnelled = try await http1Push(
            "https://api.push.apple.com", environment: ["HTTPS_PROXY": proxy, "https_proxy": proxy, "NO_PROXY": ""])
        expectRefusedNotDelivered(tunnelled)
    }

    @Test func googleHostsStillAnswerHTTP1OnTheSharedListener() async throws {
        let r = try await clients.curl(
            "https://oauth2.googleapis.com:\(port)/token", method: "POST",
            headers: [("content-type", "application/x-www-form-urlencoded")], body: "grant_type=x",
            options: ["--http1.1", "--resolve", "oauth2.googleapis.com:\(port):127.0.0.1"])
        #expect(r.status == 400 && r.httpVersion == "1.1", "\(r.status) \(r.httpVersion) \(r.stderr)")
        #expect(r.json?["error"] == "unsupported_grant_type")
    }
}
