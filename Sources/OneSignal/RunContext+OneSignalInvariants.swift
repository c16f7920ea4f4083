import Conformance
import JSON
import PushMocks
import Reports

extension RunContext {
    /// The OneSignal invariants over every OneSignal request of this run.
    func oneSignalInvariantFailures() -> [CheckFailure] {
        guard let mock = mocks.providers.oneSignal else { return [] }
        let captures = oneSignalCaptures()
        let requests = captures.map(OneSignalRequest.init)
        for c in captures {
            record(.note, "onesignal", "request #\(c.sequence) → \(c.response.status)")
        }
        let (violations, notes) = OneSignalInvariants.judge(
            requests, operations: oneSignal.operations, standard: mock.standardApp, voip: mock.voipApp)
        for text in notes { record(.note, "onesignal", text) }
        let bySequence = Dictionary(captures.map { ($0.sequence, $0) }, uniquingKeysWith: { a, _ in a })
        return failures(for: violations, on: "every OneSignal request") { v in
            v.sequence.flatMap { bySequence[$0] }.map { c in
                [
                    EvidenceItem(
                        kind: .push, title: "onesignal request #\(c.sequence)",
                        text: c.json(revealSecrets: false).serialized(pretty: true))
                ]
            } ?? []
        }
    }
}
