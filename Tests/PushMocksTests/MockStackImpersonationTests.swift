import JSON
import PushMocks
import Signing
import TestSupport
import Testing

/// The real push host names served by the mocks, reached as a backend that hard-codes them would:
/// curl with `--resolve` (what an `/etc/hosts` entry does), and clients that only honour `HTTPS_PROXY`
/// (curl, Python's urllib) through the CONNECT proxy.
@Suite struct MockStackImpersonationTests {
    let mocks: MockStackHarness
    var clients: MockStackClients { mocks.clients }
    var endpoints: ImpersonationEndpoints { mocks.stack.impersonation! }
    /// The TLS listener's port (ephemeral: tests never take 443).
    var port: Int { endpoints.listen[0].port }
    /// `HTTPS_PROXY` for the proxy, and nothing else that could send a client elsewhere.
    var proxyEnvironment: [String: String] {
        ["HTTPS_PROXY": endpoints.proxyURL!, "https_proxy": endpoints.proxyURL!, "NO_PROXY": "", "no_proxy": ""]
    }

    init() async throws {
        mocks = try await MockStackHarness.start { options in
            options.impersonation = ImpersonationOptions(
                listen: [ListenAddress(host: "127.0.0.1", port: 0)], proxy: ListenAddress(host: "127.0.0.1", port: 0))
        }
    }

    /// `--resolve NAME:PORT:127.0.0.1` for the listener.
    func resolve(_ host: ImpersonatedHost) -> [String] { ["--resolve", "\(host.name):\(port):127.0.0.1"] }

    @Test func settingsNameTheListenerAndTheProxy() {
        #expect(mocks.settings.impersonateAddresses == ["127.0.0.1:\(port)"])
        #expect(mocks.settings.httpsProxy == "http://127.0.0.1:\(endpoints.proxy!.port)")
        let env = Dictionary(mocks.settings.environment.map { ($0.name, $0.value) }) { $1 }
        #expect(env["RINGCHECK_IMPERSONATE_ADDRESSES"] == "127.0.0.1:\(port)")
        #expect(env["RINGCHECK_HTTPS_PROXY"] == mocks.settings.httpsProxy)
        #expect((try? MockSettings(environment: env)) == mocks.settings)
        #expect(endpoints.hostsLine == "127.0.0.1 \(ImpersonatedHost.allNames)")
    }

    @Test func curlResolveReachesBothAPNsEnvironmentsInTheSameLog() async throws {
        let jwt = try #require(try await clients.providerTokens()["valid"])
        let token = MockStackClients.deviceToken
        let direct = try await clients.apnsPush(jwt: jwt)
        #expect(direct.status == 200, "\(direct)")
        let production = try await clients.curl(
            "https://api.push.apple.com:\(port)/3/device/\(token)", method: "POST",
            headers: clients.voipHeaders(jwt: jwt), body: MockStackClients.voipBody,
            options: resolve(.apnsProduction))
        #expect(production.status == 200 && production.httpVersion == "2", "\(production)")
        #expect(production.headers["apns-id"] != nil)
        let sandbox = try await clients.curl(
            "https://api.sandbox.push.apple.com:\(port)/3/device/\(token)", method: "POST",
            headers: clients.voipHeaders(jwt: jwt), body: MockStackClients.voipBody, options: resolve(.apnsSandbox))
        #expect(sandbox.status == 200 && sandbox.headers["apns-unique-id"] != nil, "\(sandbox)")

        let captures = mocks.log.captures(CaptureFilter(mock: .apns))
        #expect(captures.map(\.sequence) == [1, 2, 3])
        #expect(captures.map(\.addressedHost) == [nil, .apnsProduction, .apnsSandbox])
        #expect(captures.map(\.environment) == [.production, .production, .sandbox])
        #expect(captures.allSatisfy { $0.outcome == .accepted && $0.deviceToken == token })
        #expect(captures[1].authority == "api.push.apple.com:\(port)")

        // The control API shows the field; the mock's own URL leaves it null.
        let listed = try await clients.captures("mock=apns")
        #expect(listed.map { $0["addressedHost"] } == [.null, "api.push.apple.com", "api.sandbox.push.apple.com"])
    }

    @Test func theOlderDevelopmentNameIsTheSandbox() async throws {
        // Several Python clients hard-code api.development.push.apple.com; curl checks the certificate names it.
        let jwt = try #require(try await clients.providerTokens()["valid"])
        let host = ImpersonatedHost.apnsDevelopment
        let direct = try await clients.curl(
            "https://\(host.name):\(port)/3/device/\(MockStackClients.deviceToken)", method: "POST",
            headers: clients.voipHeaders(jwt: jwt), body: MockStackClients.voipBody, options: resolve(host))
        #expect(direct.status == 200 && direct.httpVersion == "2", "\(direct)")
        #expect(direct.headers["apns-unique-id"] != nil)  // only the sandbox sends it
        let proxied = try await clients.curl(
            "https://\(host.name)/3/device/\(MockStackClients.deviceToken)", method: "POST",
            headers: clients.voipHeaders(jwt: jwt), body: MockStackClients.voipBody, environment: proxyEnvironment)
        #expect(proxied.status == 200, "\(proxied)")
        let captures = mocks.log.captures(CaptureFilter(mock: .apns))
        #expect(captures.map(\.addressedHost) == [.apnsDevelopment, .apnsDevelopment])
        #expect(captures.allSatisfy { $0.environment == .sandbox && $0.outcome == .accepted })
        #expect(ImpersonatedHost.apnsDevelopment.ports == [443, 2197])
        #expect(ImpersonationRouter.connectDecision(host: host.name, port: 2197)?.status == nil)
    }

