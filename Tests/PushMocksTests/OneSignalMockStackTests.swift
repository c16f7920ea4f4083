import JSON
import PushMocks
import TestSupport
import Testing

/// The OneSignal mock on real sockets, reached as a kit server would: curl over TLS on both routes and
/// under the real host names, the audience and fault plans through the control API, the settings in
/// the env and JSON files.
@Suite struct OneSignalMockStackTests {
    let mocks: MockStackHarness
    var clients: MockStackClients { mocks.clients }
    var mock: OneSignalMock { mocks.stack.providers.oneSignal! }

    init() async throws {
        mocks = try await MockStackHarness.start { options in
            options.impersonation = ImpersonationOptions(
                listen: [ListenAddress(host: "127.0.0.1", port: 0)], proxy: nil)
        }
    }

    func setting(_ name: String) -> String? { mocks.settings.extra.first { $0.name == name }?.value }

    /// `POST $RINGCHECK_ONESIGNAL_URL<path>` with curl, the body naming `appID` and targeting `users`.
    func notify(
        path: String = "/notifications", appID: String? = nil, key: String? = nil, users: [String] = ["user-1"],
        scheme: String = "Key", base: String? = nil, options: [String] = []
    ) async throws -> CurlResponse {
        let body: JSONValue = [
            "app_id": .string(appID ?? mock.standardApp.appID),
            "include_aliases": ["external_id": .array(users.map { .string($0) })], "target_channel": "push",
            "headings": ["en": "Ride"], "contents": ["en": "Your driver is 2 min away"], "priority": 10, "ttl": 60,
        ]
        return try await clients.curl(
            (base ?? setting("RINGCHECK_ONESIGNAL_URL")!) + path, method: "POST",
            headers: [
                ("authorization", "\(scheme) \(key ?? mock.standardApp.apiKey)"),
                ("content-type", "application/json; charset=utf-8"),
            ], body: body.serialized(pretty: false), options: options)
    }

    @Test func theSettingsNameTheURLAndBothAppsInTheEnvAndJSONFiles() throws {
        let url = try #require(setting("RINGCHECK_ONESIGNAL_URL"))
        #expect(url.hasPrefix("https://127.0.0.1:") && !url.hasSuffix("/"))
        #expect(setting("RINGCHECK_ONESIGNAL_APP_ID") == mock.standardApp.appID)
        #expect(setting("RINGCHECK_ONESIGNAL_API_KEY") == mock.standardApp.apiKey)
        #expect(setting("RINGCHECK_ONESIGNAL_VOIP_APP_ID") == mock.voipApp.appID)
        #expect(setting("RINGCHECK_ONESIGNAL_VOIP_API_KEY") == mock.voipApp.apiKey)
        #expect(mock.standardApp.appID != mock.voipApp.appID && mock.standardApp.apiKey != mock.voipApp.apiKey)
        #expect(mock.standardApp.apiKey.hasPrefix("os_v2_app_") && mock.standardApp.apiKey.count == 66)
        let env = mocks.settings.envFile()
        let json = try JSONValue.parse(mocks.settings.json())
        for name in OneSignalMock.settingNames {
            let value = try #require(setting(name))
            #expect(env.contains("export \(name)='\(value)'\n"), "\(name)")
            #expect(json[name]?.stringValue == value, "\(name)")
        }
        let variables = Dictionary(mocks.settings.environment.map { ($0.name, $0.value) }) { $1 }
        #expect(try MockSettings(environment: variables) == mocks.settings)
    }

