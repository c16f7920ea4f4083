import HTTP
import JSON
import PushMocks
import Testing

/// The OneSignal mock answering requests in process: routes, keys, the 200 shapes the audience
/// decides, captures and fault plans.
@Suite struct OneSignalMockTests {
    let log = CaptureLog()
    let faults = FaultPlans()
    let mock: OneSignalMock

    init() {
        mock = OneSignalMock(log: log, faults: faults, clock: .fixed(1_800_000_000_000))
    }

    var standard: OneSignalApp { mock.standardApp }
    var voip: OneSignalApp { mock.voipApp }

    /// A notification for `users` in `app`, sent with `scheme` and `key` (default: the app's own).
    func send(
        _ app: OneSignalApp? = nil, users: [String] = ["user-1"], path: String = "/notifications",
        scheme: String = "Key", key: String? = nil, extra: [(String, JSONValue)] = [], body: String? = nil,
        method: String = "POST"
    ) async -> (status: Int, json: JSONValue?) {
        let app = app ?? standard
        var members: [(key: String, value: JSONValue)] = [
            ("app_id", .string(app.appID)), ("include_aliases", ["external_id": .array(users.map { .string($0) })]),
            ("target_channel", "push"), ("contents", ["en": "Hello"]), ("headings", ["en": "Title"]),
        ]
        for (k, v) in extra {
            members.removeAll { $0.key == k }
            members.append((k, v))
        }
        let bytes = body.map { Array($0.utf8) } ?? JSONValue.object(members).bytes()
        let request = HTTPRequest(
            method: method, target: path, authority: "127.0.0.1:1",
            headers: ["authorization": "\(scheme) \(key ?? app.apiKey)", "content-type": "application/json"],
            body: bytes)
        let response = await mock.handle(request)
        return (response.status, try? JSONValue.parse(response.body))
    }

    // MARK: Keys

    @Test func eachAppTakesOnlyItsOwnKey() async {
        mock.subscribe(externalId: "user-1", app: .standard)
        mock.subscribe(externalId: "user-1", app: .voip)
        #expect(await send(standard).status == 200)
        #expect(await send(voip).status == 200)
        let denied = OneSignalError.accessDenied.messages.map { JSONValue.string($0) }
        for (app, key) in [(standard, voip.apiKey), (voip, standard.apiKey), (standard, "os_v2_app_wrong"), (voip, "")]
        {
            let r = await send(app, key: key)
            #expect(r.status == 403 && r.json == ["errors": .array(denied)], "\(app.role) with a foreign key: \(r)")
        }
        // An App ID the mock does not know has no key that fits.
        let stranger = OneSignalApp(
            role: .standard, appID: "00000000-0000-4000-8000-000000000000", apiKey: standard.apiKey)
        #expect(await send(stranger).status == 403)
    }

