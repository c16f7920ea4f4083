import Conformance
import DialStack
import Foundation
import JSON
import Reports
import Signing
import TestSupport
import Testing

@Suite struct DialStackBodyFormatTests {
    static let event: JSONValue = [
        "id": "evt_01jqr5k8m3n4p6q7r8s9t0u1v3", "type": "call.mobile_push_wakeup",
        "created_at": "2026-04-10T14:30:00Z", "account_id": "acct_01h2xcejqtf2nbrexx3vqjhp41",
        "data": [
            "call_id": "call_01h2xcejqtf2nbrexx3vqjhp45", "user_id": "user_01h2xcejqtf2nbrexx3vqjhp42",
            "from_number": "+14155551234", "from_name": "José \"Pepe\" Müller/Sales 山田 📞",
            "to_number": "+14155559876", "ringing_at": "2026-04-10T14:30:00Z",
        ],
    ]

    @Test(arguments: DialStackBodyFormat.allCases)
    func everyFormatParsesToTheSameEvent(format: DialStackBodyFormat) throws {
        let parsed = try JSONValue.parse(format.body(Self.event))
        #expect(Self.sortedKeys(parsed) == Self.sortedKeys(Self.event))
    }

    @Test func formatsDifferInBytes() {
        let bodies = DialStackBodyFormat.allCases.map { $0.body(Self.event) }
        #expect(Set(bodies).count == bodies.count)
        #expect(DialStackBodyFormat.compact.body(Self.event) == Self.event.bytes())
    }

    @Test func escapedUsesUnicodeEscapesAndEscapedSlashesOnly() {
        let body = DialStackBodyFormat.escaped.body(Self.event)
        let text = String(decoding: body, as: UTF8.self)
        #expect(body.allSatisfy { $0 < 0x80 })
        #expect(text.contains(#"Jos\u00e9 \"Pepe\" M\u00fcller\/Sales \u5c71\u7530 \ud83d\udcde"#))
    }

    @Test func reorderedAndSpacedLookAsNamed() {
        let reordered = String(decoding: DialStackBodyFormat.reordered.body(Self.event), as: UTF8.self)
        #expect(reordered.hasPrefix(#"{"data":{"ringing_at":"#))
        let spaced = String(decoding: DialStackBodyFormat.spaced.body(Self.event), as: UTF8.self)
        #expect(spaced.hasPrefix("{\r\n\t\"id\" :  \"evt_"))
        #expect(spaced.hasSuffix("\r\n}\r\n"))
    }

    /// Python's `json` reads every format as the same event, and its `hmac` verifies ringcheck's signature over the
    /// exact bytes of each (non-ASCII UTF-8 in compact, `\u` escapes and `\/` in escaped).
    @Test func pythonAgreesOnContentAndSignature() async throws {
        try #require(await processAvailable("python3"))
        let directory = TemporaryDirectory(prefix: "ringcheck-dialstack-body")
        let secret = "whsec_é_not_ascii_either"
        for format in DialStackBodyFormat.allCases {
            let body = format.body(Self.event)
            let signature = WebhookSignatureHeader(signing: body, secret: Array(secret.utf8), timestamp: 1_775_831_400)
            #expect(FileManager.default.createFile(atPath: directory.file(format.rawValue), contents: Data(body)))
            try directory.write(format.rawValue + ".sig", signature.header)
        }
        let script = """
            import hmac, hashlib, json, os, sys
            secret = os.environ["SECRET"].encode()
            first = None
            for name in sys.argv[1:]:
                body = open(name, "rb").read()
                t, v1 = [p.split("=", 1)[1] for p in open(name + ".sig").read().split(",")]
                ok = hmac.compare_digest(hmac.new(secret, t.encode() + b"." + body, hashlib.sha256).hexdigest(), v1)
                event = json.loads(body)
                first = first or event
                print(name, ok, event == first, event["data"]["from_name"] == "José \\"Pepe\\" Müller/Sales 山田 📞")
            """
        let names = DialStackBodyFormat.allCases.map(\.rawValue)
        let result = try await offPool {
            try ProcessRunner.run(
                "sh", ["-c", "cd '\(directory.path)' && exec python3 -c \"$SCRIPT\" \"$@\"", "sh"] + names,
                environment: ["SCRIPT": script, "SECRET": secret, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"])
        }
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.split(separator: "\n").map(String.init) == names.map { "\($0) True True True" })
        withExtendedLifetime(directory) {}
    }

    static func sortedKeys(_ value: JSONValue) -> String { value.serialized(sortedKeys: true) }
}
