import Foundation
import HTTP
import JSON
import PushMocks
import ReferenceBackend
import TestSupport
import Testing

/// The wake-up reference backend over real sockets against the mocks: a signed
/// `call.mobile_push_wakeup` wakes every device of `data.user_id` with exactly the seed's pushes,
/// and nothing else wakes anyone.
@Suite(.serialized) struct DialStackWebhookTests {
    static let sandboxPhone = ReferenceAPIClient.apnsToken("ds-b-phone-sandbox")
    static let productionPhone = ReferenceAPIClient.apnsToken("ds-b-phone-production")
    static let tablet = "fcm-ds-b-tablet:APA91b" + String(repeating: "t", count: 40)
    static let otherPhone = ReferenceAPIClient.apnsToken("ds-c-phone")
    static let otherTablet = "fcm-ds-c-tablet:APA91b" + String(repeating: "c", count: 40)

    /// user-b with a sandbox iPhone, a production iPhone and an Android tablet; user-c with one of each.
    static func registerDevices(_ stack: DialStackReferenceStack) async throws {
        let api = stack.api
        #expect(
            try await api.registerAPNs(
                "user-b", installation: "b-phone", token: sandboxPhone, environment: "sandbox", appId: stack.appId
            ).status == 200)
        #expect(
            try await api.registerAPNs(
                "user-b", installation: "b-phone-2", token: productionPhone, environment: "production",
                appId: stack.appId
            ).status == 200)
        #expect(
            try await api.registerFCM("user-b", installation: "b-tablet", token: tablet, appId: stack.appId).status
                == 200)
        #expect(
            try await api.registerAPNs(
                "user-c", installation: "c-phone", token: otherPhone, environment: "sandbox", appId: stack.appId
            ).status == 200)
        #expect(
            try await api.registerFCM("user-c", installation: "c-tablet", token: otherTablet, appId: stack.appId).status
                == 200)
    }

    static func callId() -> String { "call_" + UUID().uuidString.lowercased() }

    @Test func aWakeUpPushesEveryDeviceOfTheUserWithTheSeedsPushes() async throws {
        let stack = try await DialStackReferenceStack.start()
        try await Self.registerDevices(stack)
        let callId = Self.callId()
        let sentMs = SystemClock.milliseconds()
        #expect(try await stack.postSigned(DialStackReferenceStack.event(callId: callId).bytes()) == 200)
        let pushes = await stack.waitForPushes(callId: callId, count: 3)
        await stack.server.waitUntilPushesSettle()
        try #require(pushes.count == 3)
        #expect(pushes.allSatisfy { $0.outcome == .accepted })
        // Every device of user-b, none of user-c's.
        #expect(
            Set(stack.allPushes.compactMap(\.deviceToken)) == [Self.sandboxPhone, Self.productionPhone, Self.tablet])

        let apns = pushes.filter { $0.mock == .apns }
        #expect(Set(apns.compactMap(\.environment)) == [.sandbox, .production])
        for push in apns {
            let token = push.environment == .sandbox ? Self.sandboxPhone : Self.productionPhone
            #expect(push.method == "POST" && push.path == "/3/device/\(token)")
            #expect(push.headers["apns-push-type"] == "voip")
            #expect(push.headers["apns-topic"] == stack.appId + ".voip")
            #expect(push.headers["apns-priority"] == "10")
            #expect(push.headers["authorization"]?.hasPrefix("bearer ") == true)
            // now + 30 s when the backend made it: between the webhook's sending and the push's arrival.
            let expiration = try #require(push.headers["apns-expiration"].flatMap { Int64($0) })
            #expect(expiration >= sentMs / 1000 + 30 && expiration <= push.arrivalMs / 1000 + 30)
            #expect(
                push.json
                    == [
                        "call_id": .string(callId), "from_number": "+14155551234", "from_name": "John Smith",
                        "to_number": "+14155559876",
                    ])
        }

        let fcm = try #require(pushes.first { $0.mock == .fcm })
        #expect(fcm.path == "/v1/projects/\(stack.mocks.settings.fcmProjectID)/messages:send")
        #expect(fcm.headers["authorization"]?.hasPrefix("Bearer ") == true)
        #expect(
            fcm.json
                == [
                    "message": [
                        "token": .string(Self.tablet), "android": ["priority": "high", "ttl": "30s"],
                        "data": [
                            "type": "call.mobile_push_wakeup", "call_id": .string(callId),
                            "from_number": "+14155551234",
                            "from_name": "John Smith", "to_number": "+14155559876",
                        ],
                    ]
                ])
        #expect(fcm.fcm?.priority == "HIGH" && fcm.fcm?.ttlSeconds == 30 && fcm.fcm?.hasNotification == false)
        await stack.stop()
    }

    @Test func aCallerWithoutANameGetsAnEmptyFromNameOnAndroid() async throws {
        let stack = try await DialStackReferenceStack.start()
        try await Self.registerDevices(stack)
        let callId = Self.callId()
        #expect(try await stack.postSigned(DialStackReferenceStack.event(callId: callId, fromName: nil).bytes()) == 200)
        let pushes = await stack.waitForPushes(callId: callId, count: 3)
        let fcm = try #require(pushes.first { $0.mock == .fcm })
        #expect(fcm.fcm?.data["from_name"] == "")
        let apns = try #require(pushes.first { $0.mock == .apns })
        #expect(apns.json?.objectValue?.map(\.key) == ["call_id", "from_number", "to_number"])
        await stack.stop()
    }

    /// Bodies in valid but unusual formatting are verified over their raw bytes, and the header is
    /// read as the seed reads it (parts in any order, unknown parts ignored).
    @Test func unusualBodiesAndHeadersStillVerify() async throws {
        let stack = try await DialStackReferenceStack.start()
        try await Self.registerDevices(stack)
        let spaced = Self.callId()
        let escaped = Self.callId()
        let bodies: [(String, [UInt8])] = [
            (
                spaced,
                Array(
                    """
                    {
                      "type" : "call.mobile_push_wakeup",   "id":"evt_\(spaced)",
                      "data": { "to_number": "+14155559876", "user_id": "user-b", "call_id": "\(spaced)",
                                "from_number": "+14155551234", "from_name": "Zoë Ünal 👋" }
                    }

                    """.utf8)
            ),
            (
                escaped,
                Array(
                    #"{"id":"evt_\#(escaped)","type":"call.mobile_push_wakeup","data":{"call_id":"\#(escaped)","user_id":"user\u002db","from_name":"J\u00f6rg \"JJ\" O\/Neil","from_number":"+14155551234","to_number":"+14155559876"}}"#
                        .utf8)
            ),
        ]
        for (_, body) in bodies { #expect(try await stack.postSigned(body) == 200) }
        let first = await stack.waitForPushes(callId: spaced, count: 3)
        #expect(first.count == 3)
        #expect(first.first { $0.mock == .fcm }?.fcm?.data["from_name"] == "Zoë Ünal 👋")
        let second = await stack.waitForPushes(callId: escaped, count: 3)
        #expect(second.count == 3)
        #expect(second.first { $0.mock == .apns }?.json?["from_name"] == #"Jörg "JJ" O/Neil"#)

        let reordered = Self.callId()
        let body = DialStackReferenceStack.event(callId: reordered).bytes()
        let t = Int64(Date().timeIntervalSince1970)
        let v1 = WebhookSignature.signature(secret: stack.secret, timestamp: String(t), body: body)
        #expect(try await stack.postWebhook(body, signatures: ["v1=\(v1),t=\(t),v0=deadbeef"]) == 200)
        #expect(await stack.waitForPushes(callId: reordered, count: 3).count == 3)
        await stack.stop()
    }

    @Test func everyBadSignatureIsRefusedAndWakesNobody() async throws {
        let stack = try await DialStackReferenceStack.start()
        try await Self.registerDevices(stack)
        let now = Int64(Date().timeIntervalSince1970)
        var refused: [String] = []
        func expectRefused(_ label: String, _ body: (String) -> [UInt8], signatures: (String, [UInt8]) -> [String])
            async throws
        {
            let callId = Self.callId()
            let bytes = body(callId)
            let status = try await stack.postWebhook(bytes, signatures: signatures(callId, bytes))
            #expect(status == 401, "\(label): \(status)")
            refused.append(callId)
        }
        let plain: (String) -> [UInt8] = { DialStackReferenceStack.event(callId: $0).bytes() }
        let secret = stack.secret
        func v1(_ t: Int64, _ body: [UInt8], secret: String = secret) -> String {
            WebhookSignature.signature(secret: secret, timestamp: String(t), body: body)
        }
        try await expectRefused("wrong secret", plain) { _, b in
            [WebhookSignature.header(secret: "whsec_wrong", timestamp: now, body: b)]
        }
        try await expectRefused("no header", plain) { _, _ in [] }
        try await expectRefused("empty header", plain) { _, _ in [""] }
        try await expectRefused("not t=,v1=", plain) { _, b in [v1(now, b)] }
        try await expectRefused("no v1", plain) { _, _ in ["t=\(now)"] }
        try await expectRefused("no t", plain) { _, b in ["v1=\(v1(now, b))"] }
        try await expectRefused("empty parts", plain) { _, _ in ["t=,v1="] }
        try await expectRefused("spaces after the comma", plain) { _, b in ["t=\(now), v1=\(v1(now, b))"] }
        try await expectRefused("t not a number", plain) { _, b in ["t=soon,v1=\(v1(now, b))"] }
        try await expectRefused("upper-case hex", plain) { _, b in ["t=\(now),v1=\(v1(now, b).uppercased())"] }
        try await expectRefused("truncated v1", plain) { _, b in ["t=\(now),v1=\(v1(now, b).dropLast(2))"] }
        try await expectRefused("stale", plain) { _, b in ["t=\(now - 400),v1=\(v1(now - 400, b))"] }
        try await expectRefused("future", plain) { _, b in ["t=\(now + 400),v1=\(v1(now + 400, b))"] }
        try await expectRefused("signed for another t", plain) { _, b in ["t=\(now),v1=\(v1(now - 1, b))"] }
        try await expectRefused("body changed after signing", plain) { _, b in
            var signed = b
            signed[signed.count - 2] = UInt8(ascii: " ")  // the same JSON, one byte different
            return [WebhookSignature.header(secret: secret, timestamp: now, body: signed)]
        }

        // A good one afterwards rings; once every push the backend started is done, none was for the others.
        let good = Self.callId()
        #expect(try await stack.postSigned(DialStackReferenceStack.event(callId: good).bytes()) == 200)
        #expect(await stack.waitForPushes(callId: good, count: 3).count == 3)
        await stack.server.waitUntilPushesSettle()
        for callId in refused { #expect(stack.pushes(callId: callId).isEmpty) }
        #expect(stack.allPushes.count == 3)
        await stack.stop()
    }

    @Test func ringingAndIncomingAreAcknowledgedAndWakeNobody() async throws {
        let stack = try await DialStackReferenceStack.start()
        try await Self.registerDevices(stack)
        var quiet: [String] = []
        for type in ["call.ringing", "call.incoming", "call.ended", "account.updated"] {
            let callId = Self.callId()
            #expect(
                try await stack.postSigned(DialStackReferenceStack.event(type: type, callId: callId).bytes()) == 200)
            quiet.append(callId)
        }
        // A wake-up without data.user_id wakes nobody either.
        let noUser = Self.callId()
        #expect(try await stack.postSigned(DialStackReferenceStack.event(callId: noUser, userId: "").bytes()) == 200)
        quiet.append(noUser)
        let good = Self.callId()
        #expect(try await stack.postSigned(DialStackReferenceStack.event(callId: good).bytes()) == 200)
        #expect(await stack.waitForPushes(callId: good, count: 3).count == 3)
        await stack.server.waitUntilPushesSettle()
        for callId in quiet { #expect(stack.pushes(callId: callId).isEmpty) }
        await stack.stop()
    }

    @Test func aRedeliveredEventDoesNotRingAgain() async throws {
        let stack = try await DialStackReferenceStack.start()
        try await Self.registerDevices(stack)
        let callId = Self.callId()
        let event = DialStackReferenceStack.event(id: "evt_redelivered_\(callId)", callId: callId)
        #expect(try await stack.postSigned(event.bytes()) == 200)
        #expect(await stack.waitForPushes(callId: callId, count: 3).count == 3)
        // DialStack's retry: the same event, signed again later, formatted alike or not.
        #expect(
            try await stack.postWebhook(event.bytes(), signatures: [stack.signature(event.bytes(), offsetSeconds: 5)])
                == 200)
        #expect(try await stack.postSigned(Array(event.serialized(pretty: true).utf8)) == 200)
        await stack.server.waitUntilPushesSettle()
        #expect(stack.pushes(callId: callId).count == 3)
        await stack.stop()
    }

    /// An event without `id` (or with an empty one) is known by its content: the same delivery replayed inside the
    /// signature's 300 s window, signed again or formatted otherwise, does not ring again; an event that differs (a
    /// later `created_at`: DialStack woke the user again, or another call) rings.
    @Test func anEventWithoutIdIsKnownByItsContent() async throws {
        let stack = try await DialStackReferenceStack.start()
        try await Self.registerDevices(stack)
        let callId = Self.callId()
        let event = JSONValue.object(
            (DialStackReferenceStack.event(callId: callId).objectValue ?? []).filter { $0.key != "id" })
        let body = event.bytes()
        let signed = stack.signature(body)
        #expect(try await stack.postWebhook(body, signatures: [signed]) == 200)
        #expect(await stack.waitForPushes(callId: callId, count: 3).count == 3)
        #expect(try await stack.postWebhook(body, signatures: [signed]) == 200)
        #expect(try await stack.postWebhook(body, signatures: [stack.signature(body, offsetSeconds: 5)]) == 200)
        #expect(try await stack.postSigned(Array(event.serialized(pretty: true).utf8)) == 200)
        await stack.server.waitUntilPushesSettle()
        #expect(stack.pushes(callId: callId).count == 3)

        let later = event.setting("created_at", to: "2026-04-10T14:30:20Z")
        #expect(try await stack.postSigned(later.bytes()) == 200)
        #expect(await stack.waitForPushes(callId: callId, count: 6).count == 6)
        // Two calls whose events carry "id": "" are two events.
        for other in [Self.callId(), Self.callId()] {
            #expect(try await stack.postSigned(DialStackReferenceStack.event(id: "", callId: other).bytes()) == 200)
            #expect(await stack.waitForPushes(callId: other, count: 3).count == 3)
        }
        await stack.server.waitUntilPushesSettle()
        #expect(stack.pushes(callId: callId).count == 6)
        await stack.stop()
    }

    @Test func aDeletedTokenIsNotWokenAndAnotherUsersInstallationIsRefused() async throws {
        let stack = try await DialStackReferenceStack.start()
        try await Self.registerDevices(stack)
        #expect(
            try await stack.api.send("DELETE", "/v1/installations/b-phone/push-tokens/apnsVoip", as: "user-b").status
                == 204)
        #expect(
            try await stack.api.send("DELETE", "/v1/installations/c-phone/push-tokens/apnsVoip", as: "user-b").status
                == 403)
        #expect(try await stack.api.send("DELETE", "/v1/installations/b-tablet/push-tokens/fcm", as: nil).status == 401)
        #expect(
            try await stack.api.send("PUT", "/v1/installations/b-x/push-tokens/fcm", as: "user-b", body: ["appId": "x"])
                .status == 400)
        let callId = Self.callId()
        #expect(try await stack.postSigned(DialStackReferenceStack.event(callId: callId).bytes()) == 200)
        #expect(await stack.waitForPushes(callId: callId, count: 2).count == 2)
        await stack.server.waitUntilPushesSettle()
        #expect(Set(stack.pushes(callId: callId).compactMap(\.deviceToken)) == [Self.productionPhone, Self.tablet])
        await stack.stop()
    }

    @Test func temporaryProviderFailuresAreRetriedAndDeadTokensDropped() async throws {
        let stack = try await DialStackReferenceStack.start()
        try await Self.registerDevices(stack)
        _ = try stack.mocks.faults.install(
            FaultPlan(
                mock: .apns, deviceToken: Self.productionPhone, times: 1,
                respond: FaultResponse(status: 503, reason: "ServiceUnavailable")))
        _ = try stack.mocks.faults.install(
            FaultPlan(
                mock: .fcm, deviceToken: Self.tablet, respond: FaultResponse(status: 404, errorCode: "UNREGISTERED")))
        let callId = Self.callId()
        #expect(try await stack.postSigned(DialStackReferenceStack.event(callId: callId).bytes()) == 200)
        _ = await stack.waitForPushes(callId: callId, count: 4)
        await stack.server.waitUntilPushesSettle()
        let production = stack.pushes(callId: callId).filter { $0.deviceToken == Self.productionPhone }
        #expect(production.map(\.outcome) == [.rejected(reason: "ServiceUnavailable"), .accepted])
        #expect(stack.pushes(callId: callId).filter { $0.deviceToken == Self.tablet }.count == 1)
        #expect(!stack.server.api.tokens.devices(ofUser: "user-b").contains { $0.token == Self.tablet })
        await stack.stop()
    }

    @Test func theLogNamesNoSecretAndNoToken() async throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("wakeup-\(UUID().uuidString).log").path
        defer { try? FileManager.default.removeItem(atPath: log) }
        let stack = try await DialStackReferenceStack.start(logFile: log)
        try await Self.registerDevices(stack)
        let callId = Self.callId()
        let body = DialStackReferenceStack.event(callId: callId).bytes()
        #expect(try await stack.postSigned(body) == 200)
        #expect(try await stack.postWebhook(body, signatures: ["t=1,v1=00"]) == 401)
        #expect(await stack.waitForPushes(callId: callId, count: 3).count == 3)
        await stack.server.waitUntilPushesSettle()
        await stack.stop()
        let text = try String(contentsOfFile: log, encoding: .utf8)
        #expect(text.contains("wake-up push event") && text.contains("webhook refused"))
        #expect(text.contains("api PUT /v1/installations/b-phone/push-tokens/apnsVoip → 200"))
        let signature = WebhookSignature.signature(secret: stack.secret, timestamp: "1", body: body)
        for secret in [stack.secret, Self.sandboxPhone, Self.productionPhone, Self.tablet, signature] {
            #expect(!text.contains(secret))
        }
    }
}
