import Foundation
import Testing

@testable import Conformance

/// Every expect step of every shipped suite names the requirement it evidences. An expect step without one
/// turns a missing push, event or request into a harness error, so the run ends inconclusive (exit 3) where the
/// backend broke a rule and the verdict should say which (issue 27: a kit that sent nothing was "inconclusive").
/// A response expectation (`expect:` inside a request step) may go without: it checks the set-up.
@Suite struct ExpectStepRequirementTests {
    /// `file:line:col keyword` of each expect step (an item of a step list whose keyword starts with `expect`;
    /// a request's `expect:` and fields such as `expectedRevision` are not steps) without a `requirement:`,
    /// anywhere in `node`.
    static func unnamed(in node: YAMLNode, file: String) -> [String] {
        switch node.content {
        case .scalar: return []
        case .mapping(let entries): return entries.flatMap { unnamed(in: $0.value, file: file) }
        case .sequence(let items):
            var out: [String] = []
            for item in items {
                guard case .mapping(let entries) = item.content, entries.count == 1, let step = entries.first else {
                    out += unnamed(in: item, file: file)
                    continue
                }
                if step.key.hasPrefix("expect"), step.key != "expect" {
                    var named = false
                    if case .mapping(let fields) = step.value.content {
                        named = fields.contains { $0.key == "requirement" }
                    }
                    if !named { out.append("\(file):\(step.keyMark) \(step.key)") }
                }
                out += unnamed(in: step.value, file: file)
            }
            return out
        }
    }

    @Test func everyExpectStepOfEveryShippedSuiteNamesItsRequirement() throws {
        let files = EmbeddedSuitesTests.diskFiles().filter { !$0.hasSuffix("requirements.yaml") }
        #expect(files.count > 20, "\(files)")
        var missing: [String] = []
        for file in files {
            let node = try YAMLDocument.parse(
                contentsOfFile: ConformanceFixtures.repositoryRoot + "/suites/" + file)
            missing += Self.unnamed(in: node, file: file)
        }
        #expect(missing.isEmpty, "expect steps without a requirement:\n\(missing.joined(separator: "\n"))")
    }

    @Test func theCheckFindsAnExpectStepWithoutARequirement() throws {
        let yaml = """
            scenarios:
              - id: x
                steps:
                  - create: {as: a, callee: b, expect: {status: 200}}
                  - race:
                      steps:
                        - expectPush: {to: b-phone}
                  - expectNoPush: {to: b-phone, for: 1s, requirement: CALLX-EXP-2}
                  - expectOneSignal: {within: 5s}
            """
        let node = try YAMLDocument.parse(yaml, file: "probe.yaml")
        #expect(
            Self.unnamed(in: node, file: "probe.yaml") == [
                "probe.yaml:7:15 expectPush", "probe.yaml:9:9 expectOneSignal",
            ])
    }
}
