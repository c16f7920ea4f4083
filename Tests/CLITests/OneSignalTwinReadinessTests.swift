import Foundation
import TestSupport
import Testing

/// The onesignal profile's unconfigured twin (`unconfigured.baseURL`) must answer before ringcheck calls a target
/// ready, as the configured instance must: a twin on a port of its own (`${RINGCHECK_BACKEND_SECOND_PORT}`) that
/// nothing serves makes `validate` exit 3 naming the field, and one the lifecycle starts as a second process is
/// ready.
@Suite struct OneSignalTwinReadinessTests {
    static let example = TargetCommandTests.repositoryRoot + "/examples/targets/onesignal-reference.yaml"

    /// The shipped example with its twin moved to the run's second port, started by `start` (a shell line).
    static func target(start: String) throws -> String {
        var text = try String(contentsOfFile: example, encoding: .utf8)
        text = text.replacingOccurrences(
            of: "baseURL: http://127.0.0.1:${RINGCHECK_BACKEND_PORT}/unconfigured",
            with: "baseURL: http://127.0.0.1:${RINGCHECK_BACKEND_SECOND_PORT}/")
        let startLine = try #require(text.range(of: "  start: [\"${RINGCHECK_EXECUTABLE}\"")).lowerBound
        let lineEnd = try #require(text[startLine...].firstIndex(of: "\n"))
        text.replaceSubrange(startLine..<lineEnd, with: "  start: '\(start)'")
        #expect(text.contains("${RINGCHECK_BACKEND_SECOND_PORT}") && text.contains(start))
        return text
    }

    static let configured =
        "exec \"$RINGCHECK_EXECUTABLE\" serve-reference --profile onesignal --mock-settings --port \"$RINGCHECK_BACKEND_PORT\" --quiet"

    @Test func aTwinNothingServesIsNotReady() async throws {
        let dir = TemporaryDirectory()
        let file = try dir.write("twin-missing.yaml", try Self.target(start: Self.configured))
        let r = try await RingcheckBinary.run(
            ["validate", "--target", file, "--report-dir", dir.file("r")], timeout: 150)
        #expect(r.status == 3, "\(r.stdout)\n\(r.stderr)")
        #expect(r.stderr.contains("the backend's unconfigured.baseURL http://127.0.0.1:"), "\(r.stderr)")
        #expect(r.stderr.contains("does not answer"), "\(r.stderr)")
        #expect(!r.stdout.contains("The target file is ready"), "\(r.stdout)")
    }

    @Test func aTwinStartedAsASecondProcessIsReady() async throws {
        let dir = TemporaryDirectory()
        // The twin is the same kit server started without --mock-settings, so without any ONESIGNAL_* setting.
        let twin =
            "\"$RINGCHECK_EXECUTABLE\" serve-reference --profile onesignal --port \"$RINGCHECK_BACKEND_SECOND_PORT\" --quiet & "
        let file = try dir.write("twin-process.yaml", try Self.target(start: twin + Self.configured))
        let r = try await RingcheckBinary.run(
            ["validate", "--target", file, "--report-dir", dir.file("r")], timeout: 150)
        #expect(r.status == 0, "\(r.stdout)\n\(r.stderr)")
        #expect(r.stdout.contains("✔ its unconfigured.baseURL answers too: http://127.0.0.1:"), "\(r.stdout)")
        #expect(r.stdout.contains("The target file is ready"), "\(r.stdout)")
    }
}
