import Foundation
import HTTP
import JSON
import PushMocks
import TestSupport
import Testing

@testable import ReferenceBackend

/// Numbers a peer sends the references (a webhook's signed timestamp, a notification's ttl, priority
/// and ring timeout, a provider's Retry-After): each hostile value is a 4xx in the service's own error
/// shape, never a trap, and the served process keeps answering afterwards.
@Suite struct HostileNumberReferenceTests {
    /// Too big, not finite, signed zero, negative, and a 400-digit number.
    static let hostile = ["1e30", "inf", "nan", "-0", "-1", "1" + String(repeating: "0", count: 399)]

    @Test func theDialstackReferenceAnswers401ToHostileTimestampsAndStaysUp() async throws {
        let mocks = try await MockStack.start(.forTests)
        defer { mocks.stop() }
        let (server, secret) = try await ReferenceServerProcess.dialstack(mocks: mocks)
        let client = try HTTPClient()
        defer { client.shutdown() }
        let body = DialStackReferenceStack.event(callId: "call_" + UUID().uuidString.lowercased()).bytes()
        func post(_ header: String) async throws -> ClientResponse {
            var headers = HTTPHeaders()
            headers.add(WebhookSignature.headerName, header)
            return try await client.send(
                ClientRequest(
                    method: "POST", url: server.baseURL + "/webhooks/dialstack", headers: headers, body: body))
        }
        for t in Self.hostile + ["1e19", "9.3e15", "-1e30"] {
            // The issue's request (v1=00), and one correctly signed for that t: only the time refuses it.
            let signed = WebhookSignature.signature(secret: secret, timestamp: t, body: body)
            for header in ["t=\(t),v1=00", "t=\(t),v1=\(signed)"] {
                let r = try await post(header)
                #expect(r.status == 401 && r.bodyString == "Invalid signature", "\(header.prefix(40)): \(r.status)")
            }
        }
        let now = Int64(Date().timeIntervalSince1970)
        let valid = try await post(WebhookSignature.header(secret: secret, timestamp: now, body: body))
        #expect(valid.status == 200 && valid.bodyString == "OK", "the reference stopped answering")
        #expect(await server.interrupt() == 0)
    }

    @Test func thePushServiceReferenceAnswers400ToHostileNumbersAndStaysUp() async throws {
        let mocks = try await MockStack.start(.forTests)
        defer { mocks.stop() }
        let appId = UUID().uuidString.lowercased()
        let key = "psk_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        var env = mocks.settings.environmentDictionary
        env["RINGCHECK_PUSH_SERVICE_APP_ID"] = appId
        env["RINGCHECK_PUSH_SERVICE_API_KEY"] = key
        let server = try await ReferenceServerProcess.start(
            arguments: ["--profile", "push-service", "--port", "0", "--log", "-"], environment: env)
        let client = try HTTPClient()
        defer { client.shutdown() }
        func send(_ body: String) async throws -> ClientResponse {
            try await client.send(
                ClientRequest(
                    method: "POST", url: server.baseURL + "/notifications",
                    headers: ["content-type": "application/json", "authorization": "Key \(key)"],
                    body: Array(body.utf8)))
        }
        let call = PushServiceStack.call(["user-2"]).setting("app_id", to: .string(appId)).serialized()
        let plain = #"{"app_id":"\#(appId)","include_aliases":{"external_id":["user-2"]},"contents":{"en":"hi"}"#
        // JSON has no inf or nan: sent as strings, they are a type error like any other.
        let literals = ["1e30", "\"inf\"", "\"nan\"", "-0", "-1", Self.hostile[5], "1.5", "9.3e15"]
        for literal in literals {
            let legalCount = literal == "-0"  // ttl and ios_badgeCount start at 0
            for (field, legal) in [("ttl", legalCount), ("ios_badgeCount", legalCount)] {
                let r = try await send(plain + #","\#(field)":\#(literal)}"#)
                #expect(r.status == (legal ? 200 : 400), "\(field) \(literal.prefix(20)): \(r.status) \(r.bodyString)")
                if !legal { #expect(r.bodyString.contains(field), "\(r.bodyString)") }
            }
            let timed = call.replacingOccurrences(of: #""timeout":45"#, with: #""timeout":\#(literal)"#)
            #expect(timed != call)
            let r = try await send(timed)
            #expect(r.status == 400 && r.bodyString.contains("call.timeout"), "\(literal.prefix(20)): \(r.bodyString)")
        }
        #expect(try await send(call).status == 200, "the reference stopped answering")
        #expect(await server.interrupt() == 0)
    }

    @Test func aProviderRetryAfterBeyondADayIsNotADelay() {
        func retry(_ value: String) -> Int64? {
            var headers = HTTPHeaders()
            headers.add("retry-after", value)
            return PushOutcome.retryAfterMs(HTTPResponse(status: 503, headers: headers))
        }
        #expect(retry("120") == 120_000)
        #expect(retry("86400") == 86_400_000)
        // 9223372036854775807 * 1000 trapped before: now it is no delay the outbox waits.
        for value in ["9223372036854775807", "86401", "1e30", "inf", "nan", "-1", Self.hostile[5]] {
            #expect(retry(value) == nil, "\(value.prefix(20))")
        }
    }

    @Test func aWebhookTimestampThatIsNoTimeIsInvalidNotATrap() {
        let body = Array("{}".utf8)
        for t in Self.hostile + ["1e19", "-9.3e18"] {
            let verdict = WebhookSignature.verify(
                header: "t=\(t),v1=00", body: body, secret: "s", nowMs: 1_775_831_400_000, toleranceSeconds: 300)
            #expect(!verdict.isValid, "t=\(t.prefix(20))")
        }
    }
}
