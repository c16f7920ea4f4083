import JSON
import Signing
import TestSupport
import Testing

@testable import AllProfiles
@testable import Conformance
@testable import DialStack

/// How scenario files spell a webhook, and what a misspelt one is told (file:line:column and the field).
@Suite struct DialStackWebhookStepTests {
    func decode(_ steps: String) throws -> (Scenario?, [String]) {
        let catalogue = try RequirementCatalogue.load(
            suiteDirectory: ConformanceFixtures.repositoryRoot + "/suites/dialstack")
        let text = """
            id: t.webhook
            title: t
            requirements: [DIALSTACK-SIG-2]
            devices:
              b-phone: {user: b, kind: apnsVoip}
            steps:

            """ + steps
        let root = try YAMLDocument.parse(Array(text.utf8), file: "s.yaml")
        var decoder = ScenarioDecoder(file: "s.yaml", catalogue: catalogue, profile: DialStackProfile())
        let scenario = decoder.decodeFile(root).first
        return (scenario, decoder.d.errors.map(\.description))
    }

    @Test func aWebhookStepDecodesWithItsDefaults() throws {
        let (scenario, errors) = try decode(
            """
              - webhook: {user: b, save: ev}
              - webhook: {event: $ev, signature: stale, seconds: 3600, format: escaped, expect: {status: 401, requirement: DIALSTACK-SIG-2}}
              - webhook: {type: call.ringing, omit: [user_id, from_name], signature: future}

            """)
        #expect(errors.isEmpty, "\(errors)")
        let steps = try #require(scenario).steps.compactMap { s -> WebhookStep? in
            guard case .profile(let p) = s.step else { return nil }
            return p.base as? WebhookStep
        }
        #expect(steps.count == 3)
        #expect(steps[0].type == "call.mobile_push_wakeup" && steps[0].user == "b" && steps[0].save == "ev")
        #expect(steps[0].signature == .valid && steps[0].format == .compact && steps[0].expect == nil)
        #expect(steps[1].event == "$ev" && steps[1].signature == .stale(seconds: 3600) && steps[1].format == .escaped)
        #expect(steps[1].expect == ResponseExpectation(status: [401], requirement: "DIALSTACK-SIG-2"))
        #expect(steps[2].user == nil && steps[2].omit == ["user_id", "from_name"])
        #expect(steps[2].signature == .future(seconds: WebhookSignatureVariant.defaultFutureSeconds))
    }

    @Test func mistakesAreReportedWithTheirPlaceAndASuggestion() throws {
        let (_, errors) = try decode(
            """
              - webhook: {user: b, signature: wrong-secrte}
              - webhook: {user: b, format: pretty}
              - webhook: {signature: valid}
              - webhook: {user: b, signature: valid, seconds: 10}
              - webhook: {event: $nothing, user: b}
              - webhook: {user: b, omit: [user_id, caller]}
              - webhook: {user: x, type: call.answered}

            """)
        let text = errors.joined(separator: "\n")
        #expect(text.contains("s.yaml:7:"), "\(text)")
        #expect(text.contains("'wrong-secrte'") && text.contains("did you mean 'wrong-secret'"), "\(text)")
        #expect(text.contains("s.yaml:8:") && text.contains("'pretty'"), "\(text)")
        #expect(text.contains("missing 'user'"), "\(text)")
        #expect(text.contains("'seconds' applies to signature: stale or future only"), "\(text)")
        #expect(text.contains("'$nothing' refers to nothing saved"), "\(text)")
        #expect(text.contains("it takes no 'user'"), "\(text)")
        #expect(text.contains("'caller' is not a data field"), "\(text)")
        #expect(text.contains("'user' names data.user_id, which 'omit' leaves out"), "\(text)")
        #expect(text.contains("unknown user 'x'") && text.contains("'call.answered'"), "\(text)")
    }
}
