import Foundation
import ReferenceBackend
import TestSupport
import Testing

/// `WebhookSignature` as a pure function, and checked against an independent HMAC (Python's `hmac`).
@Suite struct DialStackSignatureTests {
    static let secret = "whsec_test_secret"
    static let body = Array(
        #"{"id":"evt_1","type":"call.mobile_push_wakeup","data":{"from_name":"Zoë \"Z\" \u00e9"}}"#.utf8)
    static let nowMs: Int64 = 1_775_831_400_000
    static let t: Int64 = 1_775_831_400

    func verify(_ header: String?, body: [UInt8] = body, nowMs: Int64 = nowMs, checkTimestamp: Bool = true)
        -> WebhookSignature.Verdict
    {
        WebhookSignature.verify(
            header: header, body: body, secret: Self.secret, nowMs: nowMs, toleranceSeconds: 300,
            checkTimestamp: checkTimestamp)
    }

    @Test func aSignatureOfTheRawBodyWithinTheWindowIsValid() {
        let header = WebhookSignature.header(secret: Self.secret, timestamp: Self.t, body: Self.body)
        #expect(verify(header) == .valid)
        #expect(verify(header, nowMs: Self.nowMs + 300_000) == .valid)
        #expect(verify(header, nowMs: Self.nowMs - 300_000) == .valid)
        #expect(!verify(header, nowMs: Self.nowMs + 300_001).isValid)
        #expect(!verify(header, nowMs: Self.nowMs - 300_001).isValid)
        #expect(verify(header, nowMs: 0, checkTimestamp: false) == .valid)
        var changed = Self.body
        changed[3] ^= 0x01
        #expect(!verify(header, body: changed).isValid)
    }

    @Test func theHeaderIsReadAsTheSeedReadsIt() {
        let v1 = WebhookSignature.signature(secret: Self.secret, timestamp: String(Self.t), body: Self.body)
        #expect(verify("v1=\(v1),t=\(Self.t)") == .valid)
        #expect(verify("t=\(Self.t),v1=\(v1),v0=abc,extra") == .valid)
        #expect(verify("t=\(Self.t),v1=\(v1)=trailing") == .valid)  // JavaScript's split keeps the second piece
        #expect(verify("t=1,v1=00,t=\(Self.t),v1=\(v1)") == .valid)  // a later part replaces an earlier one
        #expect(verify("t=\(Self.t),v1=\(v1),v1") != .valid)  // …also when it has no value
        #expect(verify("t=\(Self.t), v1=\(v1)") != .valid)  // " v1" is another name
        #expect(verify(nil) != .valid)
        #expect(verify("") != .valid)
        #expect(verify("t=\(Self.t)") != .valid)
        #expect(verify("v1=\(v1)") != .valid)
        #expect(verify("t=,v1=\(v1)") != .valid)
        #expect(verify("t=\(Self.t),v1=") != .valid)
        #expect(verify("t=x\(Self.t),v1=\(v1)") != .valid)
        #expect(verify("t=\(Self.t),v1=\(v1.uppercased())") != .valid)
    }

    // Async, with the programs run through `runProcess`: a synchronous test runs on the cooperative pool,
    // and python's start-up alone can take seconds on a loaded machine, a pool thread held all along.
    @Test func theSignatureIsTheHMACPythonAndOpenSSLCompute() async throws {
        let t = String(Self.t)
        let ours = WebhookSignature.signature(secret: Self.secret, timestamp: t, body: Self.body)
        let script = """
            import hmac, hashlib, sys
            body = sys.stdin.buffer.read()
            print(hmac.new(sys.argv[1].encode(), sys.argv[2].encode() + b'.' + body, hashlib.sha256).hexdigest())
            """
        let python = try await runProcess(
            "python3", ["-c", script, Self.secret, t], input: Self.body, timeout: 30)
        #expect(python.status == 0)
        #expect(python.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == ours)
        let openssl = try await runProcess(
            "openssl", ["dgst", "-sha256", "-hmac", Self.secret, "-r"], input: Array((t + ".").utf8) + Self.body,
            timeout: 30)
        #expect(openssl.status == 0)
        #expect(openssl.stdout.split(separator: " ").first.map(String.init) == ours)
    }
}
