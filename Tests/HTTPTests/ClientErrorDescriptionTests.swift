import HTTP
import Testing

/// What a client error says in logs: the path of the URL (an APNs device token, say) stays out of
/// `descriptionWithoutPath`, and the full description still names the whole URL.
@Suite struct ClientErrorDescriptionTests {
    static let token = String(repeating: "ab", count: 32)

    func error(url: String, detail: String = "") -> ClientError {
        ClientError(
            kind: .reset, curlCode: 56, message: "Failure when receiving data", detail: detail, url: url,
            operation: "POST")
    }

    @Test func thePathStaysOutOfTheLogDescription() {
        let e = error(url: "https://127.0.0.1:4433/3/device/\(Self.token)?x=1", detail: "reset by peer")
        #expect(
            e.descriptionWithoutPath
                == "POST https://127.0.0.1:4433 failed (reset): Failure when receiving data [curl 56]: reset by peer")
        #expect(e.description.contains(Self.token))
    }

    @Test func aDetailQuotingTheURLIsCutToo() {
        let url = "https://127.0.0.1:4433/3/device/\(Self.token)"
        let e = error(url: url, detail: "while sending to \(url)")
        #expect(!e.descriptionWithoutPath.contains(Self.token))
        #expect(e.descriptionWithoutPath.hasSuffix("while sending to https://127.0.0.1:4433"))
    }

    @Test func aURLWithoutAPathIsShownWhole() {
        #expect(
            error(url: "https://127.0.0.1:4433").descriptionWithoutPath.hasPrefix("POST https://127.0.0.1:4433 failed"))
        #expect(error(url: "not a url").descriptionWithoutPath.hasPrefix("POST not a url failed"))
    }
}
