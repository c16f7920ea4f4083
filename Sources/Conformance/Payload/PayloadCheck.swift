/// What `ringcheck check-payload` is given.
public enum PayloadKind: String, Sendable, CaseIterable {
    /// An APNs request body (`{"aps":{},"callx":{…}}`), or a capture of the APNs mock.
    case apns
    /// An FCM send request (`{"message":{…}}`) or the bare message, or a capture of the FCM mock.
    case fcm
    /// A bare invitation object (`{"schemaVersion":1,"type":"call.invited",…}`).
    case invitation
}

/// Why a document cannot be checked (exit status 2 for the CLI).
public struct PayloadInputError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
    public init(_ message: String) { self.message = message }
}

/// The result of checking one document.
public struct PayloadCheck: Sendable {
    /// The kind checked (given or detected); nil for a list of captures of both APNs and FCM.
    public var kind: PayloadKind?
    /// What the document was: `an APNs body`, `a capture of the FCM mock`, `3 captures`, …
    public var form: String
    public var violations: [Violation]

    /// The memberwise initializer, for the profiles' judges (modules of their own).
    package init(kind: PayloadKind?, form: String, violations: [Violation]) {
        self.kind = kind
        self.form = form
        self.violations = violations
    }
}