    @Test func theImpersonatedAPNsStillRejectsWhatAPNsRejects() async throws {
        let tokens = try await clients.providerTokens()
        let valid = try #require(tokens["valid"])
        let url = "https://api.push.apple.com:\(port)/3/device/\(MockStackClients.deviceToken)"
        var headers = clients.voipHeaders(jwt: valid).filter { $0.0 != "apns-topic" }
        headers.append(("apns-topic", "com.example.other.voip"))
        let wrongTopic = try await clients.curl(
            url, method: "POST", headers: headers, body: MockStackClients.voipBody, options: resolve(.apnsProduction))
        #expect(wrongTopic.status == 400 && wrongTopic.apnsReason == "TopicDisallowed", "\(wrongTopic)")
        let forged = try await clients.curl(
            url, method: "POST", headers: clients.voipHeaders(jwt: try #require(tokens["foreignKey"])),
            body: MockStackClients.voipBody, options: resolve(.apnsProduction))
        #expect(forged.status == 403 && forged.apnsReason == "InvalidProviderToken", "\(forged)")
        let rejected = mocks.log.captures(CaptureFilter(mock: .apns))
        #expect(rejected.map(\.outcome.reason) == ["TopicDisallowed", "InvalidProviderToken"])
        #expect(rejected.allSatisfy { $0.addressedHost == .apnsProduction })
    }

    @Test func curlResolveExchangesTheTokenAndSendsToFCM() async throws {
        let account = mocks.stack.keys.serviceAccount
        let assertion = try account.assertion(
            scope: "https://www.googleapis.com/auth/firebase.messaging",
            issuedAt: Double(MockStackHarness.nowMs()) / 1000)
        let form = "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=\(assertion)"
        let exchange = try await clients.curl(
            "https://oauth2.googleapis.com:\(port)/token", method: "POST",
            headers: [("content-type", "application/x-www-form-urlencoded")], body: form, options: resolve(.oauth))
        #expect(exchange.status == 200, "\(exchange)")
        let accessToken = try #require(exchange.json?["access_token"]?.stringValue)

        let message = MockFixture.callxMessage(token: MockFixture.fcmToken).serialized()
        let path = "/v1/projects/\(mocks.settings.fcmProjectID)/messages:send"
        let send = try await clients.curl(
            "https://fcm.googleapis.com:\(port)\(path)", method: "POST",
            headers: [("authorization", "Bearer \(accessToken)"), ("content-type", "application/json")], body: message,
            options: resolve(.fcm))
        #expect(send.status == 200 && send.httpVersion == "2", "\(send)")
        // Routed by host, not by path: the token path on fcm.googleapis.com is FCM's 404, as for real.
        let misrouted = try await clients.curl(
            "https://fcm.googleapis.com:\(port)/token", method: "POST",
            headers: [("content-type", "application/x-www-form-urlencoded")], body: form, options: resolve(.fcm))
        #expect(misrouted.status == 404, "\(misrouted)")

        let oauth = mocks.log.captures(CaptureFilter(mock: .oauth))
        #expect(oauth.count == 1 && oauth.first?.addressedHost == .oauth && oauth.first?.outcome == .accepted)
        let fcm = mocks.log.captures(CaptureFilter(mock: .fcm))
        #expect(fcm.map(\.addressedHost) == [.fcm, .fcm])
        #expect(fcm.first?.outcome == .accepted && fcm.last?.response.status == 404)
        #expect(fcm.first?.deviceToken == MockFixture.fcmToken)
    }

    @Test func curlThatOnlyHonoursHTTPSProxyReachesAPNs() async throws {
        let jwt = try #require(try await clients.providerTokens()["valid"])
        let push = try await clients.curl(
            "https://api.push.apple.com/3/device/\(MockStackClients.deviceToken)", method: "POST",
            headers: clients.voipHeaders(jwt: jwt), body: MockStackClients.voipBody, environment: proxyEnvironment)
        #expect(push.status == 200 && push.httpVersion == "2", "\(push)")
        let capture = try #require(mocks.log.captures(CaptureFilter(mock: .apns)).first)
        #expect(capture.addressedHost == .apnsProduction && capture.outcome == .accepted)
        #expect(capture.authority == "api.push.apple.com")
    }

    @Test func pythonURLLibThroughHTTPSProxyRunsTheGoogleFlow() async throws {
        let message = MockFixture.callxMessage(token: MockFixture.fcmToken)
        let result = try await clients.googleSend(
            [message], fcmURL: "https://fcm.googleapis.com", tokenURI: ServiceAccount.googleTokenAudience,
            environment: proxyEnvironment)
        #expect(result["oauth"]?["status"]?.intValue == 200, "\(result)")
        #expect(result["sends"]?.arrayValue?.map { $0["status"]?.intValue } == [200], "\(result)")
        let captures = mocks.log.captures(CaptureFilter())
        #expect(captures.map(\.mock) == [.oauth, .fcm])
        #expect(captures.map(\.addressedHost) == [.oauth, .fcm])
        #expect(captures.allSatisfy { $0.outcome == .accepted })
    }

    @Test func apnsKeepsOneStreamUntilAuthenticatedAndGoogleDoesNot() async throws {
        let base = "https://127.0.0.1:\(port)"
        let apns = try await clients.h2Request(
            baseURL: base, path: "/3/device/\(MockStackClients.deviceToken)", headers: [], body: "{}",
            serverName: ImpersonatedHost.apnsProduction.name)
        let google = try await clients.h2Request(
            baseURL: base, path: "/v1/projects/x/messages:send", headers: [], body: "{}",
            serverName: ImpersonatedHost.fcm.name)
        func maxStreams(_ events: [JSONValue]) -> Int? {
            events.first { $0["type"] == "settings" }?["changed"]?["3"]?.intValue
        }
        #expect(maxStreams(apns) == 1, "\(apns)")
        #expect(maxStreams(google) == 100, "\(google)")
        // Both reached their mock: APNs wants a provider token, FCM an access token.
        #expect(
            apns.contains { $0["type"] == "data" && $0["data"]?.stringValue?.contains("MissingProviderToken") == true })
        #expect(google.contains { $0["type"] == "response" && $0["headers"]?[":status"] == "401" }, "\(google)")
    }

