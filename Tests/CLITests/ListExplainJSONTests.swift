import Foundation
import JSON
import TestSupport
import Testing

/// `ringcheck list --json` and `explain --json` for tools, and `explain` saying what each step does and why.
@Suite struct ListExplainJSONTests {
    @Test func listJSONHasTheDocumentedShape() async throws {
        let r = try await RingcheckBinary.run(["list", "--json", "arbitration.*"])
        #expect(r.status == 0, "\(r.stderr)")
        let json = try JSONValue.parse(r.stdout)
        #expect(json["profile"]?.stringValue == "callx")
        #expect(json["suite"]?["id"]?.stringValue == "callx")
        let scenarios = json["scenarios"]?.arrayValue ?? []
        #expect(json["count"]?.intValue == scenarios.count && scenarios.count >= 2)
        let race = try #require(scenarios.first { $0["id"]?.stringValue == "arbitration.two-devices-race" })
        #expect(race["title"]?.stringValue?.isEmpty == false)
        let reqs = race["requirements"]?.arrayValue ?? []
        #expect(reqs.contains { $0["id"]?.stringValue == "CALLX-ARB-1" && $0["level"]?.stringValue == "MUST" })
        #expect(race["tags"]?.arrayValue?.contains(.string("race")) == true)
        #expect(race["needs"]?.arrayValue != nil)
        let none = try await RingcheckBinary.run(["list", "--json", "no-such.*"])
        #expect(none.status == 2)
    }

    @Test func explainSaysWhatEachStepDoesAndWhy() async throws {
        let r = try await RingcheckBinary.run(["explain", "arbitration.late-answer"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            r.stdout.contains(
                "steps[1] expectPush: Waits up to 5s until b-phone and b-tablet each have received a call.invited push")
        )
        #expect(r.stdout.contains("steps[2] answer: Answers the call (by device b-phone"))
        // Why: the requirement the step judges, with level and statement; and the file's comment above it.
        #expect(r.stdout.contains("why: CALLX-ARB-3 (MUST): "))
        #expect(r.stdout.contains("note: The seed: \"Winner snapshot, or conflict\""))
        #expect(r.stdout.contains("expectNoPush: Checks that b-tablet gets no further call.invited push"))
    }

    /// Each profile says what its own steps do (`ProfileStep.explanation`); the CLI keeps no table of them.
    @Test func explainTakesWhatAProfilesStepDoesFromTheStep() async throws {
        let dialstack = try await RingcheckBinary.run(["explain", "wake.every-device", "--profile", "dialstack"])
        #expect(dialstack.status == 0, "\(dialstack.stderr)")
        #expect(
            dialstack.stdout.contains(
                "webhook: Sends the backend a webhook and waits for its answer (45 s, or the target's webhook.answerTimeout)"
            ),
            "\(dialstack.stdout)")
        let pushService = try await RingcheckBinary.run(["explain", "api.refused", "--profile", "push-service"])
        #expect(pushService.status == 0, "\(pushService.stderr)")
        #expect(pushService.stdout.contains("registerDevice: Registers a device"), "\(pushService.stdout)")
        #expect(pushService.stdout.contains("notify: Asks the push service to send a notification"))
    }

    @Test func explainJSONForScenariosAndRequirements() async throws {
        let r = try await RingcheckBinary.run(["explain", "arbitration.two-devices-race", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let json = try JSONValue.parse(r.stdout)
        #expect(json["type"]?.stringValue == "scenario")
        #expect(json["id"]?.stringValue == "arbitration.two-devices-race")
        let steps = json["steps"]?.arrayValue ?? []
        #expect(steps.count == 7, "a race lists its inner steps after it")
        let race = try #require(steps.first { $0["kind"]?.stringValue == "race" })
        #expect(race["requirement"]?.stringValue == "CALLX-ARB-1")
        #expect(race["says"]?.stringValue == "Releases 2 requests at the same instant; exactly 1 must succeed.")
        #expect(steps.allSatisfy { ($0["says"]?.stringValue?.count ?? 0) > 10 && $0["line"]?.intValue != nil })
        #expect(json["devices"]?.arrayValue?.count == 2)
        #expect(json["requirements"]?.arrayValue?.first?["level"]?.stringValue != nil)
        #expect(json["rerunCommand"]?.stringValue == "ringcheck run arbitration.two-devices-race")

        let req = try await RingcheckBinary.run(["explain", "CALLX-ARB-1", "--json"])
        let reqJSON = try JSONValue.parse(req.stdout)
        #expect(reqJSON["type"]?.stringValue == "requirement" && reqJSON["level"]?.stringValue == "MUST")
        #expect(
            reqJSON["scenarios"]?.arrayValue?.contains { $0["id"]?.stringValue == "arbitration.two-devices-race" }
                == true)
    }

    @Test func aTypoGetsTheClosestID() async throws {
        let r = try await RingcheckBinary.run(["explain", "arbitration.two-devices-rase", "--json"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("did you mean 'arbitration.two-devices-race'?"))
        let req = try await RingcheckBinary.run(["explain", "CALLX-ARB1"])
        #expect(req.status == 2)
        #expect(req.stderr.contains("did you mean 'CALLX-ARB-1'?"))
    }
}
