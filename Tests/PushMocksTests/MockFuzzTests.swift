import HTTP
import JSON
import PushMocks
import TestSupport
import Testing

/// Random bytes, headers, paths and methods: every handler must answer (or reset) without crashing.
@Suite(.cpuBound) struct MockFuzzTests {
    let f = MockFixture()

    static func bytes(_ n: Int, _ g: inout SeededGenerator) -> [UInt8] {
        (0..<n).map { _ in UInt8.random(in: 0...255, using: &g) }
    }

    static func text(_ n: Int, _ g: inout SeededGenerator) -> String { String(decoding: bytes(n, &g), as: UTF8.self) }

    func randomRequest(_ g: inout SeededGenerator) -> HTTPRequest {
        let methods = ["POST", "GET", "DELETE", "PUT", "", "P\u{0}ST", "post"]
        let paths = [
            "/3/device/\(MockFixture.deviceToken)", "/3/device/", "/v1/projects/ringcheck-test/messages:send",
            "/token", "/v1/faults", "/v1/captures?since=-1&mock=%zz&deviceToken=%", "/v1/devices/%ff%fe",
            "/v1/captures/wait?timeoutMs=0&count=0", "/v1/faults/", "//", "",
            "/3/device/" + String(repeating: "a", count: 100_000), "/\u{0}\u{ff}?&&==",
        ]
        var headers = HTTPHeaders()
        for _ in 0..<Int.random(in: 0...12, using: &g) {
            let names = [
                "authorization", "apns-topic", "apns-push-type", "apns-priority", "apns-expiration", "apns-id",
                "apns-collapse-id", "content-type", "host", Self.text(8, &g),
            ]
            let name = names.randomElement(using: &g)!
            let values = [
                "bearer " + Self.text(40, &g), "bearer \(f.jwt)", "bearer eyJ.eyJ.", Self.text(20, &g),
                String(repeating: "x", count: 70_000), "10", "-1", "voip", "com.ringcheck.testapp.voip",
                "Bearer ya29.x", "application/json",
            ]
            headers.add(name, values.randomElement(using: &g)!)
        }
        let bodies: [[UInt8]] = [
            Self.bytes(Int.random(in: 0...6000, using: &g), &g), MockFixture.voipBody,
            Array(#"{"message":{"token":1,"data":{"a":[]}},"validate_only":"x"}"#.utf8),
            Array(
                #"grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=eyJhbGciOiJSUzI1NiJ9.e30.AA"#
                    .utf8),
            Array(String(repeating: "[", count: 10_000).utf8), Array(#"{"a":"\ud800"}"#.utf8),
            Array(#"{"connection":"reset","times":99999999999999999999}"#.utf8), [0xFF, 0xFE, 0x00],
        ]
        return HTTPRequest(
            method: methods.randomElement(using: &g)!, target: paths.randomElement(using: &g)!,
            authority: Bool.random(using: &g) ? Self.text(10, &g) : nil, headers: headers,
            body: bodies.randomElement(using: &g)!,
            version: Bool.random(using: &g) ? .http2 : .http1_1,
            connection: MockFixture.connection(UInt64.random(in: 0...5, using: &g)),
            streamID: Int32.random(in: -1...100, using: &g), arrivalMs: Int64.random(in: -1...Int64.max, using: &g))
    }

    @Test(arguments: [MockProviderID.apns, .fcm, .oauth])
    func handlersSurviveGarbage(kind: MockProviderID) async {
        var g = SeededGenerator(seed: UInt64(kind.rawValue.count) * 7919)
        let handler: any HTTPHandler = kind == .apns ? f.mocks.apnsSandbox : f.mocks.all.first { $0.id == kind }!
        for _ in 0..<100 {
            // Seconds of computing in a debug build: let the rest of the suite (servers under test among
            // it) have the cooperative pool's threads in between.
            await Task.yield()
            let request = randomRequest(&g)
            let response = await handler.handle(request)
            if kind == .apns && request.version != .http2 {
                // APNs answers no HTTP/1.1 request: the connection is dropped.
                #expect(response.directive == .resetWithoutResponse)
                continue
            }
            #expect((400...599).contains(response.status) || response.status == 200)
            if kind == .apns { #expect(response.headers["apns-id"] != nil) }
        }
        for capture in f.mocks.log.captures() {
            await Task.yield()
            _ = capture.json().serialized()
            _ = capture.json(revealSecrets: true).serialized()
        }
    }

    @Test func googleRouterAndControlSurviveGarbage() async {
        var g = SeededGenerator(seed: 42)
        let google = f.mocks.handler(forListener: "google")!
        for i in 0..<100 {
            // Listing captures renders the whole log: keep it short so the test stays quick in debug builds.
            if i % 10 == 0 { f.mocks.log.clear() }
            await Task.yield()
            _ = await google.handle(randomRequest(&g))
            let r = await f.mocks.control.handle(randomRequest(&g))
            #expect((200...599).contains(r.status))
        }
    }
}
