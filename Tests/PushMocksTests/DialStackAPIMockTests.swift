import HTTP
import JSON
import PushMocks
import Testing

/// The DialStack API mock answering in process: every reasonable shape of `users.update` is accepted and recorded
/// (user, account, flag), a missing key is 401, a malformed body 400 with the parse error, another path 404.
@Suite struct DialStackAPIMockTests {
    let log = CaptureLog()
    let faults = FaultPlans()
    let mock: DialStackAPIMock

    init() {
        mock = DialStackAPIMock(apiKey: "sk_test_mock", log: log, faults: faults, clock: .fixed(1_800_000_000_000))
    }

    func send(
        _ method: String = "PATCH", _ target: String = "/v1/users/user_1", body: String = "",
        headers: [(String, String)] = [("authorization", "Bearer sk_test_mine"), ("content-type", "application/json")]
    ) async -> (status: Int, json: JSONValue?) {
        var h = HTTPHeaders()
        for (name, value) in headers { h.add(name, value) }
        let response = await mock.handle(
            HTTPRequest(method: method, target: target, authority: "127.0.0.1:1", headers: h, body: Array(body.utf8)))
        return (response.status, try? JSONValue.parse(response.body))
    }

    @Test func theSeedsCallEnablesTheFlagAndAnswersTheUser() async throws {
        let r = await send(
            body: #"{"config": {"mobile_push_wakeup": true}}"#,
            headers: [
                ("authorization", "Bearer sk_live_x"), ("content-type", "application/json"),
                ("dialstack-account", "acct_1"),
            ])
        #expect(r.status == 200)
        #expect(
            r.json
                == [
                    "id": "user_1", "object": "user", "account": "acct_1", "config": ["mobile_push_wakeup": true],
                ])
        #expect(mock.mobilePushWakeup(userId: "user_1", account: "acct_1"))
        let capture = try #require(log.captures(where: { $0.mock == .dialstack }).first)
        #expect(capture.outcome.isAccepted)
        #expect(capture.detail == "users.update user user_1 (account acct_1): mobile_push_wakeup true")
        #expect(
            DialStackUserUpdate(capture)
                == DialStackUserUpdate(
                    userId: "user_1", account: "acct_1", mobilePushWakeup: true, isUpdate: true))
        // The key never shows in a rendered capture.
        #expect(!capture.json(revealSecrets: false).serialized().contains("sk_live_x"))
    }

    @Test func everyReasonableShapeIsAccepted() async {
        let shapes: [(String, String, String, [(String, String)], String?)] = [
            ("POST", "/users/u2", #"{"config":{"mobile_push_wakeup":true}}"#, [], nil),
            (
                "PUT", "/api/v1/users/u3", #"{"mobile_push_wakeup":"true"}"#, [("x-dialstack-account", "acct_3")],
                "acct_3"
            ),
            ("PATCH", "/v1/accounts/acct_4/users/u4", #"{"config":{"mobile_push_wakeup":true}}"#, [], "acct_4"),
            ("PATCH", "/v1/users/u5/config", #"{"mobile_push_wakeup":true}"#, [], nil),
            (
                "POST", "/v1/users/u6?account=acct_6", "config%5Bmobile_push_wakeup%5D=true",
                [
                    ("content-type", "application/x-www-form-urlencoded")
                ], "acct_6"
            ),
            (
                "PATCH", "/v1/users/u7", #"{"config":{"mobile_push_wakeup":true},"dialstackAccount":"acct_7"}"#, [],
                "acct_7"
            ),
        ]
        for (method, target, body, extra, account) in shapes {
            var headers = [("authorization", "Bearer k")]
            if !extra.contains(where: { $0.0 == "content-type" }) {
                headers.append(("content-type", "application/json"))
            }
            let r = await send(method, target, body: body, headers: headers + extra)
            #expect(r.status == 200, "\(method) \(target): \(r)")
            #expect(r.json?["config"]?["mobile_push_wakeup"] == .bool(true), "\(method) \(target)")
            #expect(r.json?["account"] == (account.map { .string($0) } ?? .null), "\(method) \(target)")
        }
        let recorded = log.captures(where: { $0.mock == .dialstack }).compactMap(DialStackUserUpdate.init)
        #expect(recorded.map(\.userId) == ["u2", "u3", "u4", "u5", "u6", "u7"])
        #expect(recorded.allSatisfy { $0.mobilePushWakeup == true })
        // Read back, and turned off again.
        #expect(await send("GET", "/v1/users/u2").json?["config"]?["mobile_push_wakeup"] == .bool(true))
        #expect(await send(body: #"{"config":{"mobile_push_wakeup":false}}"#).status == 200)
        #expect(!mock.mobilePushWakeup(userId: "user_1"))
    }

    @Test func badRequestsGetClearErrors() async {
        let noKey = await send(body: #"{"config":{"mobile_push_wakeup":true}}"#, headers: [])
        #expect(noKey.status == 401 && noKey.json?["error"]?["type"] == "authentication_error")
        let malformed = await send(body: #"{"config": {"mobile_push_wakeup": tru"#)
        #expect(malformed.status == 400)
        #expect(malformed.json?["error"]?["message"]?.stringValue?.hasPrefix("the body is not valid JSON") == true)
        #expect(await send(body: "[1]").status == 400)
        let notBool = await send(body: #"{"config":{"mobile_push_wakeup":1}}"#)
        #expect(notBool.status == 400, "\(notBool)")
        #expect(await send("PATCH", "/v1/accounts/acct_1", body: "{}").status == 404)
        #expect(await send("DELETE", "/v1/users/u1").status == 405)
        // Every refusal is recorded too, with its reason.
        let refused = log.captures(where: { $0.mock == .dialstack && !$0.outcome.isAccepted })
        #expect(refused.count == 6)
    }

    @Test func aFaultPlanFailsTheCall() async throws {
        _ = try faults.install(
            FaultPlan(json: JSONValue.parse(#"{"mock":"dialstack","respond":{"status":503,"message":"down"}}"#)))
        let r = await send(body: #"{"config":{"mobile_push_wakeup":true}}"#)
        #expect(r.status == 503 && r.json?["error"]?["message"] == "down")
    }
}
