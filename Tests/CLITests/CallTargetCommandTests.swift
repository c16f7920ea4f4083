import Foundation
import JSON
import Processes
import TestSupport
import Testing

/// `ringcheck call --target FILE`: the fake caller against a backend it knows only through a target
/// file — the reference backend in its alternate API shape, which ringcheck starts after its mocks.
@Suite struct CallTargetCommandTests {
    /// The shipped alternate example on a free port, with `ringcheck` on PATH for its start command.
    static func alternateTarget(_ dir: TemporaryDirectory) throws -> (path: String, environment: [String: String]) {
        let port = try #require(LoopbackPort.free())
        let example = try String(
            contentsOfFile: TargetCommandTests.repositoryRoot + "/examples/targets/reference-alternate.yaml",
            encoding: .utf8)
        let path = try dir.write("alternate.yaml", example.replacingOccurrences(of: "8090", with: "\(port)"))
        var env = CallCommandTests.plain
        env["PATH"] =
            (RingcheckBinary.path as NSString).deletingLastPathComponent + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        return (path, env)
    }

    @Test func answeredThroughTheMappingByRoleOrUserId() async throws {
        let dir = TemporaryDirectory()
        let (path, env) = try Self.alternateTarget(dir)
        let r = try await RingcheckBinary.run(
            ["call", "--target", path, "--as", "a", "--to", "user-b", "--auto-answer", "0.3", "--hangup-after", "0.5"],
            timeout: 60, environment: env)
        #expect(r.status == 0, "\(r.stdout)\n\(r.stderr)")
        // The answer went out as the alternate shape's media-token request, the end as its hangup.
        #expect(r.stdout.contains("virtual phone answers: POST /api/v2/calls/"))
        #expect(r.stdout.contains("/media-token → 200 accepted"))
        #expect(r.stdout.contains("/hangup (remoteEnded) → 200 ended"))
        #expect(r.stdout.contains("APNs sandbox accepted invitation to phone"))
        #expect(r.stdout.contains("RINGCHECK_APNS_URL="), "the mock settings are announced")
        #expect(!r.stdout.contains("token-user-"), "bearer tokens are never printed")
    }

    @Test func declinedThroughTheMappingExitsTenAsJSON() async throws {
        let dir = TemporaryDirectory()
        let (path, env) = try Self.alternateTarget(dir)
        let r = try await RingcheckBinary.run(
            ["call", "--target", path, "--as", "a", "--to", "b", "--auto-decline", "0.3", "--json"], timeout: 60,
            environment: env)
        #expect(r.status == 10, "\(r.stdout)\n\(r.stderr)")
        let lines = CallCommandTests.lines(r)
        #expect(!lines.isEmpty && lines.count == r.stdout.split(separator: "\n").count, "only NDJSON on stdout")
        #expect(lines.last?["kind"]?.stringValue == "summary")
        #expect(lines.last?["outcome"]?.stringValue == "declined")
    }

    @Test func anUnknownAccountIsAUsageError() async throws {
        let dir = TemporaryDirectory()
        let (path, env) = try Self.alternateTarget(dir)
        let r = try await RingcheckBinary.run(
            ["call", "--target", path, "--as", "a", "--to", "nobody"], timeout: 60, environment: env)
        #expect(r.status == 2, "\(r.stdout)\n\(r.stderr)")
        #expect(r.stderr.contains("no account 'nobody' (--to)"))
    }
}
