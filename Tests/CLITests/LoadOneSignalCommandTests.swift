import Foundation
import JSON
import TestSupport
import Testing

/// `ringcheck load --profile onesignal` end to end through the built binary: kit operations at a high rate for a
/// few operations against the embedded kit server (and a target file's), clean on the conforming kit, and the
/// defects the history check exists for found and named by their operation. Small counts; the assertions are on
/// verdicts and findings, never on speed.
@Suite(.serialized) struct LoadOneSignalCommandTests {
    static func load(_ arguments: [String]) async throws -> (ProcessResult, JSONValue?) {
        try await LoadCommandTests.load(["--profile", "onesignal"] + arguments)
    }

    @Test func operationsOnTheConformingKitHaveACleanHistory() async throws {
        let (r, report) = try await Self.load(["--calls", "10", "--rate", "10"])
        #expect(r.status == 0, "\(r.stdout)\n\(r.stderr)")
        #expect(report?["profile"]?.stringValue == "onesignal")
        #expect(report?["historyViolations"]?.arrayValue?.isEmpty == true, "\(r.stdout)")
        for script in ["pushToUser", "voipPush", "pushBroadcast", "noRecipients", "unconfigured"] {
            #expect(report?["scripts"]?[script]?.int64Value == 2, "\(script)")
        }
        // One request per operation, none through the unconfigured instance; delivered: the pushes to users with a
        // device, the VoIP pushes and the broadcasts.
        #expect(report?["pushes"]?.int64Value == 8, "\(r.stdout)")
        #expect(report?["invitations"]?.int64Value == 6, "\(r.stdout)")
        let endpoints = Set((report?["endpoints"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue })
        #expect(endpoints == ["pushToUser", "voipPush", "pushBroadcast", "noRecipients", "unconfigured"])
        let figures = (report?["pushLatency"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue }
        #expect(figures == ["kit → OneSignal request"])
        #expect(r.stdout.contains("operations/s sustained"), "\(r.stdout)")
        // The kit runs as a child process (the default), measured on its own.
        #expect(report?["resources"]?["label"]?.stringValue?.contains("serve-reference --profile onesignal") == true)
    }

    /// A kit that sends VoIP pushes through the standard app, and one that reports a push OneSignal answered with
    /// recipients 0 as delivered, are found, each naming the operation (one run with both defects).
    @Test func theWrongAppAndDeliveredOnZeroAreFoundNamingTheOperation() async throws {
        let (r, report) = try await Self.load([
            "--calls", "10", "--rate", "10", "--reference-defect", "voip-through-standard-app",
            "--reference-defect", "delivered-on-zero", "--reference-in-process",
        ])
        #expect(r.status == 1, "\(r.stdout)\n\(r.stderr)")
        // Each VoIP push through the standard app breaks VOIP-1 twice (its app ID and its key), and reaches nobody in
        // the standard app: delivered then breaks DELIV-1 too.
        let wrongApp = LoadCommandTests.violations(report, rule: "right-app")
        #expect(LoadCommandTests.calls(wrongApp).count == 2, "\(r.stdout)")
        #expect(wrongApp.allSatisfy { $0["requirementID"]?.stringValue == "ONESIGNAL-VOIP-1" })
        #expect(
            wrongApp.allSatisfy {
                $0["message"]?.stringValue.map { $0.hasPrefix("operation #") && $0.contains(" voipPush to ") } ?? false
            }, "\(r.stdout)")
        let onZero = LoadCommandTests.violations(report, rule: "delivered-as-answered")
        #expect(onZero.allSatisfy { $0["requirementID"]?.stringValue == "ONESIGNAL-DELIV-1" })
        let noRecipients = onZero.filter { $0["message"]?.stringValue?.contains(" noRecipients to ") == true }
        #expect(noRecipients.count == 2, "\(r.stdout)")
        #expect(r.stdout.contains("ONESIGNAL-VOIP-1"), "\(r.stdout)")
    }

    @Test func aTargetFileForAKitIsLoadedThroughItsLifecycle() async throws {
        let (r, report) = try await LoadCommandTests.load([
            "--target", TargetExampleRunTests.examples + "/onesignal-reference.yaml", "--calls", "5", "--rate", "10",
        ])
        #expect(r.status == 0, "\(r.stdout)\n\(r.stderr)")
        #expect(report?["profile"]?.stringValue == "onesignal")
        #expect(report?["historyViolations"]?.arrayValue?.isEmpty == true, "\(r.stdout)")
        #expect(report?["scripts"]?["unconfigured"]?.int64Value == 1, "the file's unconfigured instance")
        #expect(report?["pushes"]?.int64Value == 4, "\(r.stdout)")
        #expect(report?["resources"]?["label"]?.stringValue?.contains("child process") == true)
    }
}
