import HTTP
import JSON
import PushMocks
import TestSupport
import Testing

/// Numbers a peer sends the mocks in headers and query parameters: each hostile value is refused
/// with the real service's status and reason (APNs' 400 BadExpirationDate / BadPriority, the
/// control API's 400 with the parameter named), and the mock keeps serving afterwards.
@Suite struct HostileNumberMockTests {
    /// Too big, not finite, signed zero, negative, and a 400-digit number.
    static let hostile = ["1e30", "inf", "nan", "-0", "-1", "1" + String(repeating: "0", count: 399)]

    let mocks: MockStackHarness
    var clients: MockStackClients { mocks.clients }

    init() async throws { mocks = try await MockStackHarness.start() }

    @Test func apnsRefusesHostileExpirationAndPriorityAndKeepsServing() async throws {
        let tokens = try await clients.providerTokens()
        for value in Self.hostile {
            let expiration = try await clients.apnsPush(jwt: tokens["valid"], overrides: [("apns-expiration", value)])
            #expect(expiration.status == 400, "apns-expiration \(value): \(expiration.status) \(expiration.body)")
            #expect(expiration.apnsReason == "BadExpirationDate", "\(expiration.body)")
            let priority = try await clients.apnsPush(jwt: tokens["valid"], overrides: [("apns-priority", value)])
            #expect(priority.status == 400, "apns-priority \(value): \(priority.status) \(priority.body)")
            #expect(priority.apnsReason == "BadPriority", "\(priority.body)")
        }
        #expect(try await clients.apnsPush(jwt: tokens["valid"]).status == 200)
    }

    @Test func theControlAPIRefusesHostileQueryNumbersNamingThem() async throws {
        for value in Self.hostile {
            for (path, name) in [
                ("/v1/captures?limit=", "limit"), ("/v1/captures/wait?timeoutMs=", "timeoutMs"),
                ("/v1/captures/wait?count=", "count"), ("/v1/captures?sinceMs=", "sinceMs"),
            ] {
                // Legal values: sinceMs -0 and -1 are times (before any capture); timeoutMs -0 is no wait.
                if name == "sinceMs" && (value == "-0" || value == "-1") || name == "timeoutMs" && value == "-0" {
                    continue
                }
                let r = try await clients.control("GET", path + value)
                #expect(r.status == 400, "\(path)\(value): \(r.status) \(r.body)")
                #expect(r.body.contains(name), "\(path)\(value): \(r.body)")
            }
        }
        #expect(try await clients.control("GET", "/v1/captures").status == 200)
    }
}