    @Test func bothSchemesCarryTheKeyAsIs() async {
        mock.subscribe(externalId: "user-1", app: .standard)
        #expect(await send(scheme: "Key").status == 200)
        #expect(await send(scheme: "Basic").status == 200)
        #expect(await send(scheme: "key").status == 200)
        for scheme in ["Bearer", "Token", ""] { #expect(await send(scheme: scheme).status == 403, "\(scheme)") }
        let missing = await mock.handle(
            HTTPRequest(method: "POST", target: "/notifications", body: Array(#"{"app_id":"x"}"#.utf8)))
        #expect(missing.status == 400)
        let noHeader = await mock.handle(
            HTTPRequest(
                method: "POST", target: "/notifications",
                body: JSONValue.object([("app_id", .string(standard.appID)), ("included_segments", ["All"])]).bytes()))
        #expect(noHeader.status == 403)
    }

    // MARK: 400s

    @Test func malformedBodiesAre400WithErrors() async {
        let notJSON = await send(body: "app_id=1")
        #expect(
            notJSON.status == 400
                && notJSON.json == ["errors": .array(OneSignalError.appIDNotFound.messages.map { .string($0) })])
        #expect(await send(body: #"{"include_aliases":{"external_id":["u"]}}"#).status == 400)
        let badID = await send(body: #"{"app_id":"my-app","included_segments":["All"]}"#)
        #expect(
            badID.status == 400 && badID.json?["errors"]?[0]?.stringValue?.hasPrefix("app_id must be a UUID") == true)
        let cases: [[(String, JSONValue)]] = [
            [("included_segments", ["All"])], [("apns_push_type_override", "pushkit")], [("ttl", "30")],
            [("priority", 0)], [("priority", 11)], [("content_available", "yes")],
        ]
        for extra in cases {
            let r = await send(extra: extra)
            #expect(r.status == 400 && (r.json?["errors"]?.arrayValue?.count ?? 0) >= 1, "\(extra): \(r)")
        }
        let none = await send(
            body: JSONValue.object([("app_id", .string(standard.appID)), ("contents", ["en": "x"])]).bytes().string)
        #expect(none.json == ["errors": .array(OneSignalError.noTargeting.messages.map { .string($0) })])
    }

    @Test func aWrongKeyIs403BeforeTheBodyIsJudged() async {
        let r = await send(key: voip.apiKey, extra: [("ttl", "30")])
        #expect(r.status == 403)
    }

    // MARK: 200 shapes

    @Test func recipientsCountTheTargetedUsersDevicesInThatApp() async throws {
        mock.subscribe(externalId: "user-1", app: .standard, devices: 2)
        mock.subscribe(externalId: "user-2", app: .standard)
        mock.subscribe(externalId: "user-3", app: .voip, devices: 3)
        let one = await send(users: ["user-1"])
        #expect(one.status == 200 && one.json?["recipients"] == 2 && one.json?["external_id"] == .null)
        let id = try #require(one.json?["id"]?.stringValue)
        #expect(id.count == 36 && id == id.lowercased() && one.json?["errors"] == nil)
        #expect(await send(users: ["user-1", "user-2", "user-1"]).json?["recipients"] == 3)
        // user-3 is subscribed in the VoIP app only.
        #expect(await send(voip, users: ["user-3"]).json?["recipients"] == 3)
        #expect(await send(standard, users: ["user-3"]).json?["recipients"] == 0)
        // Segments reach every subscribed device of the app; subscription IDs the mock never issued nobody.
        let all = await send(extra: [("include_aliases", .null), ("included_segments", ["All"])])
        #expect(all.json?["recipients"] == 3)
        let players = await send(extra: [("include_aliases", .null), ("include_player_ids", ["user-1"])])
        #expect(players.status == 200 && players.json?["recipients"] == 0 && players.json?["id"] == "")
        // The idempotency key is echoed as the answer's external_id.
        #expect(await send(extra: [("external_id", "idem-7")]).json?["external_id"] == "idem-7")
        // Email and SMS reach no push subscription.
        #expect(await send(extra: [("target_channel", "email")]).json?["recipients"] == 0)
    }

    @Test func anEmptyAudienceAnswersInEitherForm() async {
        let notSubscribed = await send(users: ["ghost"])
        #expect(
            notSubscribed.status == 200
                && notSubscribed.json == [
                    "id": "", "external_id": nil, "errors": ["All included players are not subscribed"],
                    "recipients": 0,
                ], "\(notSubscribed)")

        mock.setEmptyAudienceAnswer(.invalidAliases, appId: standard.appID)
        let invalid = await send(users: ["ghost", "ghost-2"])
        #expect(
            invalid.status == 200
                && invalid.json == [
                    "id": "", "external_id": nil, "errors": ["invalid_aliases": ["external_id": ["ghost", "ghost-2"]]],
                ],
            "\(invalid)")
        #expect(invalid.json?["recipients"] == nil)
        // Partly known: sent to the known, the others named.
        mock.subscribe(externalId: "user-1", appId: standard.appID)
        let partly = await send(users: ["user-1", "ghost"])
        #expect(partly.json?["recipients"] == 1 && partly.json?["id"]?.stringValue?.count == 36)
        #expect(partly.json?["errors"] == ["invalid_aliases": ["external_id": ["ghost"]]])
        // The choice is the app's: the VoIP app still answers the first way.
        #expect(await send(voip, users: ["ghost"]).json?["errors"] == ["All included players are not subscribed"])
        // App IDs are UUIDs: their case does not matter.
        #expect(mock.audience.devices(externalId: "user-1", appId: standard.appID.uppercased()) == 1)
        // Unsubscribing empties the audience again.
        #expect(mock.unsubscribe(externalId: "user-1", appId: standard.appID))
        #expect(await send(users: ["user-1"]).json?["id"] == "")
        mock.audience.reset()
        #expect(mock.audience.emptyAudienceAnswer(appId: standard.appID) == .notSubscribed)
    }

    @Test func aRepeatedIdempotencyKeyGetsTheFirstAnswerAndSendsNothing() async throws {
        mock.subscribe(externalId: "user-1", app: .standard)
        let key = "5f2b3a0e-8d7c-4e61-9a1b-0c3d4e5f6a7b"
        let first = await send(extra: [("idempotency_key", .string(key))])
        let id = try #require(first.json?["id"]?.stringValue)
        #expect(first.status == 200 && id.count == 36 && first.json?["recipients"] == 1)
        // The audience changed, but the retry answers as the first request did: same id, nothing new created.
        mock.subscribe(externalId: "user-1", app: .standard, devices: 3)
        let retry = await send(extra: [("idempotency_key", .string(key))])
        #expect(retry.status == 200 && retry.json == first.json, "\(retry)")
        let captures = log.captures { _ in true }
        #expect(captures.count == 2)
        #expect(captures.last?.detail?.contains("repeated idempotency_key") == true)
        // The older name of the key works the same; the key is the app's own: the VoIP app has not seen it.
        let older = await send(extra: [("external_id", .string(key))])
        #expect(older.json?["id"]?.stringValue == id)
        mock.subscribe(externalId: "user-1", app: .voip)
        let otherApp = await send(voip, extra: [("idempotency_key", .string(key))])
        #expect(otherApp.json?["id"]?.stringValue != id && otherApp.json?["recipients"] == 1)
        // Without a key every request is a new notification.
        let a = await send()
        let b = await send()
        #expect(a.json?["id"] != b.json?["id"])
    }

    @Test func anAppCanAnswerWithoutRecipientsAsTodaysAPIDoes() async {
        mock.subscribe(externalId: "user-1", app: .standard)
        #expect(mock.audience.answersRecipients(appId: standard.appID))
        mock.audience.setAnswersRecipients(false, appId: standard.appID)
        let reached = await send()
        #expect(
            reached.status == 200 && reached.json?["recipients"] == nil && reached.json?["id"]?.stringValue?.count == 36
        )
        let nobody = await send(users: ["ghost"])
        #expect(nobody.json?["recipients"] == nil && nobody.json?["id"] == "" && nobody.json?["errors"] != nil)
        // The VoIP app keeps the seed's shape.
        mock.subscribe(externalId: "user-1", app: .voip)
        #expect(await send(voip).json?["recipients"] == 1)
    }

