import Foundation
import JSON
import Testing

@testable import Callx
@testable import Conformance
@testable import PushService

/// Numbers the backend under test answers with (counts, times, a token's expiry) that are no such
/// thing: ringcheck reads them as absent or wrong, a finding, and never traps converting them.
@Suite struct PeerNumberTests {
    static let hostile = [
        "1e30", "-1e30", "9223372036854775807", "-9223372036854775808", String(repeating: "9", count: 400),
    ]

    @Test func notificationCountsThatAreNoCountReadAsMissing() {
        #expect(GetNotificationStep.count(.number("3")) == 3)
        #expect(GetNotificationStep.count(.number("0")) == 0)
        #expect(GetNotificationStep.count(nil) == -1)
        for text in Self.hostile + ["-1"] {
            #expect(GetNotificationStep.count(.number(text)) == -1, "\(text.prefix(20))")
        }
    }

    @Test func reportedTimesOutsideMillisecondsSinceTheEpochAreNoTimes() {
        #expect(JSONValue.number("1775831400000").epochMsValue == 1_775_831_400_000)
        for text in Self.hostile + ["-1", "1.5"] {
            #expect(JSONValue.number(text).epochMsValue == nil, "\(text.prefix(20))")
        }
    }

    @Test func aTokenExpiryThatIsNoTimeIsNotRead() {
        func token(exp: String) -> JSONValue {
            let payload = Data(#"{"exp":\#(exp)}"#.utf8).base64EncodedString()
                .replacingOccurrences(of: "=", with: "").replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_")
            return ["token": .string("e30.\(payload).sig")]
        }
        #expect(TargetMapping.read(.jwtExpiry("token"), in: token(exp: "1775831400")) == .number("1775831400000"))
        for text in Self.hostile {
            #expect(TargetMapping.read(.jwtExpiry("token"), in: token(exp: text)) == nil, "\(text.prefix(20))")
        }
    }
}
