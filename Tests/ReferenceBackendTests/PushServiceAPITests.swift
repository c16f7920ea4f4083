import Foundation
import HTTP
import JSON
import PushMocks
import ReferenceBackend
import TestSupport
import Testing

/// The reference push service's REST API over real sockets: the REST key in its three schemes, 403
/// for a wrong App ID or key, 400 with `errors` for malformed bodies, the not-subscribed answer, and
/// device registration.
@Suite(.serialized) struct PushServiceAPITests {
    static let phone = ReferenceAPIClient.apnsToken("ps-api-phone")
    static let voip = ReferenceAPIClient.apnsToken("ps-api-voip")
    static let normal: JSONValue = [
        "include_aliases": ["external_id": ["user-1"]], "headings": ["en": "Đơn hàng đã giao"],
        "contents": ["en": "Đơn #42 đã giao thành công"],
    ]

    @Test func theRESTKeyIsAcceptedAsKeyBasicAndBearerAndAnythingElseIs403() async throws {
        let stack = try await PushServiceStack.start()
        try await stack.registerDevice("user-1", platform: "ios", token: Self.phone, voipToken: Self.voip)
        for scheme in ["Key", "Basic", "Bearer", "key"] {
            let reply = try await stack.notify(Self.normal, authorization: "\(scheme) \(stack.apiKey)")
            #expect(reply.status == 200, "\(scheme)")
            #expect(!(reply["id"]?.stringValue ?? "").isEmpty && reply["external_id"] == .null)
        }
        for wrong in ["Key psk_wrong", "Key", "Token \(stack.apiKey)", "Key \(stack.apiKey)x"] {
            let reply = try await stack.notify(Self.normal, authorization: wrong)
            #expect(reply.status == 403, "\(wrong)")
            #expect(reply["errors"]?.arrayValue?.first?.stringValue != nil)
        }
        let none = try await stack.send(
            "POST", "/notifications", body: Self.normal.setting("app_id", to: .string(stack.appId)).bytes())
        #expect(none.status == 403)
        let otherApp = try await stack.notify(
            Self.normal.setting("app_id", to: .string(UUID().uuidString.lowercased())))
        #expect(otherApp.status == 403 && otherApp["errors"]?.arrayValue?.count == 1)
        // The GET takes the same key and App ID.
        let id = try #require(try await stack.notify(Self.normal)["id"]?.stringValue)
        #expect(try await stack.notification(id).status == 200)
        let wrongKey = try await stack.send(
            "GET", "/notifications/\(id)?app_id=\(stack.appId)", authorization: "Key psk_wrong")
        #expect(wrongKey.status == 403)
        let wrongApp = try await stack.send(
            "GET", "/notifications/\(id)?app_id=\(UUID().uuidString)", authorization: "Key \(stack.apiKey)")
        #expect(wrongApp.status == 403)
        #expect(
            try await stack.send(
                "GET", "/notifications/\(UUID().uuidString)?app_id=\(stack.appId)", authorization: "Key \(stack.apiKey)"
            ).status
                == 404)
        await stack.stop()
    }

    @Test func malformedNotificationsAre400WithErrorsAndSendNothing() async throws {
        let stack = try await PushServiceStack.start()
        try await stack.registerDevice("user-1", platform: "ios", token: Self.phone, voipToken: Self.voip)
        let audience: JSONValue = ["external_id": ["user-1"]]
        let call = PushServiceStack.call(["user-1"])
        let table: [(String, JSONValue)] = [
            ("no audience", ["contents": ["en": "x"]]),
            ("empty audience", ["include_aliases": ["external_id": []], "contents": ["en": "x"]]),
            ("audience not a list", ["include_aliases": ["external_id": "user-1"], "contents": ["en": "x"]]),
            ("nothing to say", ["include_aliases": audience]),
            ("contents not an object", ["include_aliases": audience, "contents": "x"]),
            ("headings with a number", ["include_aliases": audience, "contents": ["en": "x"], "headings": ["en": 1]]),
            ("data not an object", ["include_aliases": audience, "data": ["a"]]),
            ("ttl a string", ["include_aliases": audience, "contents": ["en": "x"], "ttl": "30"]),
            ("ttl negative", ["include_aliases": audience, "contents": ["en": "x"], "ttl": -1]),
            ("ttl too long", ["include_aliases": audience, "contents": ["en": "x"], "ttl": 2_419_201]),
            (
                "collapse id too long",
                [
                    "include_aliases": audience, "contents": ["en": "x"],
                    "collapse_id": .string(String(repeating: "c", count: 65)),
                ]
            ),
            ("badge type unknown", ["include_aliases": audience, "contents": ["en": "x"], "ios_badgeType": "Set"]),
            ("badge count a string", ["include_aliases": audience, "contents": ["en": "x"], "ios_badgeCount": "1"]),
            ("channel a number", ["include_aliases": audience, "contents": ["en": "x"], "android_channel_id": 1]),
            (
                "target channel email",
                ["include_aliases": audience, "contents": ["en": "x"], "target_channel": "email"]
            ),
            ("call not an object", ["include_aliases": audience, "call": "incoming"]),
            ("call action unknown", call.setting("call", to: call["call"]!.setting("action", to: "ringing"))),
            ("call id not a UUID", call.setting("call", to: call["call"]!.setting("id", to: "call-1"))),
            ("ended without id", call.setting("call", to: call["call"]!.setting("action", to: "ended"))),
            ("is_video a string", call.setting("call", to: call["call"]!.setting("is_video", to: "false"))),
            ("timeout a string", call.setting("call", to: call["call"]!.setting("timeout", to: "45"))),
            ("timeout zero", call.setting("call", to: call["call"]!.setting("timeout", to: 0))),
            ("caller_name a number", call.setting("call", to: call["call"]!.setting("caller_name", to: 7))),
        ]
        for (name, body) in table {
            let reply = try await stack.notify(body)
            #expect(reply.status == 400, "\(name)")
            #expect((reply["errors"]?.arrayValue?.count ?? 0) >= 1, "\(name)")
        }
        for raw in ["not json", "[1]", "{}", "{\"app_id\": 5}"] {
            let reply = try await stack.send(
                "POST", "/notifications", body: Array(raw.utf8), authorization: "Key \(stack.apiKey)")
            #expect(reply.status == 400 && reply["errors"]?.arrayValue != nil, "\(raw)")
        }
        await stack.server.waitUntilDeliveriesSettle()
        #expect(stack.pushes.isEmpty)
        await stack.stop()
    }

    @Test func nobodySubscribedIs200WithAnEmptyIdAndTheSeedsError() async throws {
        let stack = try await PushServiceStack.start()
        try await stack.registerDevice("user-1", platform: "android", token: "fcm-user-1")
        for body in [
            Self.normal.setting("include_aliases", to: ["external_id": ["nobody"]]), PushServiceStack.call(["nobody"]),
        ] {
            let reply = try await stack.notify(body)
            #expect(reply.status == 200)
            #expect(reply["id"] == "")
            #expect(reply["errors"] == ["All included players are not subscribed"])
        }
        await stack.server.waitUntilDeliveriesSettle()
        #expect(stack.pushes.isEmpty)
        await stack.stop()
    }

    @Test func devicesRegisterUpdateByTokenAndDelete() async throws {
        let stack = try await PushServiceStack.start()
        let first = try await stack.registerDevice("user-1", platform: "ios", token: Self.phone, sandbox: true)
        #expect(first.status == 200)
        let id = try #require(first["id"]?.stringValue)
        // The same (platform, token) again: the same device, now with a VoIP token and another user.
        let again = try await stack.registerDevice("user-2", platform: "ios", token: Self.phone, voipToken: Self.voip)
        #expect(again["id"]?.stringValue == id)
        let devices = try stack.server.store.allDevices(appId: stack.appId)
        #expect(devices.count == 1 && devices[0].externalId == "user-2" && devices[0].voipToken == Self.voip)
        #expect(devices[0].sandbox == false)
        // Malformed bodies.
        let bad: [JSONValue] = [
            ["platform": "ios", "token": .string(Self.phone)],
            ["external_id": "u", "platform": "windows", "token": "t"],
            ["external_id": "u", "platform": "android"],
            ["external_id": "u", "platform": "ios", "token": "not-hex"],
            ["external_id": "u", "platform": "android", "token": "t", "voipToken": .string(Self.voip)],
            ["external_id": "u", "platform": "ios", "token": .string(Self.phone), "sandbox": "yes"],
        ]
        for body in bad {
            let reply = try await stack.send("POST", "/api/v1/apps/\(stack.appId)/devices", body: body.bytes())
            #expect(reply.status == 400 && reply["errors"]?.arrayValue != nil, "\(body.serialized())")
        }
        let wrongApp = try await stack.send(
            "POST", "/api/v1/apps/\(UUID().uuidString)/devices",
            body: (["external_id": "u", "platform": "android", "token": "t"] as JSONValue).bytes())
        #expect(wrongApp.status == 403)
        #expect(try await stack.send("DELETE", "/api/v1/apps/\(stack.appId)/devices/\(id)").status == 200)
        #expect(try await stack.send("DELETE", "/api/v1/apps/\(stack.appId)/devices/\(id)").status == 404)
        #expect(try stack.server.store.allDevices(appId: stack.appId).isEmpty)
        await stack.stop()
    }

    @Test func theLogNamesNoKeyAndNoToken() async throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("push-\(UUID().uuidString).log").path
        defer { try? FileManager.default.removeItem(atPath: log) }
        let stack = try await PushServiceStack.start(logFile: log)
        try await stack.registerDevice("user-1", platform: "ios", token: Self.phone, voipToken: Self.voip)
        try await stack.registerDevice("user-1", platform: "android", token: "fcm-secret-token-user-1")
        let id = try #require(try await stack.notify(PushServiceStack.call(["user-1"]))["id"]?.stringValue)
        #expect(try await stack.notify(Self.normal, authorization: "Key psk_guess").status == 403)
        #expect(try await stack.settledNotification(id)["successful"] == 2)
        let key = stack.apiKey
        await stack.stop()
        let text = try String(contentsOfFile: log, encoding: .utf8)
        #expect(text.contains("push notification \(id)") && text.contains("api POST /notifications → 403"))
        for secret in [key, Self.phone, Self.voip, "fcm-secret-token-user-1", "psk_guess"] {
            #expect(!text.contains(secret))
        }
    }
}
