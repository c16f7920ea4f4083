import Reports

/// One rule a captured push or an observed event broke, charged to a Callx catalogue requirement: the engine's one
/// violation model, with the names the Callx checker's callers read.
public typealias InvariantViolation = Violation

extension Violation {
    /// The requirement's ID, e.g. `CALLX-APNS-5`.
    public var requirementID: String { requirement.rawValue }

    /// Where in the push or event the problem is (`headers.apns-expiration`, `message.data.callx→revision`);
    /// empty when the finding concerns the whole push.
    public var path: String { field }
}
