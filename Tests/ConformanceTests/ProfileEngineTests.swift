import Conformance
import Foundation
import ReferenceBackend
import Reports
import TestSupport
import Testing

@testable import AllProfiles
@testable import Callx
@testable import Conformance

/// The engine runs a profile's steps (alone and in a race), reads pushes through the profile, and
/// judges a run with the profile's invariants instead of anything built in.
@Suite(.serialized) struct ProfileEngineTests {
    static let scenario = """
        id: probe.steps
        title: A call, its push, and the probe profile's steps
        requirements: [CALLX-E2E-1, CALLX-ARB-1, CALLX-SEC-1]
        devices:
          b-phone: {user: b, kind: apnsVoip}
        steps:
          - create: {as: a, callee: b, save: call}
          - expectPush: {to: b-phone, call: $call.callId, within: 10s, requirement: CALLX-E2E-1}
          - countPushes: {device: b-phone, atLeast: COUNT}
          - probe: {as: a, path: "/v1/calls/${call.callId}", status: STATUS}
          - race:
              - probe: {as: a, path: "/v1/calls/${call.callId}"}
              - probe: {device: b-phone, path: "/v1/calls/${call.callId}"}
            expect: {winners: 2, requirement: CALLX-ARB-1}
        """

    /// The shipped catalogue with `scenario` decoded for `profile`.
    static func suite(_ scenario: String, profile: any Profile) throws -> Suite {
        let shipped = try Suite.load(directory: ConformanceFixtures.callxSuite)
        let root = try YAMLDocument.parse(scenario, file: "probe.yaml")
        var decoder = ScenarioDecoder(file: "probe.yaml", catalogue: shipped.catalogue, profile: profile)
        let scenarios = decoder.decodeFile(root)
        #expect(decoder.d.errors.isEmpty, "\(decoder.d.errors)")
        return Suite(directory: shipped.directory, catalogue: shipped.catalogue, scenarios: scenarios)
    }

    static func outcome(
        count: Int = 1, status: Int = 200, defects: Set<CallxDefect> = [], profile: any Profile = HookTestProfile()
    ) async throws -> ScenarioResult {
        let text = scenario.replacingOccurrences(of: "COUNT", with: "\(count)")
            .replacingOccurrences(of: "STATUS", with: "\(status)")
        let suite = try suite(text, profile: HookTestProfile())
        let stack = try await EngineTestStack.start(defects: defects, runs: 4, profile: profile)
        let results = await stack.run(in: suite)
        await stack.stop()
        return try #require(results.first?.attempts.first)
    }

    @Test func aConformingBackendPassesTheProfilesSteps() async throws {
        let o = try await Self.outcome()
        #expect(
            o.status == .pass,
            "\(o.status.name) \(o.failures.map { "\($0.requirement ?? "-") \($0.check): \($0.actual)" })")
        #expect(o.timeline.contains { $0.summary.contains("b-phone got 1 push(es)") })
        // The probe's own state kept its three requests (one alone, two raced) until its invariants read it.
        #expect(o.timeline.contains { $0.summary == "probe sent 3 request(s)" })
        // What the probe's state names as report secrets (its paths) is shortened in the report.
        let probes = o.timeline.filter { $0.kind == .request && $0.summary.hasPrefix("GET /v1/") }
        #expect(probes.count == 3 && probes.allSatisfy { $0.summary.contains("…") }, "\(probes.map(\.summary))")
        // Both raced probes went out together, and the push is on the timeline as the profile reads it.
        #expect(o.raceSpreadsMs.count == 1)
        #expect(o.timeline.contains { $0.kind == .push && $0.summary.hasPrefix("apns call.invited rev ") })
    }

    @Test func theProfilesStepsChargeTheirOwnRequirements() async throws {
        let o = try await Self.outcome(count: 5, status: 404)
        #expect(o.status == .fail)
        let charged = o.failures.map { "\($0.requirement ?? "-") \($0.check)" }
        #expect(charged.contains("CALLX-E2E-1 steps[2] countPushes"), "\(charged)")
        #expect(charged.contains { $0.hasPrefix("CALLX-SEC-1 steps[3] probe by a: response status") }, "\(charged)")
    }

    /// With the `apns-expiration-30` defect, Callx's invariants fail CALLX-APNS-5; the probe profile's
    /// invariants (every push accepted) do not, so the engine ran the profile's, not Callx's.
    @Test func theInvariantsAreTheProfiles() async throws {
        let probe = try await Self.outcome(defects: [.apnsExpiration30])
        #expect(!probe.failures.contains { $0.requirement == "CALLX-APNS-5" }, "\(probe.failures.map(\.check))")
        #expect(probe.status == .pass)
        let callx = try await Self.outcome(defects: [.apnsExpiration30], profile: CallxProfile())
        #expect(callx.failures.contains { $0.requirement == "CALLX-APNS-5" && $0.check.hasPrefix("invariant") })
    }
}
