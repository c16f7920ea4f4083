import JSON

/// One profile's check of a push document of its own for `ringcheck check-payload` (without `--profile` for the
/// default profile, or `--profile <its name>`): an APNs body, an FCM request or message, a bare invitation, or
/// captures, of the `--kind` given (else detected), with `--topic`. A profile offers it as
/// `Profile.payloadDocumentJudge`; one without it may still judge captures (`CapturedPushJudge`), where
/// `--kind` is refused.
///
/// ```swift
/// enum EchoPayloads: PayloadDocumentJudge {
///     static func check(_ document: JSONValue, kind: PayloadKind?, voipTopic: String?) throws(PayloadInputError)
///         -> PayloadCheck
///     { PayloadCheck(kind: kind ?? .apns, form: "an echo", violations: EchoRules.violations(of: document)) }
/// }
///
/// extension EchoProfile {
///     var payloadDocumentJudge: (any PayloadDocumentJudge.Type)? { EchoPayloads.self }
/// }
/// ```
public protocol PayloadDocumentJudge: Sendable {
    /// The profile's push rules over `document`, of `kind` (nil: detected), VoIP pushes expected on `voipTopic`
    /// (nil: any topic ending in `.voip`); throws when the document is none it can read or is not of `kind`.
    static func check(_ document: JSONValue, kind: PayloadKind?, voipTopic: String?) throws(PayloadInputError)
        -> PayloadCheck
}
