import Conformance
import JSON

/// `check-payload` without `--profile` (Callx is the default profile): `PayloadProfile` judges the document.
extension PayloadProfile: PayloadDocumentJudge {
    public static func check(_ document: JSONValue, kind: PayloadKind?, voipTopic: String?) throws(PayloadInputError)
        -> PayloadCheck
    {
        try check(document, kind: kind, context: InvariantContext(voipTopic: voipTopic))
    }
}

extension CallxProfile {
    public var payloadDocumentJudge: (any PayloadDocumentJudge.Type)? { PayloadProfile.self }
}
