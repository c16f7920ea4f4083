import Conformance
import JSON

/// `check-payload` without `--profile` (Callx is the default profile): `PayloadProfile` judges the document.
extension PayloadProfile: PayloadDocumentJudge {
    public static let rulesName = "the Callx push profile"
    public static let documentHelp = """
        FILE (or - for standard input) holds one JSON document:
          - a capture as the control API returns it (an item of GET /v1/captures), or the whole
            {"captures": [...]} answer, which also gets the checks across pushes (duplicate invitations);
          - an APNs request body ({"aps": {}, "callx": {...}});
          - an FCM send request ({"message": {...}}) or the bare message;
          - a bare invitation ({"schemaVersion": 1, "type": "call.invited", ...}).
        The kind is detected unless --kind is given. A capture also carries headers and the arrival time,
        so the APNs header rules and both ttl bounds are judged; a bare payload gets the payload rules
        and, for FCM, the upper ttl bound (ceil((expiresAtMs - issuedAtMs)/1000)).
        """
    public static let examples = [
        "curl -s \"$RINGCHECK_CONTROL_URL/v1/captures?mock=apns\" | ringcheck check-payload -",
        "ringcheck check-payload --kind fcm message.json",
        "echo '{\"aps\":{},\"callx\":{\"schemaVersion\":1,\"type\":\"call.invited\",\"callId\":\"c1\","
            + "\"displayName\":\"Alex\",\"handle\":\"callx:a\"}}' | ringcheck check-payload -",
    ]

    public static func check(_ document: JSONValue, kind: PayloadKind?, voipTopic: String?) throws(PayloadInputError)
        -> PayloadCheck
    {
        try check(document, kind: kind, context: InvariantContext(voipTopic: voipTopic))
    }
}

extension CallxProfile {
    public var payloadDocumentJudge: (any PayloadDocumentJudge.Type)? { PayloadProfile.self }
}
