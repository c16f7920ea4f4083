import Foundation
import HTTP
import JSON
import PushMocks

/// What curl reported for one request.
public struct CurlResponse: Sendable {
    /// curl's exit status (0 when a response arrived, 56 on a reset, …).
    public var exitCode: Int32
    /// The HTTP status; 0 when no response arrived.
    public var status: Int
    /// `%{http_version}`: `2`, `1.1`, or `0` when no response arrived.
    public var httpVersion: String
    /// The response headers (names lower-cased).
    public var headers: HTTPHeaders
    public var body: String
    /// `%{time_total}` in seconds.
    public var seconds: Double
    public var stderr: String

    /// The body as JSON, or nil.
    public var json: JSONValue? { try? JSONValue.parse(body) }
    /// APNs `reason` of an error body.
    public var apnsReason: String? { json?["reason"]?.stringValue }
}

/// A client the tests could not run.
public struct MockStackClientError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

/// The independent clients a real backend would use — curl, nghttp, Python with PyJWT/h2 — pointed at
/// mocks described by `settings` (a `MockStack` in process, or `ringcheck mocks` read from its env file).
public struct MockStackClients: Sendable {
    public let settings: MockSettings
    /// Where request bodies and response headers are written for curl and nghttp.
    public let scratch: TemporaryDirectory

    /// A 32-byte APNs device token.
    public static let deviceToken = MockFixture.deviceToken
    /// The VoIP invitation body of the Callx seed.
    public static let voipBody = String(decoding: MockFixture.voipBody, as: UTF8.self)

    /// Clients for the mocks in `settings`, writing scratch files to `scratch`.
    public init(settings: MockSettings, scratch: TemporaryDirectory) {
        self.settings = settings
        self.scratch = scratch
    }

    // MARK: curl

