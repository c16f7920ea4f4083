import Foundation
import TestSupport
import Testing

/// `ringcheck call` judges every push it shows by the Callx push profile (the checks `check-payload`
/// makes): a MUST violation is printed and the call exits 1, whatever way it ended.
@Suite struct CallPayloadCheckTests {
    static let plain = ProcessInfo.processInfo.environment.merging(["NO_COLOR": "1"]) { $1 }
    static let answered = ["call", "--to", "user-b", "--auto-answer", "0.5", "--hangup-after", "0.5"]

    @Test func aPushThatBreaksTheProfileExitsOneNamingTheViolation() async throws {
        let r = try await RingcheckBinary.run(
            Self.answered + ["--reference-defect", "apns-expiration-30"], timeout: 60, environment: Self.plain)
        #expect(r.status == 1, "\(r.stdout)\n\(r.stderr)")
        #expect(r.stdout.contains("violates CALLX-APNS-5 MUST headers.apns-expiration: expected \"0\", got \""))
        #expect(r.stdout.contains("Outcome: misbehaved — push #"))
        #expect(r.stdout.contains("(exit 1)"))
        let json = try await RingcheckBinary.run(
            Self.answered + ["--reference-defect", "apns-expiration-30", "--json"], timeout: 60,
            environment: Self.plain)
        #expect(json.status == 1)
        #expect(json.stdout.contains("\"exitStatus\":1"))
        #expect(json.stdout.contains("CALLX-APNS-5"))
    }

    @Test func aConformingCallStillExitsAsItEnded() async throws {
        let answered = try await RingcheckBinary.run(Self.answered, timeout: 60, environment: Self.plain)
        #expect(answered.status == 0, "\(answered.stdout)\n\(answered.stderr)")
        #expect(!answered.stdout.contains("violates"))
        let cancelled = try await RingcheckBinary.run(
            ["call", "--to", "user-b", "--cancel-after", "0.5"], timeout: 60, environment: Self.plain)
        #expect(cancelled.status == 12, "\(cancelled.stdout)\n\(cancelled.stderr)")
        #expect(!cancelled.stdout.contains("violates"))
        // The defect the issue saw: a cancelled call exited 12 although its invitation broke the profile.
        let defective = try await RingcheckBinary.run(
            ["call", "--to", "user-b", "--cancel-after", "0.5", "--reference-defect", "apns-expiration-30"],
            timeout: 60, environment: Self.plain)
        #expect(defective.status == 1, "\(defective.stdout)")
    }
}
