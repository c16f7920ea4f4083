import Foundation
import JSON
import PushMocks
import TestSupport
import Testing

/// Requests that break HTTP/2's own rules (RFC 9113 §8), sent to mock APNs by Python's h2 with its
/// checks off, as a broken client would send them: each stream is reset with PROTOCOL_ERROR, as an
/// HTTP/2 server must, nothing is recorded as a push, and the mock goes on serving.
///
/// These rules are nghttp2's HTTP messaging checks today; the tests hold whatever makes them.
@Suite struct MockStackMalformedHTTP2Tests {
    let mocks: MockStackHarness
    var clients: MockStackClients { mocks.clients }

    init() async throws { mocks = try await MockStackHarness.start() }

    /// One malformed variation of a valid VoIP push's header list.
    enum Malformation: String, CaseIterable, Sendable {
        case upperCaseName, missingMethod, missingPath, emptyPath, repeatedPath, pseudoHeaderAfterARegularOne,
            unknownPseudoHeader, connectionSpecificHeader, teOtherThanTrailers, newlineInAValue, nulInAValue,
            spaceInThePath, contentLengthOtherThanTheBody

        func apply(to valid: [(String, String)]) -> [(String, String)] {
            let pseudo = Array(valid.prefix(4))
            let regular = Array(valid.dropFirst(4))
            switch self {
            case .upperCaseName: return valid.map { ($0.0 == "apns-topic" ? "Apns-Topic" : $0.0, $0.1) }
            case .missingMethod: return valid.filter { $0.0 != ":method" }
            case .missingPath: return valid.filter { $0.0 != ":path" }
            case .emptyPath: return valid.map { ($0.0, $0.0 == ":path" ? "" : $0.1) }
            case .repeatedPath: return valid + valid.filter { $0.0 == ":path" }
            case .pseudoHeaderAfterARegularOne: return regular + pseudo
            case .unknownPseudoHeader: return valid + [(":foo", "bar")]
            case .connectionSpecificHeader: return valid + [("connection", "keep-alive")]
            case .teOtherThanTrailers: return valid + [("te", "gzip")]
            case .newlineInAValue: return valid + [("apns-collapse-id", "a\nb")]
            case .nulInAValue: return valid + [("apns-collapse-id", "a\u{0}b")]
            case .spaceInThePath: return valid.map { ($0.0, $0.0 == ":path" ? $0.1 + " x" : $0.1) }
            case .contentLengthOtherThanTheBody: return valid + [("content-length", "3")]
            }
        }
    }

    func validHeaders(jwt: String) -> [(String, String)] {
        [
            (":method", "POST"), (":scheme", "https"), (":path", "/3/device/\(MockStackClients.deviceToken)"),
            (":authority", "api.push.apple.com"),
        ] + clients.voipHeaders(jwt: jwt)
    }

    func send(_ headers: [(String, String)]) async throws -> [JSONValue] {
        try await clients.h2Request(
            baseURL: mocks.settings.apnsURL, path: "", headers: headers, body: MockStackClients.voipBody, raw: true)
    }

    @Test(arguments: Malformation.allCases) func isResetWithProtocolErrorAndNotRecorded(_ m: Malformation) async throws
    {
        let jwt = try #require(try await clients.providerTokens()["valid"])
        let events = try await send(m.apply(to: validHeaders(jwt: jwt)))
        #expect(
            events.contains { $0["type"] == "streamReset" && $0["errorCode"] == .int(1) }, "\(m): \(events)")
        #expect(!events.contains { $0["type"] == "response" }, "\(m): \(events)")
        #expect(mocks.log.captures().isEmpty, "\(m): \(mocks.log.captures().map(\.outcome))")

        // The same list unbroken, sent the same way, is a push the mock accepts: the reset was the malformation's.
        let valid = try await send(validHeaders(jwt: jwt))
        #expect(
            valid.contains { $0["type"] == "response" && $0["headers"]?[":status"] == "200" }, "\(m): \(valid)")
        #expect(mocks.log.captures().map(\.outcome) == [.accepted])
    }
}
