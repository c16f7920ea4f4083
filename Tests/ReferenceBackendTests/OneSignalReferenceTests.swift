import Foundation
import HTTP
import JSON
import ReferenceBackend
import Synchronization
import Testing

/// The kit server against a tiny OneSignal double (plain HTTP on a free port): which app and body each helper
/// sends, delivery as `recipients >= 1`, no request at all when unconfigured, and each defect breaking its rule.
@Suite struct OneSignalReferenceTests {
    /// Records every request and answers `recipients` as set.
    final class Double: Sendable {
        final class State: Sendable {
            let requests = Mutex<[(authorization: String?, path: String, body: JSONValue)]>([])
            let recipients = Mutex(1)
        }
        let state = State()
        let server: HTTPServer

        init() throws {
            let state = self.state
            server = HTTPServer(
                configuration: .init(host: "127.0.0.1", port: 0, loopCount: 1),
                handler: ClosureHandler { request in
                    let body = (try? JSONValue.parse(request.body)) ?? .null
                    state.requests.withLock {
                        $0.append((request.headers["authorization"], request.path, body))
                    }
                    let n = state.recipients.withLock { $0 }
                    let answer: JSONValue =
                        n > 0
                        ? ["id": "6f0e1c4e-0000-4000-8000-000000000001", "external_id": nil, "recipients": .int(n)]
                        : ["id": "", "errors": ["All included players are not subscribed"], "recipients": 0]
                    return .json(200, answer.bytes())
                })
            try server.start()
        }

        var url: String { "http://127.0.0.1:\(server.port)/api/v1" }
        var last: (authorization: String?, path: String, body: JSONValue)? { state.requests.withLock { $0.last } }
        var count: Int { state.requests.withLock { $0.count } }
        func answer(recipients n: Int) { state.recipients.withLock { $0 = n } }
    }

    static let standard = OneSignalAppCredentials(id: "app-standard", key: "key-standard")
    static let voip = OneSignalAppCredentials(id: "app-voip", key: "key-voip")

    static func kit(_ double: Double, configured: Bool = true, defects: Set<OneSignalDefect> = []) throws
        -> OneSignalServer
    {
        let configuration = OneSignalConfiguration(
            standardApp: configured ? standard : nil, voipApp: configured ? voip : nil, apiURL: double.url,
            defects: defects)
        let server = try OneSignalServer(options: .init(configuration: configuration))
        try server.start()
        return server
    }

    static func post(_ kit: OneSignalServer, _ path: String, _ body: JSONValue) async throws -> (Int, JSONValue) {
        let client = try HTTPClient()
        defer { client.shutdown() }
        let r = try await client.send(.post(kit.baseURL + path, body: body.bytes()))
        return (r.status, (try? JSONValue.parse(r.body)) ?? .null)
    }

    @Test func aUserPushGoesThroughTheStandardAppToTheExternalId() async throws {
        let double = try Double()
        defer { double.server.stop() }
        let kit = try Self.kit(double)
        let (status, answer) = try await Self.post(
            kit, "/push/user",
            [
                "userId": "user-1", "title": "Ride", "body": "2 min", "data": ["rideId": "r1"],
                "options": ["priority": 10, "ttl": 60, "contentAvailable": true, "collapseId": "c1"],
            ])
        await kit.stop()
        #expect(status == 200 && answer["delivered"] == .bool(true))
        let sent = try #require(double.last)
        #expect(sent.path == "/api/v1/notifications")
        #expect(sent.authorization == "Key key-standard")
        #expect(sent.body["app_id"] == "app-standard")
        #expect(sent.body.value(atPath: "include_aliases.external_id") == ["user-1"])
        #expect(sent.body.value(atPath: "headings.en") == "Ride" && sent.body.value(atPath: "contents.en") == "2 min")
        #expect(sent.body["data"] == ["rideId": "r1"])
        #expect(sent.body["priority"] == 10 && sent.body["ttl"] == 60)
        #expect(sent.body["content_available"] == true && sent.body["collapse_id"] == "c1")
    }

    @Test func aVoipPushGoesThroughTheVoipAppWithCallDefaultsAndDataOnly() async throws {
        let double = try Double()
        defer { double.server.stop() }
        let kit = try Self.kit(double)
        let (_, answer) = try await Self.post(kit, "/push/voip", ["userId": "user-1", "data": ["callId": "c"]])
        await kit.stop()
        #expect(answer["delivered"] == .bool(true))
        let sent = try #require(double.last)
        #expect(sent.authorization == "Key key-voip" && sent.body["app_id"] == "app-voip")
        #expect(sent.body["apns_push_type_override"] == "voip")
        #expect(sent.body["content_available"] == true && sent.body["ttl"] == 30)
        #expect(sent.body["headings"] == nil && sent.body["contents"] == nil)
    }

    @Test func zeroRecipientsIsNotDelivered() async throws {
        let double = try Double()
        defer { double.server.stop() }
        double.answer(recipients: 0)
        let kit = try Self.kit(double)
        let (_, answer) = try await Self.post(kit, "/push/user", ["userId": "u", "title": "t", "body": "b"])
        await kit.stop()
        #expect(answer["delivered"] == .bool(false))
        #expect(double.count == 1)
    }

