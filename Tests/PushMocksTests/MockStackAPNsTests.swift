import Foundation
import JSON
import PushMocks
import TestSupport
import Testing

/// Mock APNs over real TLS + HTTP/2 sockets, driven by curl, nghttp and Python h2 with a provider
/// token PyJWT signs from the written `.p8` file, as a real backend would.
@Suite struct MockStackAPNsTests {
    let mocks: MockStackHarness
    var clients: MockStackClients { mocks.clients }

    init() async throws { mocks = try await MockStackHarness.start() }

    @Test func voipPushSignedByPyJWTIsAcceptedAndCapturedInEachEnvironment() async throws {
        let jwt = try #require(try await clients.providerTokens()["valid"])
        for sandbox in [false, true] {
            let before = MockStackHarness.nowMs()
            let r = try await clients.apnsPush(jwt: jwt, sandbox: sandbox)
            let after = MockStackHarness.nowMs()
            #expect(r.exitCode == 0 && r.status == 200 && r.httpVersion == "2", "\(r)")
            let apnsID = try #require(r.headers["apns-id"])
            #expect(r.body.isEmpty)
            #expect((r.headers["apns-unique-id"] != nil) == sandbox)

            let environment: APNsEnvironment = sandbox ? .sandbox : .production
            let capture = try #require(
                await mocks.log.waitFor({ $0.environment == environment }, timeout: .seconds(5)))
            #expect(capture.mock == .apns && capture.outcome == .accepted)
            #expect(capture.deviceToken == MockStackClients.deviceToken)
            #expect(capture.method == "POST" && capture.target == "/3/device/\(MockStackClients.deviceToken)")
            #expect(capture.httpVersion == .http2)
            #expect(capture.headers["authorization"] == "bearer \(jwt)")
            #expect(capture.headers["apns-push-type"] == "voip")
            #expect(capture.headers["apns-topic"] == mocks.settings.apnsVoIPTopic)
            #expect(capture.headers["apns-priority"] == "10")
            #expect(capture.headers["apns-expiration"] == "0")
            #expect(capture.body == Array(MockStackClients.voipBody.utf8))
            #expect(capture.json?.value(atPath: "callx.type")?.stringValue == "call.invited")
            #expect(capture.arrivalMs >= before && capture.arrivalMs <= after)
            #expect(capture.apns?.apnsID == apnsID)
            #expect(capture.apns?.effectivePushType == "voip" && capture.apns?.priority == 10)
            #expect(capture.apns?.expiration == 0)
            #expect(capture.apns?.providerTokenKeyID == mocks.settings.apnsKeyID)
        }
    }

    @Test func apnsIDSentByTheClientIsEchoed() async throws {
        let jwt = try #require(try await clients.providerTokens()["valid"])
        let id = "0A1B2C3D-4E5F-4061-8293-A4B5C6D7E8F9"
        let ok = try await clients.apnsPush(jwt: jwt, overrides: [("apns-id", id)])
        #expect(ok.status == 200 && ok.headers["apns-id"] == id)
        let refused = try await clients.apnsPush(jwt: jwt, overrides: [("apns-id", id), ("apns-priority", "7")])
        #expect(refused.status == 400 && refused.headers["apns-id"] == id)
    }

    @Test func iatAsFloatOrStringIsAccepted() async throws {
        let tokens = try await clients.providerTokens()
        // A new token per environment: each mock keeps its own 20-minute refresh clock.
        let float = try await clients.apnsPush(jwt: tokens["floatIat"])
        #expect(float.status == 200, "\(float)")
        let string = try await clients.apnsPush(jwt: tokens["stringIat"], sandbox: true)
        #expect(string.status == 200, "\(string)")
    }

    @Test func h2WithoutALPNIsServed() async throws {
        let jwt = try #require(try await clients.providerTokens()["valid"])
        let events = try await clients.h2Request(
            baseURL: mocks.settings.apnsURL, path: "/3/device/\(MockStackClients.deviceToken)",
            headers: clients.voipHeaders(jwt: jwt), body: MockStackClients.voipBody, alpn: false)
        #expect(Self.status(events) == "200", "\(events)")
        #expect(mocks.log.captures().first?.outcome == .accepted)
    }

    // MARK: One stream until a valid provider token

    @Test func nghttpSeesOneStreamThenMoreAfterAValidToken() async throws {
        let jwt = try #require(try await clients.providerTokens()["valid"])
        let other = String(repeating: "cd", count: 32)
        // Two requests on one connection. `-M 1` makes nghttp wait for the server's SETTINGS before a
        // second stream (without it the second stream races the server's SETTINGS and is refused).
        let r = try await clients.nghttp(
            [
                mocks.settings.apnsURL + "/3/device/\(MockStackClients.deviceToken)",
                mocks.settings.apnsURL + "/3/device/\(other)",
            ],
            headers: Array(clients.voipHeaders(jwt: jwt).dropLast()), body: MockStackClients.voipBody,
            options: ["-M", "1"])
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        let limits = Self.maxConcurrentStreams(inNghttpLog: r.stdout)
        #expect(limits.first == 1, "\(r.stdout)")
        #expect(limits.dropFirst().contains { $0 > 1 }, "\(r.stdout)")
        #expect(r.stdout.components(separatedBy: ":status: 200").count == 3)
    }

    @Test func h2SeesTheLimitRaisedOnlyByAValidToken() async throws {
        let tokens = try await clients.providerTokens()
        let url = mocks.settings.apnsURL
        let path = "/3/device/\(MockStackClients.deviceToken)"

        let refused = try await clients.h2Request(
            baseURL: url, path: path, headers: clients.voipHeaders(jwt: try #require(tokens["foreignKey"])),
            body: MockStackClients.voipBody)
        #expect(Self.status(refused) == "403", "\(refused)")
        #expect(Self.settingsValues(refused, setting: 3) == [1], "\(refused)")

        let accepted = try await clients.h2Request(
            baseURL: url, path: path, headers: clients.voipHeaders(jwt: try #require(tokens["valid"])),
            body: MockStackClients.voipBody)
        #expect(Self.status(accepted) == "200", "\(accepted)")
        let values = Self.settingsValues(accepted, setting: 3)
        #expect(values.first == 1 && values.count == 2 && values[1] > 1, "\(accepted)")
    }

    /// APNs lifts the limit when a valid token arrives: a push held back by a slow answer must not keep
    /// the client's other pushes queued behind it (an independent backend with one connection saw every
    /// other push wait out a fault's latency), and a refused push with a valid token lifts it too.
    @Test func aValidTokenLiftsTheLimitOnArrivalWhateverTheAnswer() async throws {
        let jwt = try #require(try await clients.providerTokens()["valid"])
        let path = "/3/device/\(MockStackClients.deviceToken)"
        try await clients.installFault(#"{"mock": "apns", "times": 1, "latencyMs": 3000}"#)
        let slow = try await clients.h2Request(
            baseURL: mocks.settings.apnsURL, path: path, headers: clients.voipHeaders(jwt: jwt),
            body: MockStackClients.voipBody)
        #expect(Self.status(slow) == "200", "\(slow)")
        let lifted = slow.firstIndex { $0["type"] == "settings" && ($0["changed"]?["3"]?.intValue ?? 0) > 1 }
        let answered = slow.firstIndex { $0["type"] == "response" }
        #expect(
            lifted != nil && answered != nil && lifted! < answered!, "the limit is lifted before the answer: \(slow)")

        try await clients.installFault(
            #"{"mock": "apns", "times": 1, "respond": {"status": 503, "reason": "ServiceUnavailable"}}"#)
        let refused = try await clients.h2Request(
            baseURL: mocks.settings.apnsURL, path: path, headers: clients.voipHeaders(jwt: jwt),
            body: MockStackClients.voipBody)
        #expect(Self.status(refused) == "503", "\(refused)")
        #expect(Self.settingsValues(refused, setting: 3).contains { $0 > 1 }, "\(refused)")
    }

    // MARK: Reading client output

    /// Each SETTINGS_MAX_CONCURRENT_STREAMS the server sent, in order, from `nghttp -v`.
    static func maxConcurrentStreams(inNghttpLog log: String) -> [Int] {
        var values: [Int] = []
        var inReceivedSettings = false
        for line in log.split(separator: "\n") {
            if line.contains("] recv ") || line.contains("] send ") {
                inReceivedSettings = line.contains("recv SETTINGS frame")
            } else if inReceivedSettings, let r = line.range(of: "[SETTINGS_MAX_CONCURRENT_STREAMS(0x03):") {
                values.append(Int(line[r.upperBound...].prefix { $0.isNumber }) ?? -1)
            }
        }
        return values
    }

    static func status(_ events: [JSONValue]) -> String? {
        events.first { $0["type"] == "response" }?.value(atPath: "headers.:status")?.stringValue
    }

    static func settingsValues(_ events: [JSONValue], setting: Int) -> [Int] {
        events.filter { $0["type"] == "settings" }.compactMap { $0["changed"]?[String(setting)]?.intValue }
    }
}
