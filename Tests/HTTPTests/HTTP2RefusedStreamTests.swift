import TestSupport
import Testing

@testable import HTTP

/// A stream beyond the SETTINGS_MAX_CONCURRENT_STREAMS the session sent is refused (RST_STREAM REFUSED_STREAM)
/// and counted, so the listener can tell its handler (the APNs mock records it for the device evidence).
@Suite struct HTTP2RefusedStreamTests {
    @Test func aSecondStreamBeyondALimitOfOneIsRefusedAndCounted() throws {
        let session = try #require(
            HTTP2Session(maxConcurrentStreams: 1, maxHeaderBytes: 16_384, maxBodyBytes: 16_384, nowMs: { 0 }))
        // Two requests whose bodies are still to come, sent before the client has seen the server's SETTINGS.
        let open: (UInt32) -> [UInt8] = { id in
            H2Frames.frame(
                type: H2Frames.headers, flags: 0x4, stream: id,
                H2Frames.requestBlock(method: "POST", path: "/3/device/x"))
        }
        let bytes = H2Frames.clientStart + open(1) + open(3)
        #expect(bytes.withUnsafeBytes { session.receive($0) })
        #expect(session.refusedStreams == 1)
        var output: [UInt8] = []
        _ = session.send { chunk in
            output += chunk
            return true
        }
        #expect(H2Frames.frames(in: output).contains { $0.type == 0x3 && $0.stream == 3 }, "RST_STREAM on stream 3")
    }

    @Test func streamsWithinTheLimitAreNotCounted() throws {
        let session = try #require(
            HTTP2Session(maxConcurrentStreams: 100, maxHeaderBytes: 16_384, maxBodyBytes: 16_384, nowMs: { 0 }))
        let bytes =
            H2Frames.clientStart + H2Frames.request(stream: 1, method: "POST", path: "/a")
            + H2Frames.request(stream: 3, method: "POST", path: "/b")
        #expect(bytes.withUnsafeBytes { session.receive($0) })
        #expect(session.refusedStreams == 0)
    }
}