    // MARK: Routes

    @Test func bothRoutesCreateAndTheNotificationCanBeViewed() async throws {
        mock.subscribe(externalId: "user-1", app: .voip, devices: 2)
        for path in ["/notifications", "/api/v1/notifications", "/api/v1/notifications/"] {
            #expect(await send(voip, path: path).json?["recipients"] == 2, "\(path)")
        }
        let id = try #require(await send(voip).json?["id"]?.stringValue)
        for prefix in ["/notifications/", "/api/v1/notifications/"] {
            let view = await mock.handle(
                HTTPRequest(
                    method: "GET", target: prefix + id + "?app_id=" + voip.appID,
                    headers: ["authorization": "Key \(voip.apiKey)"]))
            let json = try JSONValue.parse(view.body)
            #expect(
                view.status == 200 && json["id"]?.stringValue == id && json["successful"] == 2 && json["remaining"] == 0
            )
            #expect(json["contents"] == ["en": "Hello"])
        }
        let foreign = await mock.handle(
            HTTPRequest(
                method: "GET", target: "/notifications/\(id)?app_id=" + standard.appID,
                headers: ["authorization": "Key \(standard.apiKey)"]))
        #expect(foreign.status == 404)
        #expect(await send(path: "/v1/notifications").status == 404)
        #expect(await send(path: "/notifications", method: "PUT").status == 405)
        #expect(await send(path: "/players").status == 404)
    }

    // MARK: Captures and faults

    @Test func everyRequestIsCapturedWithTheKeyRedacted() async throws {
        mock.subscribe(externalId: "user-1", app: .standard)
        _ = await send()
        _ = await send(key: voip.apiKey)
        _ = await send(extra: [("ttl", "30")])
        let captures = log.captures(CaptureFilter(mock: .onesignal))
        #expect(
            captures.map(\.outcome) == [
                .accepted, .rejected(reason: OneSignalError.accessDenied.reason),
                .rejected(reason: "ttl must be an integer"),
            ])
        #expect(captures[0].json?["include_aliases"]?["external_id"] == ["user-1"])
        #expect(captures[0].response.status == 200 && captures[1].response.status == 403)
        for capture in captures {
            let rendered = capture.json(revealSecrets: false).serialized(pretty: false)
            #expect(!rendered.contains(standard.apiKey) && !rendered.contains(voip.apiKey))
            #expect(rendered.contains(#""mock":"onesignal""#))
        }
        #expect(captures[0].json(revealSecrets: true).serialized(pretty: false).contains(standard.apiKey))
    }

    @Test func aKeyInABackendsOutputIsRedacted() {
        let line = "sending with Authorization: Key \(standard.apiKey) failed; voip=\(voip.apiKey)."
        #expect(
            Redaction.redactingOutput(line) == "sending with Authorization: Key <redacted> failed; voip=<redacted>.")
        #expect(Redaction.redactingOutput("os_v2_app_ is the prefix") == "os_v2_app_ is the prefix")
    }

    @Test func aFaultPlanReplacesTheAnswer() async throws {
        mock.subscribe(externalId: "user-1", app: .standard)
        _ = try faults.install(
            FaultPlan(
                mock: .onesignal, times: 1, respond: FaultResponse(status: 429, message: "API rate limit exceeded"),
                retryAfter: 3))
        _ = try faults.install(FaultPlan(mock: .apns, respond: FaultResponse(status: 500)))
        let request = HTTPRequest(
            method: "POST", target: "/notifications", headers: ["authorization": "Key \(standard.apiKey)"],
            body: JSONValue.object([
                ("app_id", .string(standard.appID)), ("include_aliases", ["external_id": ["user-1"]]),
                ("contents", ["en": "x"]),
            ]).bytes())
        let faulted = await mock.handle(request)
        #expect(faulted.status == 429 && faulted.headers["retry-after"] == "3")
        #expect(try JSONValue.parse(faulted.body) == ["errors": ["API rate limit exceeded"]])
        // Once: the next request is judged normally (the APNs plan is not the OneSignal mock's).
        #expect(await mock.handle(request).status == 200)
        let captures = log.captures(CaptureFilter(mock: .onesignal))
        #expect(captures.first?.fault?.planID == "f1" && captures.last?.fault == nil)
        _ = try faults.install(FaultPlan(mock: .onesignal, times: 1, connection: .reset))
        #expect(await mock.handle(request).directive == .resetWithoutResponse)
    }
}

extension [UInt8] {
    fileprivate var string: String { String(decoding: self, as: UTF8.self) }
}