    @Test func unconfiguredSendsNothingAndIsNotDelivered() async throws {
        let double = try Double()
        defer { double.server.stop() }
        let kit = try Self.kit(double, configured: false)
        for (path, body) in [
            ("/push/user", ["userId": "u", "title": "t", "body": "b"] as JSONValue),
            ("/push/broadcast", ["title": "t", "body": "b"]),
            ("/push/voip", ["userId": "u"]),
        ] {
            let (status, answer) = try await Self.post(kit, path, body)
            #expect(status == 200 && answer["delivered"] == .bool(false), "\(path)")
        }
        await kit.stop()
        #expect(double.count == 0)
    }

    @Test func configurationComesFromTheSeedsVariables() {
        let c = OneSignalConfiguration(environment: [
            "ONESIGNAL_APP_ID": "a", "ONESIGNAL_API_KEY": "k", "ONESIGNAL_VOIP_APP_ID": "",
            "ONESIGNAL_API_URL": "https://x/",
        ])
        #expect(c.standardApp == OneSignalAppCredentials(id: "a", key: "k") && c.voipApp == nil)
        #expect(c.notificationsURL == "https://x/notifications")
        #expect(!OneSignalConfiguration(environment: ["ONESIGNAL_APP_ID": "a"]).isConfigured)
        #expect(OneSignalConfiguration(environment: [:]).apiURL == "https://onesignal.com/api/v1")
    }

    @Test func aMalformedRequestIs400() async throws {
        let double = try Double()
        defer { double.server.stop() }
        let kit = try Self.kit(double)
        let (status, _) = try await Self.post(kit, "/push/user", ["title": "t", "body": "b", "options": ["ttl": "30"]])
        await kit.stop()
        #expect(status == 400 && double.count == 0)
    }

    /// Each defect changes exactly its rule's part of the request or answer.
    @Test(arguments: OneSignalDefect.allCases) func eachDefectBreaksItsRule(_ defect: OneSignalDefect)
        async throws
    {
        let double = try Double()
        defer { double.server.stop() }
        if defect == .deliveredOnZero { double.answer(recipients: 0) }
        let kit = try Self.kit(double, configured: defect != .sendWhenUnconfigured, defects: [defect])
        let voip = [
            .voipThroughStandardApp, .headingsOnVoip, .ttlDefault, .voipNoContentAvailable, .voipPushTypeAlert,
            .voipDefaultsOverOptions,
        ].contains(defect)
        let options: JSONValue =
            switch defect {
            case .refuseTTLOption: ["priority": 10, "collapseId": "c", "ttl": 60]
            case .dropFalsyOptions: ["priority": 10, "collapseId": "c", "ttl": 0, "contentAvailable": false]
            case .voipDefaultsOverOptions: ["apnsPushTypeOverride": "background", "contentAvailable": false, "ttl": 10]
            default: ["priority": 10, "collapseId": "c"]
            }
        let path = defect == .broadcastWithoutSegment ? "/push/broadcast" : voip ? "/push/voip" : "/push/user"
        let (_, answer) = try await Self.post(
            kit, path, ["userId": "u", "title": "t", "body": "b", "data": ["k": "v"], "options": options]
        )
        await kit.stop()
        if defect == .refuseTTLOption {
            #expect(double.count == 0 && answer["delivered"] == .bool(false))
            return
        }
        let sent = try #require(double.last)
        let b = sent.body
        switch defect {
        case .sendWhenUnconfigured: #expect(double.count == 1)
        case .deliveredOnZero: #expect(answer["delivered"] == .bool(true))
        case .deliveredNeedsTwo: #expect(answer["delivered"] == .bool(false))
        case .targetByPlayerId: #expect(b["include_aliases"] == nil && b["include_player_ids"] == ["u"])
        case .voipThroughStandardApp: #expect(b["app_id"] == "app-standard" && sent.authorization == "Key key-standard")
        case .standardThroughVoipApp: #expect(b["app_id"] == "app-voip")
        case .headingsOnVoip: #expect(b["headings"] != nil && b["contents"] != nil)
        case .ttlDefault: #expect(b["ttl"] == nil)
        case .voipNoContentAvailable: #expect(b["content_available"] == nil)
        case .voipPushTypeAlert: #expect(b["apns_push_type_override"] == "alert")
        case .dropPriority: #expect(b["priority"] == nil)
        case .dropCollapseId: #expect(b["collapse_id"] == nil)
        case .dropData: #expect(b["data"] == nil)
        case .refuseTTLOption: break
        case .broadcastWithoutSegment:
            #expect(b["included_segments"] == nil && b["include_aliases"] == nil && b["filters"] == nil)
        case .dropFalsyOptions: #expect(b["ttl"] == nil && b["content_available"] == nil && b["priority"] == 10)
        case .voipDefaultsOverOptions:
            #expect(b["apns_push_type_override"] == "voip" && b["content_available"] == true && b["ttl"] == 30)
        }
    }
}
