import Foundation
import HTTP
import JSON
import PushMocks
import ReferenceBackend
import TestSupport
import Testing

/// The reference push service in its alternate API shape, over real sockets: the same service behind `/v2`
/// routes and other member names; the seed's routes answer 404 and the seed's member names are not read.
@Suite(.serialized) struct PushServiceAlternateShapeTests {
    static let phone = ReferenceAPIClient.apnsToken("ps-alt-phone")
    static let voip = ReferenceAPIClient.apnsToken("ps-alt-voip")
    static let tablet = "fcm-ps-alt-tablet:APA91b" + String(repeating: "a", count: 40)

    func register(_ stack: PushServiceStack, _ body: JSONValue) async throws -> APIReply {
        try await stack.send("POST", "/v2/apps/\(stack.appId)/installations", body: body.bytes())
    }

    @Test func aCallGoesThroughTheAlternateRoutesAndNamesAsTheSeedsWould() async throws {
        let stack = try await PushServiceStack.start(apiShape: .alternate)
        let iphone = try await register(
            stack,
            ["externalId": "user-1", "os": "ios", "pushToken": .string(Self.phone), "pushKitToken": .string(Self.voip)])
        #expect(iphone.status == 200 && !(iphone["id"]?.stringValue ?? "").isEmpty, "\(iphone.json)")
        let tablet = try await register(
            stack, ["externalId": "user-1", "os": "android", "pushToken": .string(Self.tablet)])
        #expect(tablet.status == 200)
        let call: JSONValue = [
            "appId": .string(stack.appId), "audience": ["externalId": ["user-1"]],
            "call": ["action": "incoming", "id": "", "callerName": "Nguyễn Văn A", "video": true, "timeout": 45],
        ]
        let reply = try await stack.send(
            "POST", "/v2/messages", body: call.bytes(), authorization: "Key \(stack.apiKey)")
        #expect(reply.status == 200 && reply["externalId"] == .null, "\(reply.json)")
        let id = try #require(reply["id"]?.stringValue)
        await stack.server.waitUntilDeliveriesSettle()
        let counts = try await stack.send(
            "GET", "/v2/messages/\(id)?appId=\(stack.appId)", authorization: "Key \(stack.apiKey)")
        #expect(counts.status == 200)
        #expect(counts["delivered"] == 2 && counts["rejected"] == 0 && counts["pending"] == 0, "\(counts.json)")
        #expect(counts["completedAt"]?.int64Value != nil && counts["successful"] == nil)
        let pushes = stack.pushes
        let apns = try #require(pushes.first { $0.mock == .apns })
        #expect(apns.deviceToken == Self.voip && apns.headers["apns-push-type"] == "voip")
        for push in pushes {
            #expect(push.callMembers["caller_name"] == "Nguyễn Văn A" && push.callMembers["is_video"] == "true")
        }
        await stack.stop()
    }

    @Test func theSeedsRoutesAre404AndItsMemberNamesAreNotRead() async throws {
        let stack = try await PushServiceStack.start(apiShape: .alternate)
        let seedDevice = try await stack.registerDevice("user-1", platform: "android", token: Self.tablet)
        #expect(seedDevice.status == 404)
        #expect(try await stack.notify(["contents": ["en": "x"]]).status == 404)
        #expect(try await stack.notification(UUID().uuidString).status == 404)
        // The alternate route with the seed's names: external_id, platform and token are unknown members here.
        let seedNames = try await register(
            stack, ["external_id": "user-1", "platform": "android", "token": .string(Self.tablet)])
        #expect(seedNames.status == 400 && (seedNames["problems"]?.arrayValue?.count ?? 0) >= 3, "\(seedNames.json)")
        let seedNotify = try await stack.send(
            "POST", "/v2/messages",
            body: (["app_id": .string(stack.appId), "contents": ["en": "x"]] as JSONValue).bytes(),
            authorization: "Key \(stack.apiKey)")
        #expect(seedNotify.status == 400 && seedNotify["errors"] == nil && seedNotify["problems"] != nil)
        await stack.stop()
    }

    @Test func serveReferenceTakesTheShapeAndRefusesAnUnknownOne() async throws {
        let result = try await RingcheckBinary.run([
            "serve-reference", "--profile", "push-service", "--api-shape", "node",
        ])
        #expect(result.status == 2)
        #expect(
            result.stderr.contains("unknown --api-shape 'node' for --profile push-service; use reference or alternate"))
    }
}
