import Foundation
import JSON
import PushMocks
import TestSupport
import Testing

/// Fault plans installed through the control API (`POST /v1/faults` with curl), observed by independent
/// clients on the wire and in the capture log.
@Suite struct MockStackFaultTests {
    let mocks: MockStackHarness
    var clients: MockStackClients { mocks.clients }

    init() async throws { mocks = try await MockStackHarness.start() }

    func validToken() async throws -> String { try #require(try await clients.providerTokens()["valid"]) }

    @Test func respondAnswersTheNextNRequestsThenNormally() async throws {
        let jwt = try await validToken()
        let installed = try await clients.installFault(
            #"{"mock":"apns","times":2,"respond":{"status":503,"reason":"ServiceUnavailable"}}"#)
        #expect(installed.value(atPath: "faults.0.id")?.stringValue?.isEmpty == false)
        for _ in 0..<2 {
            let r = try await clients.apnsPush(jwt: jwt)
            #expect(r.status == 503 && r.apnsReason == "ServiceUnavailable" && r.headers["apns-id"] != nil, "\(r)")
        }
        #expect(try await clients.apnsPush(jwt: jwt).status == 200)
        let plans = try await clients.control("GET", "/v1/faults").json
        #expect(plans?.value(atPath: "faults.0.remaining")?.intValue == 0)
        #expect(plans?.value(atPath: "faults.0.applied")?.intValue == 2)
        let outcomes = mocks.log.captures().map { $0.outcome.reason ?? "accepted" }
        #expect(outcomes == ["ServiceUnavailable", "ServiceUnavailable", "accepted"])
    }

    @Test func respondMatchesOnlyTheNamedDeviceToken() async throws {
        let jwt = try await validToken()
        let other = String(repeating: "0f", count: 32)
        try await clients.installFault(#"{"deviceToken":"\#(other)","respond":{"reason":"Unregistered"}}"#)
        #expect(try await clients.apnsPush(jwt: jwt).status == 200)
        let r = try await clients.apnsPush(token: other, jwt: jwt)
        #expect(r.status == 410 && r.apnsReason == "Unregistered" && r.json?["timestamp"] != nil, "\(r)")
    }

    @Test func latencyDelaysTheAnswer() async throws {
        let jwt = try await validToken()
        try await clients.installFault(#"{"mock":"apns","times":1,"latencyMs":700}"#)
        let slow = try await clients.apnsPush(jwt: jwt)
        let fast = try await clients.apnsPush(jwt: jwt)
        #expect(slow.status == 200 && fast.status == 200)
        #expect(slow.seconds >= 0.7 && slow.seconds < 10, "\(slow.seconds)")
        // The fault covered one push only: the second carries none (its time is not compared, a busy
        // machine can stall any request).
        let captures = mocks.log.captures()
        #expect(captures.count == 2 && captures.first?.fault?.plan.latencyMs == 700 && captures.last?.fault == nil)
    }

    @Test func retryAfterReachesAPNsAndFCMClients() async throws {
        let jwt = try await validToken()
        try await clients.installFault(
            #"[{"mock":"apns","times":1,"respond":{"reason":"TooManyRequests"},"retryAfter":30},"#
                + #"{"mock":"fcm","times":1,"respond":{"errorCode":"UNAVAILABLE"},"retryAfter":5}]"#)
        let apns = try await clients.apnsPush(jwt: jwt)
        #expect(apns.status == 429 && apns.apnsReason == "TooManyRequests" && apns.headers["retry-after"] == "30")

        let message = MockFixture.callxMessage()
        let flow = try await clients.googleSend([message, message])
        let sends = flow["sends"]?.arrayValue ?? []
        #expect(sends.first?["status"]?.intValue == 503, "\(flow)")
        #expect(sends.first?.value(atPath: "headers.retry-after") == "5")
        let error = try JSONValue.parse(sends.first?["body"]?.stringValue ?? "")
        #expect(error.value(atPath: "error.status") == "UNAVAILABLE")
        #expect(error.value(atPath: "error.details.0.errorCode") == "UNAVAILABLE")
        #expect(sends.last?["status"]?.intValue == 200)
    }

    @Test func resetCutsTheConnectionWithoutAnAnswer() async throws {
        let jwt = try await validToken()
        try await clients.installFault(#"{"mock":"apns","times":1,"connection":"reset"}"#)
        let r = try await clients.apnsPush(jwt: jwt)
        #expect(r.exitCode != 0 && r.status == 0, "\(r)")
        #expect(r.stderr.contains("reset") || r.stderr.contains("Empty reply") || r.exitCode == 92, "\(r.stderr)")
        let capture = try #require(mocks.log.captures().first)
        #expect(capture.outcome == .rejected(reason: "ConnectionReset") && !capture.responseSent)
        #expect(try await clients.apnsPush(jwt: jwt).status == 200)
    }

    @Test func resetAfterAcceptAcceptsThenCutsTheConnection() async throws {
        let jwt = try await validToken()
        try await clients.installFault(#"{"mock":"apns","times":1,"connection":"resetAfterAccept"}"#)
        let r = try await clients.apnsPush(jwt: jwt)
        #expect(r.exitCode != 0 && r.status == 0, "\(r)")
        let capture = try #require(mocks.log.captures().first)
        #expect(capture.outcome == .accepted && !capture.responseSent)
        #expect(try await clients.apnsPush(jwt: jwt).status == 200)
    }

    @Test func goawayIsSeenByNghttpAndH2() async throws {
        let jwt = try await validToken()
        // The GOAWAY follows the push to the first device. The push to a second device is held 1.5 s, so nghttp
        // still reads when the GOAWAY comes: with both answered at once, it finished before reading on, whichever
        // of the two the mock answered first (fault plans send them through the pool, in no set order).
        let second = String(repeating: "cd", count: 32)
        try await clients.installFault(
            #"{"mock":"apns","deviceToken":"\#(MockStackClients.deviceToken)","times":1,"connection":"goaway"}"#)
        try await clients.installFault(#"{"mock":"apns","deviceToken":"\#(second)","times":1,"latencyMs":1500}"#)
        let url = mocks.settings.apnsURL + "/3/device/\(MockStackClients.deviceToken)"
        let nghttp = try await clients.nghttp(
            [url, mocks.settings.apnsURL + "/3/device/\(second)"], headers: clients.voipHeaders(jwt: jwt),
            body: MockStackClients.voipBody, options: ["-M", "1"])
        #expect(nghttp.stdout.contains(":status: 200"), "\(nghttp.stdout)")
        let goaway = nghttp.stdout.components(separatedBy: "recv GOAWAY frame").dropFirst().first ?? ""
        #expect(goaway.contains("error_code=NO_ERROR(0x00)"), "\(nghttp.stdout)")

        try await clients.installFault(#"{"mock":"apns","times":1,"connection":"goaway","goawayErrorCode":11}"#)
        let events = try await clients.h2Request(
            baseURL: mocks.settings.apnsURL, path: "/3/device/\(MockStackClients.deviceToken)",
            headers: clients.voipHeaders(jwt: jwt), body: MockStackClients.voipBody)
        let status = events.first { $0["type"] == "response" }?.value(atPath: "headers.:status")
        #expect(status == "200", "\(events)")
        let frame = try #require(events.first { $0["type"] == "goaway" }, "\(events)")
        #expect(frame["errorCode"]?.intValue == 11 && frame["lastStreamId"]?.intValue == 1, "\(frame)")
        // Each GOAWAY followed an accepted push to the first device. nghttp's second stream, held by its own
        // plan, may have reached the mock before the first GOAWAY (the valid token lifted the stream limit on
        // arrival).
        let goaways = mocks.log.captures().filter { $0.fault?.plan.connection == .goaway }
        #expect(
            goaways.count == 2
                && goaways.allSatisfy { $0.outcome == .accepted && $0.deviceToken == MockStackClients.deviceToken },
            "\(goaways)")
    }

    @Test func oauthFaultThenRecovery() async throws {
        try await clients.installFault(#"{"mock":"oauth","times":1,"respond":{"status":503}}"#)
        let failed = try await clients.googleSend([])
        #expect(failed.value(atPath: "oauth.status")?.intValue == 503, "\(failed)")
        let recovered = try await clients.googleSend([MockFixture.callxMessage()])
        #expect(recovered.value(atPath: "oauth.status")?.intValue == 200)
        #expect(recovered.value(atPath: "sends.0.status")?.intValue == 200, "\(recovered)")
    }

    @Test func deletingFaultsRestoresNormalAnswers() async throws {
        let jwt = try await validToken()
        try await clients.installFault(#"{"respond":{"reason":"InternalServerError"}}"#)
        #expect(try await clients.apnsPush(jwt: jwt).status == 500)
        let cleared = try await clients.control("DELETE", "/v1/faults")
        #expect(cleared.status == 200 && cleared.json?["cleared"]?.intValue == 1, "\(cleared)")
        #expect(try await clients.apnsPush(jwt: jwt).status == 200)
        #expect(try await clients.control("GET", "/v1/faults").json?["faults"]?.arrayValue?.isEmpty == true)

        let plan = try await clients.installFault(#"{"id":"outage","respond":{"reason":"Shutdown"}}"#)
        #expect(plan.value(atPath: "faults.0.id") == "outage")
        #expect(try await clients.apnsPush(jwt: jwt).apnsReason == "Shutdown")
        let removed = try await clients.control("DELETE", "/v1/faults/outage", http2: false)
        #expect(removed.status == 200 && removed.json?["removed"] == "outage", "\(removed)")
        #expect(try await clients.control("DELETE", "/v1/faults/outage").status == 404)
        #expect(try await clients.apnsPush(jwt: jwt).status == 200)
    }

    @Test func invalidPlansAreRefusedWithEveryProblem() async throws {
        let r = try await clients.control(
            "POST", "/v1/faults", body: #"{"mock":"gcm","times":0,"connection":"explode"}"#)
        #expect(r.status == 400, "\(r)")
        let details = r.json?["details"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(details.contains { $0.contains("mock") } && details.contains { $0.contains("connection") }, "\(r)")
        #expect(mocks.stack.faults.entries.isEmpty)
    }
}
