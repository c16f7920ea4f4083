import Foundation
import JSON
import PushMocks
import TestSupport
import Testing

/// Requests that break HTTP/2's own rules (RFC 9113 §8), sent to mock APNs by Python's h2 with its
/// checks off, as a broken client would send them: each stream is reset with PROTOCOL_ERROR, as an
/// HTTP/2 server must, nothing is recorded as a push, and the mock goes on serving.
///
/// These rules were nghttp2's HTTP messaging checks; the HTTP module makes them itself now
/// (`HTTP2RequestRules`), and the tests hold whatever makes them.
@Suite struct MockStackMalformedHTTP2Tests {
    let mocks: MockStackHarness
    var clients: MockStackClients { mocks.clients }

    init() async throws { mocks = try await MockStackHarness.start() }

    /// One malformed variation of a valid VoIP push.
    enum Malformation: String, CaseIterable, Sendable {
        case upperCaseName, missingMethod, missingPath, emptyPath, repeatedPath, pseudoHeaderAfterARegularOne,
            unknownPseudoHeader, connectionSpecificHeader, teOtherThanTrailers, newlineInAValue, nulInAValue,
            spaceInThePath, contentLengthOtherThanTheBody
        case keepAliveHeader, proxyConnectionHeader, transferEncodingHeader, upgradeHeader, statusPseudoHeader,
            protocolPseudoHeader, spaceInAName, delInAValue, leadingSpaceInAValue, trailingTabInAValue,
            pathNotStartingWithASlash, spaceInTheMethod, spaceInTheAuthority, invalidScheme, missingScheme,
            missingAuthorityAndHost, emptyHost, repeatedHost, connectWithoutAuthority, connectWithAPath,
            contentLengthLongerThanTheBody, contentLengthNotANumber, repeatedContentLength,
            pseudoHeaderInTrailers, connectionSpecificHeaderInTrailers, trailersNotEndingTheStream,
            contentLengthInTrailersOtherThanTheBody

        /// The header list, body and trailers (nil: none) of the malformed request.
        func apply(to valid: [(String, String)], body: String) -> (
            headers: [(String, String)], body: String, trailers: [(String, String)]?, trailersEndStream: Bool
        ) {
            let length = body.utf8.count
            switch self {
            case .contentLengthLongerThanTheBody:
                return (valid + [("content-length", "\(length + 10)")], body, nil, true)
            case .repeatedContentLength:
                // Even the same value twice: nghttp2 took one content-length only.
                return (valid + [("content-length", "\(length)"), ("content-length", "\(length)")], body, nil, true)
            case .pseudoHeaderInTrailers:
                // A CONNECT of pseudo-headers only, whose :path comes in the trailers: no other rule breaks (after
                // a regular field, or repeating one, a pseudo-header is refused anyway).
                return (
                    Array(valid.prefix(1)).map { ($0.0, "CONNECT") } + [valid[3]], body, [(":path", "/3/device/x")],
                    true
                )
            case .connectionSpecificHeaderInTrailers: return (valid, body, [("connection", "close")], true)
            case .trailersNotEndingTheStream: return (valid, body, [("apns-x", "1")], false)
            case .contentLengthInTrailersOtherThanTheBody:
                return (valid, body, [("content-length", "\(length + 1)")], true)
            default: return (apply(to: valid), body, nil, true)
            }
        }

        func apply(to valid: [(String, String)]) -> [(String, String)] {
            let pseudo = Array(valid.prefix(4))
            let regular = Array(valid.dropFirst(4))
            func replacing(_ name: String, with value: String) -> [(String, String)] {
                valid.map { ($0.0, $0.0 == name ? value : $0.1) }
            }
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
            case .keepAliveHeader: return valid + [("keep-alive", "timeout=5")]
            case .proxyConnectionHeader: return valid + [("proxy-connection", "keep-alive")]
            case .transferEncodingHeader: return valid + [("transfer-encoding", "chunked")]
            case .upgradeHeader: return valid + [("upgrade", "h2c")]
            case .statusPseudoHeader: return pseudo + [(":status", "200")] + regular
            case .protocolPseudoHeader: return pseudo + [(":protocol", "websocket")] + regular
            case .spaceInAName: return valid + [("apns collapse-id", "a")]
            case .delInAValue: return valid + [("apns-collapse-id", "a\u{7F}b")]
            case .leadingSpaceInAValue: return valid + [("apns-collapse-id", " a")]
            case .trailingTabInAValue: return valid + [("apns-collapse-id", "a\t")]
            case .pathNotStartingWithASlash: return replacing(":path", with: "3/device/\(MockStackClients.deviceToken)")
            case .spaceInTheMethod: return replacing(":method", with: "PO ST")
            case .spaceInTheAuthority: return replacing(":authority", with: "api push.apple.com")
            case .invalidScheme: return replacing(":scheme", with: "ht tp")
            case .missingScheme: return valid.filter { $0.0 != ":scheme" }
            case .missingAuthorityAndHost: return valid.filter { $0.0 != ":authority" }
            case .emptyHost: return valid.filter { $0.0 != ":authority" } + [("host", "")]
            case .repeatedHost: return valid + [("host", "api.push.apple.com"), ("host", "api.push.apple.com")]
            case .connectWithoutAuthority: return [(":method", "CONNECT")] + regular
            case .connectWithAPath: return [(":method", "CONNECT"), pseudo[2], pseudo[3]] + regular
            case .contentLengthNotANumber: return valid + [("content-length", "12a")]
            case .contentLengthLongerThanTheBody, .repeatedContentLength, .pseudoHeaderInTrailers,
                .connectionSpecificHeaderInTrailers, .trailersNotEndingTheStream,
                .contentLengthInTrailersOtherThanTheBody:
                return valid
            }
        }
    }

    func validHeaders(jwt: String) -> [(String, String)] {
        [
            (":method", "POST"), (":scheme", "https"), (":path", "/3/device/\(MockStackClients.deviceToken)"),
            (":authority", "api.push.apple.com"),
        ] + clients.voipHeaders(jwt: jwt)
    }

    func send(
        _ headers: [(String, String)], body: String = MockStackClients.voipBody, trailers: [(String, String)]? = nil,
        trailersEndStream: Bool = true
    ) async throws -> [JSONValue] {
        try await clients.h2Request(
            baseURL: mocks.settings.apnsURL, path: "", headers: headers, body: body, raw: true, trailers: trailers,
            trailersEndStream: trailersEndStream)
    }

    @Test(arguments: Malformation.allCases) func isResetWithProtocolErrorAndNotRecorded(_ m: Malformation) async throws
    {
        let jwt = try #require(try await clients.providerTokens()["valid"])
        let request = m.apply(to: validHeaders(jwt: jwt), body: MockStackClients.voipBody)
        let events = try await send(
            request.headers, body: request.body, trailers: request.trailers,
            trailersEndStream: request.trailersEndStream)
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