    @Test func bothRoutesOverHTTP1AndH2CountTheAudienceSetThroughTheControlAPI() async throws {
        let put = try await clients.control(
            "PUT", "/v1/onesignal/subscriptions",
            body:
                #"[{"app":"standard","externalId":"user-1","devices":2},{"appId":"\#(mock.voipApp.appID)","externalId":"user-1"}]"#
        )
        #expect(put.status == 200 && put.json?["subscriptions"]?.arrayValue?.count == 2, "\(put)")
        for (path, version) in [("/notifications", "--http2"), ("/api/v1/notifications", "--http1.1")] {
            let r = try await notify(path: path, options: [version])
            #expect(r.status == 200 && r.json?["recipients"] == 2, "\(path): \(r)")
            #expect(r.httpVersion == (version == "--http2" ? "2" : "1.1"))
            #expect(r.headers["content-type"]?.hasPrefix("application/json") == true)
        }
        #expect(try await notify(scheme: "Basic").json?["recipients"] == 2)
        // The VoIP app's key with the standard app's ID is refused.
        #expect(try await notify(key: mock.voipApp.apiKey).status == 403)
        #expect(try await notify(appID: mock.voipApp.appID, key: mock.voipApp.apiKey).json?["recipients"] == 1)

        let list = try await clients.control("GET", "/v1/onesignal/subscriptions")
        #expect(
            list.json?["subscriptions"]?.arrayValue?.map { $0["app"] } == ["standard", "voip"]
                || list.json?["subscriptions"]?.arrayValue?.map { $0["app"] } == ["voip", "standard"])
        #expect(
            try await clients.control("DELETE", "/v1/onesignal/subscriptions?app=standard&externalId=user-1").json?[
                "cleared"] == 1)
        let empty = try await notify()
        #expect(
            empty.json == [
                "id": "", "external_id": nil, "errors": ["All included players are not subscribed"], "recipients": 0,
            ])
        #expect(mock.audience.devices(externalId: "user-1", appId: mock.voipApp.appID) == 1)
        #expect(try await clients.control("DELETE", "/v1/onesignal/subscriptions").json?["cleared"] == 1)
    }

    @Test func theControlAPIChoosesTheEmptyAudienceAnswerAndRefusesBadRequests() async throws {
        let apps = try await clients.control("GET", "/v1/onesignal/apps")
        #expect(apps.json?["apps"]?.arrayValue?.map { $0["role"] } == ["standard", "voip"])
        #expect(!apps.body.contains(mock.standardApp.apiKey) && apps.json?["apps"]?[0]?["apiKey"] == nil)
        let revealed = try await clients.control("GET", "/v1/onesignal/apps?reveal=true")
        #expect(revealed.json?["apps"]?[1]?["apiKey"]?.stringValue == mock.voipApp.apiKey)

        let set = try await clients.control(
            "PUT", "/v1/onesignal/apps/standard", body: #"{"emptyAudience":"invalidAliases"}"#)
        #expect(set.status == 200 && set.json?["emptyAudience"] == "invalidAliases", "\(set)")
        let r = try await notify(users: ["ghost"])
        #expect(
            r.json == ["id": "", "external_id": nil, "errors": ["invalid_aliases": ["external_id": ["ghost"]]]], "\(r)")
        #expect(try await clients.control("DELETE", "/v1/onesignal/audience").status == 200)
        #expect(try await notify(users: ["ghost"]).json?["recipients"] == 0)
        let quiet = try await clients.control("PATCH", "/v1/onesignal/apps/standard", body: #"{"recipients":false}"#)
        #expect(
            quiet.status == 200 && quiet.json?["recipients"] == false && quiet.json?["emptyAudience"] == "notSubscribed"
        )
        #expect(try await notify(users: ["ghost"]).json?["recipients"] == nil)

        for (method, path, body, status) in [
            ("PUT", "/v1/onesignal/subscriptions", #"{"app":"marketing","externalId":"u"}"#, 400),
            ("PUT", "/v1/onesignal/subscriptions", #"{"app":"standard"}"#, 400),
            ("PUT", "/v1/onesignal/subscriptions", #"{"app":"standard","externalId":"u","devices":"2"}"#, 400),
            ("PUT", "/v1/onesignal/subscriptions", #"[{"app":"standard","externalId":"ok"},{"user":"x"}]"#, 400),
            ("PUT", "/v1/onesignal/apps/standard", #"{"emptyAudience":"silence"}"#, 400),
            ("PUT", "/v1/onesignal/apps/standard", #"{"recipients":"no"}"#, 400),
            ("PUT", "/v1/onesignal/apps/standard", #"{"emptyAudience":"invalidAliases","recipients":1}"#, 400),
            ("PUT", "/v1/onesignal/apps/standard", #"{}"#, 400),
            ("PUT", "/v1/onesignal/apps/marketing", #"{"emptyAudience":"notSubscribed"}"#, 404),
            ("GET", "/v1/onesignal/apps/standard", nil, 405), ("GET", "/v1/onesignal/players", nil, 404),
        ] as [(String, String, String?, Int)] {
            let answer = try await clients.control(method, path, body: body)
            #expect(
                answer.status == status && answer.json?["error"]?.stringValue != nil,
                "\(method) \(path) \(body ?? ""): \(answer)")
        }
        // All or nothing: the valid half of the refused list was not applied.
        #expect(mock.audience.subscriptions.isEmpty)
    }

    @Test func capturesAndFaultPlansGoThroughTheControlAPI() async throws {
        mock.subscribe(externalId: "user-1", app: .standard)
        let plan = try await clients.installFault(
            #"{"mock":"onesignal","times":1,"respond":{"status":503,"message":"Service Unavailable"},"retryAfter":2}"#)
        #expect(plan["faults"]?[0]?["mock"] == "onesignal")
        let faulted = try await notify()
        #expect(
            faulted.status == 503 && faulted.headers["retry-after"] == "2"
                && faulted.json == ["errors": ["Service Unavailable"]])
        #expect(try await notify().status == 200)
        _ = try await notify(key: "os_v2_app_guess")

        let captures = try await clients.captures("mock=onesignal")
        #expect(captures.map { $0["response"]?["status"] } == [503, 200, 403])
        #expect(captures.map { $0["outcome"] } == ["rejected", "accepted", "rejected"])
        #expect(captures[0]["fault"]?["mock"] == "onesignal" && captures[1]["fault"] == .null)
        #expect(captures[1]["json"]?["include_aliases"]?["external_id"] == ["user-1"])
        let text = captures.map { $0.serialized(pretty: false) }.joined()
        #expect(!text.contains(mock.standardApp.apiKey) && !text.contains("os_v2_app_guess"))
        let revealed = try await clients.captures("mock=onesignal&reveal=true")
        #expect(revealed[1]["headers"]?.serialized(pretty: false).contains(mock.standardApp.apiKey) == true)
    }

    @Test func theRealHostNamesServeTheirRoutes() async throws {
        mock.subscribe(externalId: "user-1", app: .standard)
        let port = mocks.stack.impersonation!.listen[0].port
        for (host, path) in [(ImpersonatedHost.oneSignalAPI, "/notifications"), (.oneSignal, "/api/v1/notifications")] {
            let r = try await notify(
                path: path, base: "https://\(host.name):\(port)",
                options: ["--resolve", "\(host.name):\(port):127.0.0.1"])
            #expect(r.status == 200 && r.json?["recipients"] == 1, "\(host): \(r)")
        }
        #expect(
            mocks.log.captures(CaptureFilter(mock: .onesignal)).map(\.addressedHost) == [.oneSignalAPI, .oneSignal])
    }
}
