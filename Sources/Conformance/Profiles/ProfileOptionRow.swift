import InputLimits

/// One row of a command's `--help` that a profile declares next to its options (`trigger`'s, through
/// `TriggerProfileOptions.optionRows`; `check-payload`'s, through `CapturedPushJudge.optionRows`): the option's name,
/// the placeholder of its value (none for a flag), the profile's sentence about it, its default and the numbers it
/// takes. The command builds its options from the registry: its shared options first, then each profile's rows in
/// registry order. An option two profiles declare is one row whose help joins their sentences
/// (`push-service: call or notification; onesignal: user, broadcast or voip.`); a row naming a shared option
/// (`url`, `user`) adds the profile's sentence to the command's row.
///
/// ```swift
/// extension EchoTriggerOptions {
///     static let optionRows: [ProfileOptionRow] = [
///         .value("message", "TEXT", help: "the message to echo", default: "hello"),
///         .flag("shout", help: "echo it in capitals"),
///     ]
/// }
/// ```
public struct ProfileOptionRow: Sendable, Equatable {
    /// The long name without dashes (`call-id`).
    public var name: String
    /// The placeholder shown in help (`ID`); nil for a flag.
    public var valueName: String?
    /// The profile's sentence, without the profile's name and the closing full stop (the command adds both).
    public var help: String
    /// Shown as `(default: …)`.
    public var defaultDescription: String?
    /// The values a numeric option takes; the parser refuses any other.
    public var number: NumberRange?
    /// Whether it may be given more than once (each value kept, in order: `--call-id a --call-id b`).
    public var repeatable: Bool = false

    /// A row for an option that takes a value.
    public static func value(
        _ name: String, _ valueName: String, help: String, default defaultDescription: String? = nil,
        number: NumberRange? = nil, repeatable: Bool = false
    ) -> ProfileOptionRow {
        ProfileOptionRow(
            name: name, valueName: valueName, help: help, defaultDescription: defaultDescription, number: number,
            repeatable: repeatable)
    }

    /// A row for a flag.
    public static func flag(_ name: String, help: String) -> ProfileOptionRow {
        ProfileOptionRow(name: name, valueName: nil, help: help, defaultDescription: nil, number: nil)
    }
}
