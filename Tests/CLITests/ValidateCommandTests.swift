import Foundation
import TestSupport
import Testing

/// `ringcheck validate --target FILE`: the target file checked before a run, as CI's "check the target
/// file" step runs it.
@Suite struct ValidateCommandTests {
    @Test func theExampleTargetIsReady() async throws {
        let dir = TemporaryDirectory()
        let target = TargetCommandTests.repositoryRoot + "/examples/targets/reference-alternate.yaml"
        let r = try await RingcheckBinary.run(
            ["validate", "--target", target, "--report-dir", dir.file("reports")], timeout: 120)
        #expect(r.status == 0, "\(r.stdout)\n\(r.stderr)")
        #expect(r.stdout.contains("reads as a callx target"))
        #expect(r.stdout.contains("the backend started"))
        for user in ["a", "b", "c"] { #expect(r.stdout.contains("✔ user \(user): user-\(user)")) }
        // One registration, one read and the clean-up, through the file's mapping.
        #expect(
            r.stdout.contains(
                "✔ registration (registerToken) of a new apnsVoip token for user-a: PUT /api/push-registrations → 200"))
        #expect(r.stdout.contains("✔ read (events) of that installation's feed: GET /api/events → 200"))
        #expect(
            r.stdout.contains("✔ clean-up (deleteToken) of that token: DELETE /api/push-registrations/apnsVoip → 2"))
        // The alternate API shape cannot take the reference design's raw requests: named, with the reason.
        #expect(r.stdout.contains("not applicable:"))
        #expect(r.stdout.contains("security.unauthenticated: not applicable"))
        #expect(r.stdout.contains("The target file is ready"))
    }

    /// Each profile's example target: its registration and clean-up (or why there is none) and exit 0.
    @Test(arguments: [
        (
            "dialstack-reference.yaml",
            [
                "✔ registration (registerToken)", "- read: the dialstack profile reads nothing",
                "✔ clean-up (deleteToken)",
            ]
        ),
        (
            "push-service-alternate.yaml",
            [
                "✔ registration (registerDevice) of an iOS device: POST /v2/apps/",
                "- read: the push service's only read", "✔ clean-up (removeDevice) of that device: DELETE /v2/apps/",
            ]
        ),
        ("onesignal-reference.yaml", ["- registration and read: a OneSignal kit server registers no device"]),
    ])
    func everyProfilesExampleRegistersAndCleansUp(file: String, lines: [String]) async throws {
        let dir = TemporaryDirectory()
        let r = try await RingcheckBinary.run(
            [
                "validate", "--target", TargetCommandTests.repositoryRoot + "/examples/targets/" + file, "--report-dir",
                dir.file("r"),
            ],
            timeout: 120)
        #expect(r.status == 0, "\(r.stdout)\n\(r.stderr)")
        for line in lines { #expect(r.stdout.contains(line), "\(r.stdout)") }
    }

    /// An example target with `from` replaced by `to` (a wrong route): validate exits 3 and names the
    /// operation whose request the backend refused.
    @Test(arguments: [
        (
            "reference-alternate.yaml", "    path: /api/push-registrations\n", "    path: /api/push-registration\n",
            "✘ registration (registerToken) of a new apnsVoip token for user-a: PUT /api/push-registration → 404"
        ),
        (
            "reference-alternate.yaml", "    path: /api/events?after", "    path: /api/event?after",
            "✘ read (events) of that installation's feed: GET /api/event → 404"
        ),
        (
            "reference-alternate.yaml", "    path: /api/push-registrations/{kind}",
            "    path: /api/push-registration/{kind}",
            "✘ clean-up (deleteToken) of that token: DELETE /api/push-registration/apnsVoip → 404"
        ),
        (
            "push-service-alternate.yaml", "devices: /v2/apps/{appId}/installations",
            "devices: /v2/apps/{appId}/installation",
            "✘ registration (registerDevice) of an iOS device: POST /v2/apps/"
        ),
    ])
    func aWrongRouteIsInconclusiveNamingTheOperation(file: String, from: String, to: String, error: String) async throws
    {
        let dir = TemporaryDirectory()
        let path = dir.file(file)
        let text = try String(
            contentsOfFile: TargetCommandTests.repositoryRoot + "/examples/targets/" + file, encoding: .utf8)
        #expect(text.contains(from), "the example \(file) changed; update this test")
        try text.replacingOccurrences(of: from, with: to).write(toFile: path, atomically: true, encoding: .utf8)
        let r = try await RingcheckBinary.run(
            ["validate", "--target", path, "--report-dir", dir.file("r")], timeout: 120)
        #expect(r.status == 3, "\(r.stdout)\n\(r.stderr)")
        #expect(r.stderr.contains(error), "\(r.stderr)")
        #expect(!r.stdout.contains("The target file is ready"))
    }

    /// `ringcheck validate` of a target file holding `text` (named `name`), its reports in the same folder.
    static func validate(_ text: String, name: String) async throws -> ProcessResult {
        let dir = TemporaryDirectory()
        let path = dir.file(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return try await RingcheckBinary.run(["validate", "--target", path, "--report-dir", dir.file("r")])
    }

    @Test func aFileWithProblemsNamesFileLineAndField() async throws {
        let r = try await Self.validate(
            "baseURL: http://127.0.0.1:1\ncapabilitiez: [faults]\n\(TargetCommandTests.users)\n", name: "broken.yaml")
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.contains("broken.yaml:2"))
        #expect(r.stderr.contains("capabilitiez"))
    }

    @Test func aBackendThatDoesNotAnswerIsInconclusive() async throws {
        let r = try await Self.validate(
            "baseURL: \(TargetCommandTests.closedURL)\n\(TargetCommandTests.users)\n", name: "closed.yaml")
        #expect(r.status == 3, "\(r.stdout)\n\(r.stderr)")
        #expect(r.stderr.contains("does not answer"))
    }

    @Test func anAccountThatCannotSignInIsInconclusive() async throws {
        let dir = TemporaryDirectory()
        let path = dir.file("signin.yaml")
        let target = TargetCommandTests.repositoryRoot + "/examples/targets/reference.yaml"
        // The example target with user b's token coming from a command that fails.
        var text = try String(contentsOfFile: target, encoding: .utf8)
        text = text.replacingOccurrences(
            of: "b: {userId: user-b, auth: {bearer: token-user-b}}",
            with: "b: {userId: user-b, auth: {command: [sh, -c, \"echo no token for you >&2; exit 1\"]}}")
        #expect(text.contains("exit 1"), "the example's user b line changed; update this test")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let r = try await RingcheckBinary.run(
            ["validate", "--target", path, "--report-dir", dir.file("r")], timeout: 120)
        #expect(r.status == 3, "\(r.stdout)\n\(r.stderr)")
        #expect(r.stderr.contains("user b (user-b) cannot sign in"))
        #expect(r.stdout.contains("✔ user a: user-a"))
    }

    @Test func targetIsRequired() async throws {
        let r = try await RingcheckBinary.run(["validate"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("--target FILE is required"))
    }
}