    @Test func theProxyRefusesOtherHostsAndPorts() async throws {
        for url in ["https://example.com/", "https://api.push.apple.com:8443/", "https://127.0.0.1:\(port)/"] {
            let r = try await clients.curl(url, environment: proxyEnvironment)
            #expect(r.exitCode == 56 && r.stderr.contains("403"), "\(url): \(r)")
        }
        let proxyPort = endpoints.proxy!.port
        let answers = try await offPool { () -> [(text: String, closed: Bool)] in
            try [
                "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n",
                "CONNECT api.push.apple.com:8443 HTTP/1.1\r\n\r\n",
                "GET http://fcm.googleapis.com/ HTTP/1.1\r\nHost: fcm.googleapis.com\r\n\r\n",
            ].map { request in
                let socket = try RawSocket(port: proxyPort, receiveTimeout: 10)
                socket.send(request)
                let r = socket.receive()
                return (r.bytes.text, r.closed)
            }
        }
        #expect(answers.allSatisfy { $0.closed }, "the proxy closes after every refusal")
        #expect(answers[0].text.hasPrefix("HTTP/1.1 403 ") && answers[0].text.contains("never opens outside"))
        #expect(answers[1].text.hasPrefix("HTTP/1.1 403 ") && answers[1].text.contains("port 443 and 2197 only"))
        #expect(answers[2].text.hasPrefix("HTTP/1.1 403 ") && answers[2].text.contains("only tunnels HTTPS"))
        #expect(mocks.log.count == 0)
    }

    @Test func malformedProxyRequestsGet400AndTheProxyServesOn() async throws {
        let proxyPort = endpoints.proxy!.port
        let requests = [
            "hello\r\n\r\n", "CONNECT HTTP/1.1\r\n\r\n", "CONNECT api.push.apple.com HTTP/1.1\r\n\r\n",
            "CONNECT api.push.apple.com:99999 HTTP/1.1\r\n\r\n", "CONNECT [::1 HTTP/1.1\r\n\r\n",
            "CONNECT api.push.apple.com:443 HTTP/9.9\r\n\r\n", "\u{16}\u{03}\u{01}\u{02}\u{00}\u{01}\r\n\r\n",
            "CONNECT a/b:443 HTTP/1.1\r\n\r\n",
        ]
        let answers = try await offPool {
            try requests.map { request in
                let socket = try RawSocket(port: proxyPort, receiveTimeout: 10)
                socket.send(request)
                return socket.receive().bytes.text
            }
        }
        for (request, answer) in zip(requests, answers) {
            #expect(answer.hasPrefix("HTTP/1.1 400 "), "\(request.debugDescription) got \(answer.debugDescription)")
        }
        let jwt = try #require(try await clients.providerTokens()["valid"])
        let push = try await clients.curl(
            "https://api.push.apple.com/3/device/\(MockStackClients.deviceToken)", method: "POST",
            headers: clients.voipHeaders(jwt: jwt), body: MockStackClients.voipBody, environment: proxyEnvironment)
        #expect(push.status == 200, "\(push)")
    }

    @Test func aRequestNamingNoImpersonatedHostIsMisdirected() async throws {
        let r = try await clients.curl("https://127.0.0.1:\(port)/3/device/\(MockStackClients.deviceToken)")
        #expect(r.status == 421 && r.body.contains("api.push.apple.com"), "\(r)")
        #expect(mocks.log.count == 0)
    }
}
