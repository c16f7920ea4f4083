import Conformance
import JSON
import PushMocks

extension FakeCaller {
    /// Judges one push of the call by the Callx push profile (the checks `check-payload` makes on a
    /// capture): every violation goes on the timeline, and a MUST violation is a finding, so the
    /// call ends as misbehaved.
    func checkPayload(_ c: Capture) {
        let context = InvariantContext(voipTopic: mocks?.settings.apnsVoIPTopic)
        for v in InvariantChecker.check(captures: [c], context: context) {
            let text = "push #\(c.sequence) violates \(v.description)"
            if v.level == .must {
                emitChange(progress.addFinding(text))
            } else {
                entry(.note, "warning: " + text, [("violation", .string(v.description))])
            }
        }
    }
}