    /// One request with curl 7.88: `--http2 --cacert $RINGCHECK_CA_FILE` for https URLs (HTTP/2 over TLS
    /// through ALPN), `--http2-prior-knowledge` or `--http1.1` for the plain control API. `environment`
    /// adds variables for this run only (`HTTPS_PROXY=…`).
    public func curl(
        _ url: String, method: String = "GET", headers: [(String, String)] = [], body: String? = nil,
        options: [String] = [], timeout: Double = 20, environment: [String: String] = [:]
    ) async throws -> CurlResponse {
        let id = UUID().uuidString
        let headerFile = scratch.file("curl-\(id).headers")
        let bodyFile = scratch.file("curl-\(id).body")
        var args = [
            "-sS", "-X", method, "-o", bodyFile, "-D", headerFile, "-w", "%{http_code} %{http_version} %{time_total}",
        ]
        if url.hasPrefix("https:") { args += ["--http2", "--cacert", settings.caFile] }
        for (name, value) in headers { args += ["-H", "\(name): \(value)"] }
        if let body {
            let file = scratch.file("curl-\(id).request")
            try body.write(toFile: file, atomically: false, encoding: .utf8)
            args += ["--data-binary", "@" + file]
        }
        let variables = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let r =
            environment.isEmpty
            ? try await run("curl", args + options + [url], timeout: timeout)
            : try await run("env", variables + ["curl"] + args + options + [url], timeout: timeout)
        let written = r.stdout.split(separator: " ").map(String.init)
        var headers = HTTPHeaders()
        // With several header blocks (a 100-continue), the last one is the response.
        let headerText = (try? String(contentsOfFile: headerFile, encoding: .utf8)) ?? ""
        let blocks = headerText.components(separatedBy: "\r\n\r\n").filter { !$0.isEmpty }
        for line in (blocks.last ?? "").components(separatedBy: "\r\n").dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.add(
                String(line[..<colon]).lowercased(),
                line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        return CurlResponse(
            exitCode: r.status, status: written.first.flatMap { Int($0) } ?? 0,
            httpVersion: written.count > 1 ? written[1] : "", headers: headers,
            body: (try? String(contentsOfFile: bodyFile, encoding: .utf8)) ?? "",
            seconds: written.count > 2 ? Double(written[2]) ?? 0 : 0, stderr: r.stderr)
    }

    /// The headers of the Callx seed's VoIP invitation, with `jwt` as the provider token.
    public func voipHeaders(jwt: String) -> [(String, String)] {
        [
            ("authorization", "bearer \(jwt)"), ("apns-push-type", "voip"), ("apns-topic", settings.apnsVoIPTopic),
            ("apns-priority", "10"), ("apns-expiration", "0"), ("content-type", "application/json"),
        ]
    }

    /// A push to mock APNs with curl: the seed's VoIP headers, `overrides` replacing (or, with a nil
    /// value, removing) headers of the same name, then `extraHeaders` added as they are.
    public func apnsPush(
        token: String = deviceToken, jwt: String?, sandbox: Bool = false, overrides: [(String, String?)] = [],
        extraHeaders: [(String, String)] = [], body: String = voipBody, method: String = "POST", path: String? = nil
    ) async throws -> CurlResponse {
        var headers = voipHeaders(jwt: jwt ?? "")
        if jwt == nil { headers.removeAll { $0.0 == "authorization" } }
        for (name, value) in overrides {
            headers.removeAll { $0.0 == name }
            if let value { headers.append((name, value)) }
        }
        headers += extraHeaders
        let base = sandbox ? settings.apnsSandboxURL : settings.apnsURL
        return try await curl(
            base + (path ?? "/3/device/\(token)"), method: method, headers: headers,
            body: method == "POST" ? body : nil)
    }

    /// A control-API request over h2c with prior knowledge (or HTTP/1.1).
    public func control(_ method: String, _ path: String, body: String? = nil, http2: Bool = true) async throws
        -> CurlResponse
    {
        try await curl(
            settings.controlURL + path, method: method,
            headers: body == nil ? [] : [("content-type", "application/json")], body: body,
            options: [http2 ? "--http2-prior-knowledge" : "--http1.1"])
    }

    /// `POST /v1/faults` with `plan` (JSON text); fails unless the control API answers 201.
    @discardableResult
    public func installFault(_ plan: String) async throws -> JSONValue {
        let r = try await control("POST", "/v1/faults", body: plan)
        guard r.status == 201, let json = r.json else {
            throw MockStackClientError(message: "POST /v1/faults answered \(r.status) \(r.body) \(r.stderr)")
        }
        return json
    }

    /// `GET /v1/captures` with a query (`mock=apns&reveal=true`, …): the `captures` array.
    public func captures(_ query: String = "") async throws -> [JSONValue] {
        let r = try await control("GET", "/v1/captures" + (query.isEmpty ? "" : "?" + query))
        guard r.status == 200, let captures = r.json?["captures"]?.arrayValue else {
            throw MockStackClientError(message: "GET /v1/captures answered \(r.status) \(r.body) \(r.stderr)")
        }
        return captures
    }

    // MARK: nghttp

    /// `nghttp -v` POSTing `body` to each of `urls` over one TLS connection; its verbose frame log.
    /// `options` go first (`-M 1`: one stream at a time until the server's SETTINGS allow more).
    public func nghttp(_ urls: [String], headers: [(String, String)], body: String, options: [String] = [])
        async throws -> ProcessResult
    {
        let file = scratch.file("nghttp-\(UUID().uuidString).body")
        try body.write(toFile: file, atomically: false, encoding: .utf8)
        var args = options + ["-v", "-n", "-d", file]
        for (name, value) in headers { args += ["-H", "\(name): \(value)"] }
        return try await run("nghttp", args + urls, timeout: 20)
    }

    // MARK: Python

    /// Provider tokens PyJWT signs from the written `.p8` file: `valid`, `renewed` (another valid token),
    /// `expired` (iat 3700 s ago), `foreignKey`, `wrongKeyID`, `wrongTeam`, `hs256`, and valid ones
    /// with `iat` as a float (`floatIat`) or a string (`stringIat`).
    public func providerTokens() async throws -> [String: String] {
        let json = try await MockStackPython.run(
            self,
            "apns-tokens", [settings.apnsKeyFile, settings.apnsKeyID, settings.apnsTeamID])
        var tokens: [String: String] = [:]
        for (key, value) in json.objectValue ?? [] { tokens[key] = value.stringValue }
        return tokens
    }

    /// The Google flow in Python: assertion from the service-account JSON, token from its `token_uri`,
    /// then each message to FCM. `{"oauth": {status, body, headers}, "sends": […], "accessToken": …}`.
    /// `fcmURL` and `tokenURI` replace the settings' (e.g. the real host names, reached through
    /// `environment`'s `https_proxy`).
    public func googleSend(
        _ messages: [JSONValue], fcmURL: String? = nil, tokenURI: String = "", environment: [String: String] = [:]
    ) async throws -> JSONValue {
        try await MockStackPython.run(
            self,
            "google-send",
            [
                settings.fcmServiceAccountFile, settings.caFile, fcmURL ?? settings.fcmURL,
                JSONValue.array(messages).serialized(), tokenURI,
            ], environment: environment)
    }

    /// A token request whose assertion carries the account's `kid` and email but another RSA key's signature.
    public func forgedOAuthExchange() async throws -> JSONValue {
        try await MockStackPython.run(self, "oauth-forged", [settings.fcmServiceAccountFile, settings.caFile])
    }

    /// One HTTP/2 POST with Python's h2 over TLS (ALPN h2); the events seen: `settings`, `response`,
    /// `data`, `streamEnded`, `streamReset`, `goaway`, `reset`, `eof`. Reads on for `settle` seconds
    /// after the stream ends, to see frames the server sends later. `alpn: false` offers no ALPN.
    /// `serverName` goes in SNI and `:authority` instead of the URL's host (a hosts entry's view).
    /// `raw`: `headers` is the whole header list, pseudo-headers too, sent unchecked (`path` is not used).
    /// `trailers`: fields sent unchecked after the body, ending the stream if `trailersEndStream`.
    public func h2Request(
        baseURL: String, path: String, headers: [(String, String)], body: String, settle: Double = 0.3,
        alpn: Bool = true, serverName: String = "", raw: Bool = false, trailers: [(String, String)]? = nil,
        trailersEndStream: Bool = true
    ) async throws -> [JSONValue] {
        guard let url = URL(string: baseURL), let host = url.host, let port = url.port else {
            throw MockStackClientError(message: "not a base URL with a port: \(baseURL)")
        }
        let list = JSONValue.array(headers.map { [.string($0.0), .string($0.1)] }).serialized()
        let events = try await MockStackPython.run(
            self,
            "h2-request",
            [
                host, String(port), settings.caFile, path, list, body, String(settle), alpn ? "h2" : "", serverName,
                raw ? "raw" : "",
                trailers.map { JSONValue.array($0.map { [.string($0.0), .string($0.1)] }).serialized() } ?? "",
                trailersEndStream ? "end" : "",
            ])
        return events.arrayValue ?? []
    }

    // MARK: Running programs

    /// Runs `executable` (looked up on PATH) to completion without blocking the cooperative pool.
    public func run(_ executable: String, _ arguments: [String], timeout: Double) async throws -> ProcessResult {
        try await MockStackProcess.run([executable] + arguments, scratch: scratch, timeout: timeout)
    }
}
