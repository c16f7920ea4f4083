import TestSupport
import Testing

@testable import AllProfiles
@testable import Callx
@testable import Conformance

/// suite.yaml's `profile:`, and a profile's steps as the decoder reads them.
@Suite struct SuiteProfileTests {
    static let requirements = """
        requirements:
          - {id: CALLX-ARB-1, level: SHOULD, statement: one winner, section: One}
        """

    static let scenario = """
        id: basic.one
        title: One call
        requirements: [CALLX-ARB-1]
        devices:
          b-phone: {user: b, kind: apnsVoip}
        steps:
          - request: {as: a, method: GET, path: /v1/calls}

        """

    func suite(profileLine: String?) throws -> TemporaryDirectory {
        let dir = TemporaryDirectory()
        try dir.write(
            "suite.yaml",
            "id: callx\nversion: '1'\ntitle: t\nseed: s.txt\n\(profileLine.map { $0 + "\n" } ?? "")sections: [One]\n")
        try dir.write("requirements.yaml", Self.requirements)
        try dir.write("s.yaml", Self.scenario)
        return dir
    }

    func errors(_ dir: TemporaryDirectory) -> [String] {
        do {
            _ = try Suite.load(directory: dir.path)
            return []
        } catch {
            return error.errors.map { $0.description.replacingOccurrences(of: dir.path + "/", with: "") }
        }
    }

    @Test func aSuiteNamesItsProfile() throws {
        let dir = try suite(profileLine: "profile: callx")
        let loaded = try Suite.load(directory: dir.path)
        #expect(loaded.profile.name == "callx")
        #expect(loaded.catalogue.suite.profile == "callx")
        #expect(loaded.scenarios.count == 1)
    }

    @Test func aSuiteThatNamesNoProfileIsCallx() throws {
        let dir = try suite(profileLine: nil)
        let loaded = try Suite.load(directory: dir.path)
        #expect(loaded.profile.name == "callx")
        #expect(loaded.catalogue.suite.profile == "callx")
    }

    @Test func anUnknownProfileIsOneErrorWithASuggestion() throws {
        let found = errors(try suite(profileLine: "profile: calx"))
        // Only the profile: the scenarios' steps are the profile's, so they are not read with another one.
        #expect(found.count == 1, "\(found)")
        #expect(
            found.first?.hasPrefix("suite.yaml:5:10: profile: unknown profile 'calx' (did you mean 'callx'?)") == true)
        let empty = errors(try suite(profileLine: "profile: ''"))
        #expect(empty.contains { $0.contains("profile: must not be empty") }, "\(empty)")
    }

    // MARK: A profile's steps

    func decode(_ steps: String, profile: any Profile) -> (Scenario?, [String]) {
        let text = Self.scenario.replacingOccurrences(
            of: "  - request: {as: a, method: GET, path: /v1/calls}\n", with: steps)
        guard let root = try? YAMLDocument.parse(Array(text.utf8), file: "s.yaml") else { return (nil, ["parse"]) }
        var decoder = ScenarioDecoder(file: "s.yaml", catalogue: nil, profile: profile)
        let scenario = decoder.decodeFile(root).first
        return (scenario, decoder.d.errors.map(\.description))
    }

    @Test func theProfilesStepsDecodeAndItsRequestStepsMayRace() throws {
        let (scenario, errors) = decode(
            """
              - probe: {as: a, path: /v1/calls, status: 200, save: first}
              - race:
                  - probe: {as: a, path: /v1/calls}
                  - request: {as: a, method: GET, path: "/v1/calls/${first.x}"}
              - countPushes: {device: b-phone, atLeast: 2}
              - expectPush: {to: b-phone}

            """, profile: HookTestProfile())
        #expect(errors.isEmpty, "\(errors)")
        let steps = try #require(scenario?.steps)
        guard case .profile(let probe) = steps[0].step, case .race(let race) = steps[1].step,
            case .profile(let count) = steps[2].step, case .expectPush(let push) = steps[3].step
        else {
            Issue.record("\(steps.map(\.step.kind))")
            return
        }
        #expect(probe.base as? ProbeStep == ProbeStep(actor: .user("a"), path: "/v1/calls", status: 200, save: "first"))
        #expect(steps[0].step.kind == "probe" && race.steps[0].step.kind == "probe")
        #expect(count.base as? CountPushesStep == CountPushesStep(device: "b-phone", atLeast: 2))
        #expect(steps[0].step != steps[2].step && steps[0].step == steps[0].step)
        // The profile gives no default push type: any push.
        #expect(push.type == nil)
    }

    @Test func aProfileStepThatIsNoRequestCannotRaceAndMisspellingsAreSuggested() {
        let (_, raced) = decode(
            """
              - race:
                  - probe: {as: a, path: /v1/calls}
                  - countPushes: {device: b-phone}

            """, profile: HookTestProfile())
        #expect(
            raced.contains {
                $0.contains("'countPushes' cannot run in a race; only requests can (") && $0.contains("probe, create)")
            }, "\(raced)")
        let (_, misspelt) = decode("  - prob: {as: a, path: /v1/calls}\n", profile: HookTestProfile())
        #expect(misspelt.contains { $0.contains("unknown step 'prob' (did you mean 'probe'?)") }, "\(misspelt)")
        let (_, invalid) = decode("  - probe: {as: a, paht: /v1/calls}\n", profile: HookTestProfile())
        #expect(
            invalid.contains { $0.contains("steps[0].probe: unknown field 'paht' (did you mean 'path'?)") },
            "\(invalid)")
        // Another profile's steps are unknown.
        let (_, callx) = decode("  - probe: {as: a, path: /v1/calls}\n", profile: CallxProfile())
        #expect(callx.contains { $0.contains("unknown step 'probe'") }, "\(callx)")
    }

    @Test func callxsDefaultPushTypeIsTheInvitation() throws {
        let (scenario, errors) = decode("  - expectPush: {to: b-phone}\n", profile: CallxProfile())
        #expect(errors.isEmpty, "\(errors)")
        guard case .expectPush(let push) = scenario?.steps.first?.step else {
            Issue.record("no expectPush")
            return
        }
        #expect(push.type == "call.invited")
    }
}
