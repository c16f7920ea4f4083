import AllProfiles
import Conformance
import Foundation
import JSON
import TestSupport
import Testing

/// `ringcheck run --profile push-service` through `examples/targets/push-service-alternate.yaml`: ringcheck starts
/// the reference push service in its alternate API shape (other routes, other member names, the seed's routes
/// 404) and judges it by the same suite through the file's `routes` and `fieldNames` alone. The conforming
/// service passes; a defect fails its own requirement through the same file.
@Suite(.serialized) struct PushServiceAlternateTargetRunTests {
    static let example = TargetCommandTests.repositoryRoot + "/examples/targets/push-service-alternate.yaml"

    func run(_ target: String, tags: [String] = []) async throws -> (
        status: Int32, failed: Set<String>, scenarios: Int, output: String
    ) {
        let dir = TemporaryDirectory()
        let r = try await RingcheckBinary.runSuite(
            ["run", "--profile", "push-service", "--target", target, "--format", "json", "--report-dir", dir.file("r")]
                + tags.flatMap { ["--tag", $0] },
            timeout: 300, environment: TargetExampleRunTests.withoutRingcheckOnPath)
        let text = (try? String(contentsOfFile: dir.file("r/report.json"), encoding: .utf8)) ?? ""
        let report = try JSONValue.parse(text)
        var failed: Set<String> = []
        let scenarios = report["scenarios"]?.arrayValue ?? []
        for s in scenarios {
            for f in s["failures"]?.arrayValue ?? [] { if let id = f["requirement"]?.stringValue { failed.insert(id) } }
        }
        return (r.status, failed, scenarios.count, r.stdout + r.stderr + text)
    }

    /// The example with `--defect NAME` added to the service's start command.
    func withDefect(_ defect: String, _ dir: TemporaryDirectory) throws -> String {
        let text = try String(contentsOfFile: Self.example, encoding: .utf8).replacingOccurrences(
            of: "--quiet]", with: "--quiet, --defect, \(defect)]")
        #expect(text.contains(defect))
        return try dir.write("push-service-alternate-\(defect).yaml", text)
    }

    @Test func theConformingAlternateShapePassesThroughTheFileAlone() async throws {
        let r = try await run(Self.example)
        #expect(r.status == 0, "\(r.output)")
        #expect(r.failed.isEmpty, "\(r.failed)\n\(r.output)")
        // Every scenario of the built-in suite runs through the file: none is left not applicable.
        #expect(r.scenarios == (try Suite.load(directory: "builtin:push-service")).scenarios.count, "\(r.output)")
    }

    @Test func defectsFailTheirRequirementsThroughTheSameFile() async throws {
        let dir = TemporaryDirectory()
        let alert = try await run(try withDefect("alert-for-calls", dir))
        #expect(alert.status == 1, "\(alert.output)")
        #expect(alert.failed == ["PUSHSVC-CALL-1"], "\(alert.output)")
        let anyKey = try await run(try withDefect("accept-any-key", dir))
        #expect(anyKey.status == 1, "\(anyKey.output)")
        #expect(anyKey.failed == ["PUSHSVC-AUTH-3"], "\(anyKey.output)")
        // A SHOULD: it warns (exit 0) but is reported, through the renamed registration members.
        let badRegistration = try await run(try withDefect("accept-bad-registration", dir), tags: ["api"])
        #expect(badRegistration.status == 0, "\(badRegistration.output)")
        #expect(badRegistration.failed == ["PUSHSVC-REQ-5"], "\(badRegistration.output)")
    }

    /// Without the file's mapping the same service cannot be judged: the seed's routes answer 404.
    @Test func theSeedsRoutesDoNotReachTheAlternateShape() async throws {
        let dir = TemporaryDirectory()
        var text = try String(contentsOfFile: Self.example, encoding: .utf8)
        let routes = try #require(text.range(of: "  routes:"))
        let users = try #require(text.range(of: "# The REST key"))
        text.removeSubrange(routes.lowerBound..<users.lowerBound)
        let r = try await run(try dir.write("push-service-alternate-unmapped.yaml", text), tags: ["smoke"])
        #expect(r.status != 0, "\(r.output)")
        #expect(r.output.contains("answered 404"), "\(r.output)")
    }
}
