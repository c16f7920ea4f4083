import CNghttp2
import Testing

@testable import HTTP

/// The header list handed to nghttp2 for each response, and which fields HPACK may index.
@Suite struct HTTP2ResponseFieldsTests {
    /// Each field as (name, value, may be indexed).
    static func fields(_ builder: HTTP2ResponseFields, _ response: HTTPResponse) -> [(String, String, Bool)] {
        var out: [(String, String, Bool)] = []
        _ = builder.withFields(of: response) { nva in
            for nv in nva {
                let name = String(decoding: UnsafeBufferPointer(start: nv.name, count: nv.namelen), as: UTF8.self)
                let value = String(decoding: UnsafeBufferPointer(start: nv.value, count: nv.valuelen), as: UTF8.self)
                out.append((name, value, nv.flags & UInt8(NGHTTP2_NV_FLAG_NO_INDEX.rawValue) == 0))
            }
            return 0
        }
        return out
    }

    @Test func aFieldIsIndexedOnlyOnceItsValueRepeats() {
        let builder = HTTP2ResponseFields()
        func answer(_ id: String) -> HTTPResponse {
            HTTPResponse(status: 200, headers: ["apns-id": id, "x-same": "same value", "connection": "close"])
        }
        let first = Self.fields(builder, answer("A"))
        #expect(first.map(\.0) == [":status", "apns-id", "x-same", "content-length"])
        #expect(first.map(\.1) == ["200", "A", "same value", "0"])
        #expect(first.allSatisfy { !$0.2 }, "nothing repeats yet")

        let second = Self.fields(builder, answer("B"))
        #expect(second.map(\.1) == ["200", "B", "same value", "0"])
        #expect(second.map(\.2) == [true, false, true, true], "only the apns-id changed")

        let third = Self.fields(builder, answer("B"))
        #expect(third.map(\.2) == [true, true, true, true])
    }

    @Test func connectionSpecificFieldsAreDroppedAndALengthKept() {
        let builder = HTTP2ResponseFields()
        let response = HTTPResponse(
            status: 204,
            headers: [
                "Transfer-Encoding": "chunked", "keep-alive": "5", "upgrade": "h2c", "proxy-connection": "x",
                "content-type": "text/plain",
            ])
        #expect(Self.fields(builder, response).map(\.0) == [":status", "content-type"])
        let sized = HTTPResponse(status: 200, headers: ["content-length": "3"], body: Array("abc".utf8))
        #expect(Self.fields(builder, sized).map(\.0) == [":status", "content-length"])
    }
}
