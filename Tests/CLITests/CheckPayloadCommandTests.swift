import JSON
import PushMocks
import TestSupport
import Testing

@Suite struct CheckPayloadCommandTests {
    static let invitation =
        #"{"schemaVersion":1,"eventId":"evt-invite-001","type":"call.invited","callId":"85a4fd88-b5c3-4f79-a2cf-a7db9df06750","revision":"1","displayName":"Alex","handle":"callx:user-a","issuedAtMs":1790000000000,"expiresAtMs":1790000030000}"#
    static let apnsBody = #"{"aps":{},"callx":\#(invitation)}"#

    static func fcm(priority: String = "HIGH", ttl: String = "30s", notification: Bool = false) -> String {
        let escaped = invitation.replacingOccurrences(of: "\"", with: "\\\"")
        let extra = notification ? #","notification":{"title":"Alex"}"# : ""
        return
            #"{"message":{"token":"fcm-1","android":{"priority":"\#(priority)","ttl":"\#(ttl)"},"data":{"callx":"\#(escaped)"}\#(extra)}}"#
    }

    func run(_ args: [String], stdin: String) async throws -> ProcessResult {
        try await runProcess(RingcheckBinary.path, ["check-payload"] + args, input: Array(stdin.utf8), timeout: 60)
    }

    func run(file contents: String, _ args: [String] = []) async throws -> ProcessResult {
        let dir = TemporaryDirectory(prefix: "ringcheck-check-payload")
        let path = try dir.write("payload.json", contents)
        return try await RingcheckBinary.run(["check-payload"] + args + [path])
    }

    // MARK: Each kind

    @Test func conformingAPNsBodyFromStdin() async throws {
        let r = try await run(["-"], stdin: Self.apnsBody)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("<stdin>: an APNs body, checked against the apns profile: no violations"))
    }

    @Test func fcmMessageFromAFileListsEveryViolation() async throws {
        let r = try await run(file: Self.fcm(priority: "normal", ttl: "0s", notification: true))
        #expect(r.status == 1)
        #expect(r.stdout.contains("an FCM request, checked against the fcm profile: 3 violations (3 MUST, 0 SHOULD)"))
        #expect(r.stdout.contains("CALLX-FCM-3 MUST message.android.priority: expected \"HIGH\", got \"normal\""))
        #expect(r.stdout.contains("CALLX-FCM-4 MUST message.notification"))
        #expect(r.stdout.contains("CALLX-FCM-7 MUST message.android.ttl: expected more than 0s, got \"0s\""))
    }

    /// FCM takes the priority in any case; the scenarios and the invariants agree.
    @Test(arguments: ["HIGH", "high", "High"])
    func fcmPriorityInAnyCase(priority: String) async throws {
        let r = try await run(["-"], stdin: Self.fcm(priority: priority))
        #expect(r.status == 0, "\(r.stdout)")
        #expect(r.stdout.contains("an FCM request, checked against the fcm profile: no violations"))
    }

    /// A message addressed by `fid` (firebase-admin 7.x) passes as a `token` one does.
    @Test func fidAddressedMessagePasses() async throws {
        let fid = Self.fcm().replacingOccurrences(of: #"{"message":{"token":"#, with: #"{"message":{"fid":"#)
        #expect(fid.contains(#""fid":"fcm-1""#))
        let r = try await run(["-"], stdin: fid)
        #expect(r.status == 0, "\(r.stdout)")
        #expect(r.stdout.contains("no violations"))
    }

    @Test func bareInvitationWithOnlyShouldFindingsExitsZero() async throws {
        let noEventId = Self.invitation.replacingOccurrences(of: #""eventId":"evt-invite-001","#, with: "")
        let r = try await run(["--kind", "invitation", "-"], stdin: noEventId)
        #expect(r.status == 0)
        #expect(
            r.stdout.contains("an invitation, checked against the invitation profile: 1 violation (0 MUST, 1 SHOULD)"))
        #expect(r.stdout.contains("CALLX-INV-5 SHOULD eventId"))
    }

    @Test func brokenInvitationFails() async throws {
        let broken = Self.invitation.replacingOccurrences(of: #""revision":"1""#, with: #""revision":"01""#)
        let r = try await run(file: broken)
        #expect(r.status == 1)
        #expect(
            r.stdout.contains(
                "CALLX-INV-4 MUST revision: expected a decimal string without sign or leading zeros, got \"01\""))
    }

    @Test func captureFromTheControlAPIWithTopic() async throws {
        let f = MockFixture()
        _ = await f.mocks.apnsProduction.handle(f.apnsRequest(headers: [("apns-expiration", "60")]))
        let capture = f.mocks.log.captures().last!.json().serialized(pretty: true)
        let r = try await run(file: capture, ["--topic", f.mocks.credentials.voipTopic])
        #expect(r.status == 1)
        #expect(r.stdout.contains("a capture of the apns mock"))
        #expect(r.stdout.contains("CALLX-APNS-5 MUST headers.apns-expiration: expected \"0\", got \"60\" [capture #1]"))
        let wrongTopic = try await run(file: capture, ["--topic", "com.other.voip"])
        #expect(wrongTopic.stdout.contains("CALLX-APNS-3 MUST headers.apns-topic"))
    }

    // MARK: Errors

    @Test func malformedFileNamesThePosition() async throws {
        let r = try await run(file: "{\n  \"aps\": {},\n  \"callx\": [1,,2]\n}")
        #expect(r.status == 2)
        #expect(r.stderr.contains("payload.json:3:15: not valid JSON"), "\(r.stderr)")
        #expect(r.stdout.isEmpty)
    }

    @Test func malformedStdin() async throws {
        let r = try await run(["-"], stdin: "{\"aps\":")
        #expect(r.status == 2)
        #expect(r.stderr.contains("<stdin>:1:8: not valid JSON"), "\(r.stderr)")
    }

    @Test func missingFile() async throws {
        let r = try await RingcheckBinary.run(["check-payload", "/nonexistent/payload.json"])
        #expect(r.status == 2)
        #expect(
            r.stderr.contains("/nonexistent/payload.json: cannot read the file (No such file or directory)"),
            "\(r.stderr)")
    }

    @Test func unknownShapeAsksForKind() async throws {
        let r = try await run(["-"], stdin: #"{"hello":"world"}"#)
        #expect(r.status == 2)
        #expect(r.stderr.contains("pass --kind apns|fcm|invitation"))
    }

    @Test func badKindAndMissingFileArgumentAreUsageErrors() async throws {
        let kind = try await RingcheckBinary.run(["check-payload", "--kind", "webpush", "-"])
        #expect(kind.status == 2)
        #expect(kind.stderr.contains("--kind takes apns, fcm or invitation"))
        let missing = try await RingcheckBinary.run(["check-payload"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("missing file"))
    }

    @Test func helpExplainsInputsAndExitCodes() async throws {
        let r = try await RingcheckBinary.run(["check-payload", "--help"])
        #expect(r.status == 0)
        for text in ["--kind", "--topic", "- for standard input", "EXIT STATUS", "EXAMPLES:", "/v1/captures"] {
            #expect(r.stdout.contains(text), "help lacks \(text)")
        }
        let top = try await RingcheckBinary.run(["--help"])
        #expect(top.stdout.contains("check-payload"))
    }
}
