import Conformance
import Signing

/// What the answer to one DialStack webhook must be, by how it was signed and its type: the requirement it
/// evidences and the statuses it allows (a valid event 2xx; a bad signature 401). `trigger dialstack` and load
/// mode judge answers by it.
enum DialStackAnswerRule {
    /// The requirement, the expected statuses in words, and the test.
    static func rule(signature: WebhookSignatureVariant, eventType: String) -> (
        requirement: RequirementID, expected: String, ok: @Sendable (Int) -> Bool
    ) {
        switch signature {
        case .valid:
            let id =
                eventType == DialStackEvent.wakeUpType ? DialStackRequirement.rawBody : DialStackRequirement.wakeUpOnly
            return (id, "2xx", { (200..<300).contains($0) })
        case .wrongSecret, .bodyChanged: return ("DIALSTACK-SIG-2", "401", { $0 == 401 })
        case .none, .missingTimestamp, .missingV1, .garbage: return ("DIALSTACK-SIG-3", "401", { $0 == 401 })
        case .stale, .future: return ("DIALSTACK-SIG-4", "401", { $0 == 401 })
        }
    }
}
