import Foundation
import JSON
import TestSupport
import Testing

/// `ringcheck load --profile dialstack` end to end through the built binary: signed webhooks at a low rate
/// against the embedded wake-up reference (and a target file's), the history clean on the conforming
/// reference, and each defect the history check exists for found and named by its webhook. Small counts and
/// generous time limits; the assertions are on verdicts and findings, never on speed.
@Suite(.serialized) struct LoadDialStackCommandTests {
    static func load(_ arguments: [String]) async throws -> (ProcessResult, JSONValue?) {
        try await LoadCommandTests.load(["--profile", "dialstack"] + arguments)
    }

    @Test func webhooksOnTheConformingReferenceHaveACleanHistory() async throws {
        let (r, report) = try await Self.load(["--calls", "20", "--rate", "5"])
        #expect(r.status == 0, "\(r.stdout)\n\(r.stderr)")
        #expect(report?["profile"]?.stringValue == "dialstack")
        #expect(report?["verdict"]?.stringValue == "conformant")
        #expect(report?["historyViolations"]?.arrayValue?.isEmpty == true, "\(r.stdout)")
        #expect(report?["invariantViolations"]?.arrayValue?.isEmpty == true, "\(r.stdout)")
        #expect(report?["callsFinished"]?.int64Value == 20)
        for script in ["wake-up", "redelivery", "other-type", "bad-signature"] {
            #expect((report?["scripts"]?[script]?.int64Value ?? 0) > 0, "no \(script) webhook")
        }
        // 12 wake-ups (8 plus 4 delivered twice) for users with 1, 2 and 3 devices in turn: at least one push each.
        #expect((report?["invitations"]?.int64Value ?? 0) >= 12, "\(r.stdout)")
        let endpoints = Set((report?["endpoints"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue })
        #expect(endpoints == ["register", "webhook"])
        let register = report?["endpoints"]?.arrayValue?.first { $0["name"]?.stringValue == "register" }
        // The reference runs as a child process (the default) with its users user-a, user-b and user-c.
        #expect(register?["count"]?.int64Value == 6, "three users with 1, 2 and 3 devices")
        #expect(report?["resources"]?["label"]?.stringValue?.contains("serve-reference --profile dialstack") == true)
        let figures = (report?["pushLatency"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue }
        #expect(figures.contains { $0.contains("APNs") } && figures.contains { $0.contains("FCM") }, "\(figures)")
        #expect(r.stdout.contains("webhooks/s sustained"), "\(r.stdout)")
        #expect(r.stdout.contains("history check: clean"))
        #expect(r.stdout.contains("verdict: conformant (exit 0)"))
    }

    @Test func aPushToAnotherUsersDeviceIsFoundNamingTheWebhook() async throws {
        let (r, report) = try await Self.load(["--calls", "10", "--rate", "5", "--reference-defect", "wrong-user"])
        #expect(r.status == 1, "\(r.stdout)\n\(r.stderr)")
        let found = LoadCommandTests.violations(report, rule: "no-other-user")
        #expect(!found.isEmpty, "\(r.stdout)")
        #expect(found.allSatisfy { $0["requirementID"]?.stringValue == "DIALSTACK-WAKE-2" })
        #expect(found.allSatisfy { $0["message"]?.stringValue?.hasPrefix("webhook evt_") == true })
        let shown = found.prefix(3).compactMap { $0["message"]?.stringValue }
        for message in shown { #expect(r.stdout.contains(message), "\(r.stdout)") }
        // Only wake-ups push: the other events and the bad signatures stay quiet even on this backend.
        let all = report?["historyViolations"]?.arrayValue ?? []
        #expect(!all.contains { $0["rule"]?.stringValue == "no-push-for-bad-signature" }, "\(r.stdout)")
    }

    /// DIALSTACK-DEDUP-1 is a SHOULD (the seed is silent on redelivery): found and named, and with --strict
    /// the run fails on it.
    @Test func aRedeliveryThatRingsAgainIsFoundAndFailsAStrictRun() async throws {
        let (r, report) = try await Self.load([
            "--calls", "10", "--rate", "5", "--strict", "--reference-defect", "ring-twice-on-redelivery",
        ])
        #expect(r.status == 1, "\(r.stdout)\n\(r.stderr)")
        let found = LoadCommandTests.violations(report, rule: "no-ring-on-redelivery")
        #expect(!found.isEmpty, "\(r.stdout)")
        #expect(found.allSatisfy { $0["requirementID"]?.stringValue == "DIALSTACK-DEDUP-1" })
        #expect(found.allSatisfy { $0["level"]?.stringValue == "SHOULD" })
        #expect(found.allSatisfy { $0["message"]?.stringValue?.hasPrefix("webhook evt_") == true })
        // Wake-ups delivered once are not charged: only the redelivered ones ring twice.
        #expect(LoadCommandTests.violations(report, rule: "wake-once").isEmpty, "\(r.stdout)")
    }

    @Test func pushesForBadSignaturesAreFound() async throws {
        // In process, the embedded reference's six load users.
        let (r, report) = try await Self.load([
            "--calls", "10", "--rate", "5", "--reference-defect", "no-signature-check", "--reference-in-process",
        ])
        #expect(r.status == 1, "\(r.stdout)\n\(r.stderr)")
        let answers = LoadCommandTests.violations(report, rule: "webhook-answer")
        #expect(!answers.isEmpty, "\(r.stdout)")
        let pushed = LoadCommandTests.violations(report, rule: "no-push-for-bad-signature")
        #expect(!pushed.isEmpty, "\(r.stdout)")
        #expect(pushed.allSatisfy { ($0["requirementID"]?.stringValue ?? "").hasPrefix("DIALSTACK-SIG-") })
    }

    /// The example dialstack file with its users named alice, bob and carol: the webhooks wake every user the
    /// file declares, whatever their names (1, 2 and 3 devices).
    @Test func aTargetFileForDialStackIsLoadedThroughItsLifecycleWakingEveryUserItDeclares() async throws {
        let (r, report) = try await Self.loadExample(
            changing: [("a", "alice"), ("b", "bob"), ("c", "carol")].map { role, name in
                ("\n  \(role): {userId: user-\(role)", "\n  \(name): {userId: user-\(role)")
            })
        #expect(r.status == 0, "\(r.stdout)\n\(r.stderr)")
        #expect(report?["profile"]?.stringValue == "dialstack")
        let register = report?["endpoints"]?.arrayValue?.first { $0["name"]?.stringValue == "register" }
        #expect(register?["count"]?.int64Value == 6, "three users with 1, 2 and 3 devices")
        #expect(report?["historyViolations"]?.arrayValue?.isEmpty == true, "\(r.stdout)")
        #expect(report?["resources"]?["label"]?.stringValue?.contains("child process") == true)
    }

    @Test func callxOnlyOptionsAndUnknownDefectsAreUsageErrors() async throws {
        let (ring, _) = try await Self.load(["--short-ring", "3"])
        #expect(ring.status == 2)
        #expect(ring.stderr.contains("--short-ring applies to --profile callx only"), "\(ring.stderr)")
        let (process, _) = try await Self.load(["--reference-process", "--reference-in-process"])
        #expect(process.status == 2)
        #expect(process.stderr.contains("exclude each other"), "\(process.stderr)")
        let (defect, _) = try await Self.load(["--reference-defect", "racy-answer"])
        #expect(defect.status == 2)
        #expect(defect.stderr.contains("wrong-user"), "the dialstack defects are listed: \(defect.stderr)")
        let (mismatch, _) = try await LoadCommandTests.load([
            "--profile", "callx", "--target", TargetExampleRunTests.examples + "/dialstack-reference.yaml",
        ])
        #expect(mismatch.status == 2, "\(mismatch.stderr)")
    }
}
