import TestSupport
import Testing

@testable import AllProfiles
@testable import Conformance

/// `wait: 5s`: a generic step that lets late pushes arrive before the invariants judge; a bad duration
/// is a diagnostic with file, line and field.
@Suite struct WaitStepTests {
    func load(_ steps: String) throws -> Result<Suite, SuiteLoadError> {
        let dir = TemporaryDirectory()
        try dir.write("suite.yaml", "id: callx\nversion: '1'\ntitle: t\nseed: s.txt\nsections: [One]\n")
        try dir.write(
            "requirements.yaml", "requirements:\n  - {id: CALLX-ARB-1, level: SHOULD, statement: s, section: One}\n")
        try dir.write("s.yaml", "id: w.x\ntitle: t\nrequirements: [CALLX-ARB-1]\nsteps:\n\(steps)")
        return Result { () throws(SuiteLoadError) in try Suite.load(directory: dir.path) }
    }

    @Test func aDurationDecodes() throws {
        let suite = try load("  - wait: 1500ms\n  - wait: 2s\n").get()
        #expect(
            suite.scenarios[0].steps.map(\.step) == [
                .wait(.init(milliseconds: 1500)), .wait(.init(milliseconds: 2000)),
            ])
        #expect(suite.scenarios[0].steps[0].step.kind == "wait")
    }

    @Test func aBadDurationNamesTheField() throws {
        guard case .failure(let error) = try load("  - wait: soon\n") else {
            Issue.record("a bad duration loaded")
            return
        }
        #expect(error.errors.count == 1)
        #expect(
            error.errors[0].description.contains("s.yaml:5:") && error.errors[0].description.contains("steps[0].wait"))
    }
}
