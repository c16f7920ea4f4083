import JSON

/// One profile's check of a push document of its own for `ringcheck check-payload` (without `--profile` for the
/// default profile, or `--profile <its name>`): an APNs body, an FCM request or message, a bare invitation, or
/// captures, of the `--kind` given (else detected), with `--topic`. A profile offers it as
/// `Profile.payloadDocumentJudge`; one without it may still judge captures (`CapturedPushJudge`), where
/// `--kind` is refused.
///
/// ```swift
/// enum EchoPayloads: PayloadDocumentJudge {
///     static let rulesName = "the echo push rules"
///     static let documentHelp = "FILE (or - for standard input) holds one echo push body ({\"echo\": N})."
///     static let examples = [#"echo '{"echo": 1}' | ringcheck check-payload --profile echo -"#]
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
    /// The rules it judges by, as `check-payload`'s one-line abstract names them ("the Callx push profile").
    static var rulesName: String { get }
    /// What `check-payload --help` says of the documents it accepts: what `FILE` may hold, how the kind is told and
    /// what each kind is judged by (lines within the help's width).
    static var documentHelp: String { get }
    /// `check-payload --help`'s example lines for its documents.
    static var examples: [String] { get }
    /// The profile's push rules over `document`, of `kind` (nil: detected), VoIP pushes expected on `voipTopic`
    /// (nil: any topic ending in `.voip`); throws when the document is none it can read or is not of `kind`.
    static func check(_ document: JSONValue, kind: PayloadKind?, voipTopic: String?) throws(PayloadInputError)
        -> PayloadCheck
}
