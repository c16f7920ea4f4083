import Foundation
import Signing
import TestSupport
import Testing

/// Independent proof of the webhook signatures ringcheck sends: `openssl dgst -sha256 -hmac` and Python's `hmac`
/// recompute them from the raw bytes, on bodies with non-ASCII UTF-8, `\u` escapes and escaped slashes.
@Suite struct WebhookSignatureProofTests {
    static let secret = "whsec_5bX9kQ2mV8rT1zLp"
    static let bodies: [String] = [
        #"{"id":"evt_01","type":"call.mobile_push_wakeup","data":{"from_name":"José Müller 山田 📞","to_number":"+14155559876"}}"#,
        #"{"data":{"from_name":"Jos\u00e9 M\u00fcller \u5c71\u7530 \ud83d\udcde","note":"Sales\/EMEA"},"id":"evt_02"}"#,
        "{ \"id\" :  \"evt_03\" ,\r\n\t\"data\" :  { \"from_name\" :  \"Ann \\\"Sales\\\" Ñ\" }\r\n}\r\n",
    ]

    @Test(arguments: 0..<3)
    func opensslComputesTheSameV1(index: Int) async throws {
        try #require(await SigningTestTools.hasOpenSSLAsync())
        let body = Array(Self.bodies[index].utf8)
        let signature = WebhookSignatureHeader(signing: body, secret: Array(Self.secret.utf8), timestamp: 1_775_831_400)
        let directory = TemporaryDirectory(prefix: "ringcheck-webhook")
        let result = try await SigningTestTools.opensslAsync(
            ["dgst", "-sha256", "-hmac", Self.secret, "-r"], in: directory,
            input: WebhookSignatureHeader.signedPayload(body: body, timestamp: 1_775_831_400))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.split(separator: " ").first.map(String.init) == signature.v1)
    }

    /// Python parses the header and verifies it the way the seed's handler does (split on `,` and `=`, a 300 s
    /// window around the given now, constant-time compare over `"<t>." + raw body`).
    @Test(arguments: 0..<3)
    func pythonVerifiesValidAndRefusesEveryOtherVariant(index: Int) async throws {
        try #require(await processAvailable("python3"))
        let body = Array(Self.bodies[index].utf8)
        let now: Int64 = 1_775_831_400
        let directory = TemporaryDirectory(prefix: "ringcheck-webhook")
        var expected: [String] = []
        for name in WebhookSignatureVariant.names {
            let variant = try #require(WebhookSignatureVariant(name: name))
            let sent = variant.sign(body, secret: Array(Self.secret.utf8), now: now)
            #expect(FileManager.default.createFile(atPath: directory.file("\(name).body"), contents: Data(sent.body)))
            try directory.write("\(name).header", sent.headerValue ?? "")
            expected.append("\(name) \(variant.isValid ? "ok" : "refused")")
        }
        let script = """
            import hmac, hashlib, os, sys
            secret, now = os.environ["SECRET"].encode(), int(os.environ["NOW"])
            for name in sys.argv[1:]:
                body = open(name + ".body", "rb").read()
                header = open(name + ".header").read()
                parts = dict(p.split("=", 1) for p in header.split(",") if "=" in p) if header else {}
                t, v1 = parts.get("t"), parts.get("v1")
                ok = bool(t and v1 and t.isdigit() and abs(now - int(t)) <= 300)
                if ok:
                    mac = hmac.new(secret, t.encode() + b"." + body, hashlib.sha256).hexdigest()
                    ok = hmac.compare_digest(mac, v1)
                print(name, "ok" if ok else "refused")
            """
        let result = try await offPool {
            try ProcessRunner.run(
                "sh",
                ["-c", "cd '\(directory.path)' && exec python3 -c \"$SCRIPT\" \"$@\"", "sh"]
                    + WebhookSignatureVariant.names,
                environment: ["SCRIPT": script, "SECRET": Self.secret, "NOW": String(now), "PATH": "/usr/bin:/bin"])
        }
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.split(separator: "\n").map(String.init) == expected)
        withExtendedLifetime(directory) {}
    }
}
