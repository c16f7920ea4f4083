import HTTP
import JSON
import PushMocks
import TestSupport
import Testing

@Suite struct ControlAPITests {
    let f = MockFixture()
    var control: ControlAPI { f.mocks.control }

    func call(_ method: String, _ target: String, _ body: String = "") async -> HTTPResponse {
        await control.handle(HTTPRequest(method: method, target: target, body: Array(body.utf8)))
    }

    @Test func health() async {
        let r = await call("GET", "/v1/health")
        #expect(r.status == 200)
        #expect(r.jsonBody?["status"] == "ok")
        #expect(r.headers["content-type"] == "application/json")
    }

    @Test func capturesAreRedactedUnlessRevealed() async throws {
        _ = await f.mocks.apnsProduction.handle(f.apnsRequest())
        let r = await call("GET", "/v1/captures")
        #expect(r.status == 200)
        let text = String(decoding: r.body, as: UTF8.self)
        #expect(!text.contains(MockFixture.deviceToken))
        #expect(r.jsonBody?["captures"]?.arrayValue?.count == 1)
        #expect(r.jsonBody?["lastSequence"] == 1)
        let revealed = await call("GET", "/v1/captures?reveal=true")
        #expect(String(decoding: revealed.body, as: UTF8.self).contains(MockFixture.deviceToken))
    }

    @Test func captureQueriesAreLimitedAndPageWithSince() async {
        for _ in 0..<5 { _ = await f.mocks.apnsProduction.handle(f.apnsRequest()) }
        let first = await call("GET", "/v1/captures?limit=2")
        let page = first.jsonBody?["captures"]?.arrayValue ?? []
        #expect(page.compactMap { $0["sequence"]?.intValue } == [1, 2])
        #expect(first.jsonBody?["more"] == .bool(true) && first.jsonBody?["lastSequence"] == 5)
        let last = await call("GET", "/v1/captures?limit=2&since=4")
        #expect(last.jsonBody?["captures"]?.arrayValue?.count == 1 && last.jsonBody?["more"] == .bool(false))
        for bad in ["0", "-1", "x", String(ControlAPI.maxCaptureLimit + 1)] {
            let r = await call("GET", "/v1/captures?limit=" + bad)
            #expect(r.status == 400 && r.jsonBody?["error"]?.stringValue?.contains("limit") == true, "\(bad)")
        }
    }

    @Test func captureQueriesStopAtTheDefaultLimit() async {
        let n = ControlAPI.defaultCaptureLimit + 1
        for _ in 0..<n {
            f.mocks.log.record(Capture(request: HTTPRequest(method: "GET", target: "/"), mock: .fcm, arrivalMs: 0))
        }
        let r = await call("GET", "/v1/captures")
        #expect(r.jsonBody?["captures"]?.arrayValue?.count == ControlAPI.defaultCaptureLimit)
        #expect(r.jsonBody?["more"] == .bool(true))
    }

    @Test func captureFilters() async {
        _ = await f.mocks.apnsProduction.handle(f.apnsRequest())
        _ = await f.mocks.apnsSandbox.handle(f.apnsRequest(token: String(repeating: "cd", count: 32)))
        _ = await f.accessToken()
        func count(_ query: String) async -> Int? {
            await call("GET", "/v1/captures?" + query).jsonBody?["captures"]?.arrayValue?.count
        }
        #expect(await count("mock=apns") == 2)
        #expect(await count("mock=oauth") == 1)
        #expect(await count("deviceToken=\(MockFixture.deviceToken)") == 1)
        #expect(await count("since=1") == 2)
        #expect(await count("environment=sandbox") == 1)
        #expect(await count("accepted=true") == 3)
        #expect(await call("GET", "/v1/captures?mock=gcm").status == 400)
        #expect(await call("GET", "/v1/captures?since=x").status == 400)
    }

    @Test func clearCaptures() async {
        _ = await f.mocks.apnsProduction.handle(f.apnsRequest())
        let r = await call("DELETE", "/v1/captures")
        #expect(r.jsonBody?["cleared"] == 1)
        #expect(f.mocks.log.count == 0)
    }

    @Test func waitEndpoint() async {
        let waiter = Task { await call("GET", "/v1/captures/wait?mock=apns&count=1&timeoutMs=5000") }
        try? await Task.sleep(for: .milliseconds(20))
        _ = await f.mocks.apnsProduction.handle(f.apnsRequest())
        let r = await waiter.value
        #expect(r.status == 200 && r.jsonBody?["complete"] == true)
        let timeout = await call("GET", "/v1/captures/wait?mock=fcm&timeoutMs=10")
        #expect(timeout.status == 408 && timeout.jsonBody?["complete"] == false)
        #expect(await call("GET", "/v1/captures/wait?timeoutMs=999999999").status == 400)
    }

    @Test func installListAndDeleteFaults() async throws {
        let r = await call(
            "POST", "/v1/faults",
            #"{"mock":"apns","deviceToken":"\#(MockFixture.deviceToken)","times":1,"respond":{"reason":"TooManyRequests"},"retryAfter":5}"#
        )
        #expect(r.status == 201)
        let id = try #require(r.jsonBody?.value(atPath: "faults.0.id")?.stringValue)
        let list = await call("GET", "/v1/faults")
        #expect(list.jsonBody?.value(atPath: "faults.0.remaining") == 1)
        let push = await f.mocks.apnsProduction.handle(f.apnsRequest())
        #expect(push.status == 429 && push.headers["retry-after"] == "5")
        #expect(await call("GET", "/v1/faults").jsonBody?.value(atPath: "faults.0.applied") == 1)
        #expect(await call("DELETE", "/v1/faults/\(id)").status == 200)
        #expect(await call("DELETE", "/v1/faults/\(id)").status == 404)
        _ = await call("POST", "/v1/faults", #"[{"connection":"reset"},{"latencyMs":5}]"#)
        _ = await call("POST", "/v1/faults", #"{"faults":[{"connection":"goaway"}]}"#)
        #expect(f.mocks.faults.entries.count == 3)
        #expect(await call("DELETE", "/v1/faults").jsonBody?["cleared"] == 3)
    }

    @Test func invalidFaultPlansAre400WithClearMessages() async throws {
        let r = await call("POST", "/v1/faults", #"{"times":0,"connection":"explode"}"#)
        #expect(r.status == 400)
        let message = try #require(r.jsonBody?["error"]?.stringValue)
        #expect(message.contains("connection must be one of reset, resetAfterAccept, goaway"))
        #expect(await call("POST", "/v1/faults", "not json").status == 400)
        #expect(await call("POST", "/v1/faults", "[]").status == 400)
        // All or nothing.
        let mixed = await call("POST", "/v1/faults", #"[{"connection":"reset"},{"times":-1,"latencyMs":1}]"#)
        #expect(mixed.status == 400)
        #expect(mixed.jsonBody?["error"]?.stringValue?.contains("plan 1: times") == true)
        #expect(f.mocks.faults.entries.isEmpty)
    }

    @Test func devices() async {
        let r = await call(
            "POST", "/v1/devices", #"{"deviceToken":"\#(MockFixture.deviceToken)","environment":"sandbox"}"#)
        #expect(r.status == 201)
        #expect(await f.mocks.apnsProduction.handle(f.apnsRequest()).apnsReason == "BadDeviceToken")
        _ = await call("POST", "/v1/devices", #"{"deviceToken":"\#(MockFixture.deviceToken)","status":"unregistered"}"#)
        #expect(await f.mocks.apnsProduction.handle(f.apnsRequest()).status == 410)
        #expect(await call("GET", "/v1/devices").jsonBody?["devices"]?.arrayValue?.count == 1)
        #expect(await call("DELETE", "/v1/devices/\(MockFixture.deviceToken)").status == 200)
        #expect(await f.mocks.apnsProduction.handle(f.apnsRequest()).status == 200)
        #expect(await call("POST", "/v1/devices", #"{"environment":"moon"}"#).status == 400)
        #expect(await call("POST", "/v1/devices", #"{"deviceToken":"x","status":"gone"}"#).status == 400)
        #expect(await call("POST", "/v1/devices", #"{"deviceToken":"x","tokenKind":"pushkit"}"#).status == 400)
        // An alert token refuses the VoIP push the fixture sends.
        let alert = await call(
            "POST", "/v1/devices", #"{"deviceToken":"\#(MockFixture.deviceToken)","tokenKind":"alert"}"#)
        #expect(alert.status == 201 && alert.jsonBody?["tokenKind"] == "alert")
        #expect(await f.mocks.apnsProduction.handle(f.apnsRequest()).apnsReason == "DeviceTokenNotForTopic")
        #expect(await call("DELETE", "/v1/devices").status == 200)
    }

    @Test func revokingAccessTokensForcesReauthentication() async {
        let token = await f.accessToken()
        let r = await call("DELETE", "/v1/oauth/tokens")
        #expect(r.jsonBody?["revoked"] == 1)
        let push = await f.mocks.fcm.handle(f.fcmRequest(MockFixture.callxMessage(), accessToken: token))
        #expect(push.status == 401)
        let fresh = await f.accessToken()
        #expect(await f.mocks.fcm.handle(f.fcmRequest(MockFixture.callxMessage(), accessToken: fresh)).status == 200)
    }

    @Test func unknownRoutesAndMethods() async {
        #expect(await call("GET", "/v2/nothing").status == 404)
        #expect(await call("PUT", "/v1/captures").status == 405)
        #expect(await call("POST", "/v1/health").status == 405)
    }

    @Test func a405NamesTheMethodsThePathHasInAllow() async {
        let captures = await call("PUT", "/v1/captures")
        #expect(captures.status == 405 && captures.headers["allow"] == "GET, DELETE")
        #expect(await call("GET", "/v1/faults/f1").headers["allow"] == "DELETE")
        let apps = await call("DELETE", "/v1/onesignal/apps/standard")
        #expect(apps.status == 405 && apps.headers["allow"] == "PUT, PATCH")
    }

    @Test func anUnknownQueryParameterIs400AndNothingHappens() async throws {
        _ = await f.mocks.apnsProduction.handle(f.apnsRequest())
        for target in ["/v1/captures?devicetoken=x", "/v1/captures/wait?limit=5", "/v1/captures?mock=apns&foo=1&bar"] {
            let r = await call("GET", target)
            let message = try #require(r.jsonBody?["error"]?.stringValue)
            #expect(r.status == 400 && message.contains("accepted: mock, deviceToken"), "\(target): \(message)")
        }
        let two = await call("GET", "/v1/captures?mock=apns&foo=1&bar")
        #expect(two.jsonBody?["details"]?.arrayValue?.count == 2)
        #expect(two.jsonBody?["error"]?.stringValue?.contains("'bar'") == true)
        // A misspelt parameter on a DELETE must not clear anything.
        let clear = await call("DELETE", "/v1/captures?mock=apns")
        #expect(clear.status == 400 && clear.jsonBody?["error"]?.stringValue?.contains("it takes none") == true)
        #expect(f.mocks.log.count == 1)
    }
}
