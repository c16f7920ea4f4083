import Conformance

/// `trigger`'s parsed arguments as a profile's `TriggerProfileOptions` reads them: a number out of its declared
/// range is the parser's usage error, as for every command.
struct ParsedTriggerArguments: TriggerArguments {
    let parsed: ParsedArguments

    func value(_ name: String) -> String? { parsed.value(name) }
    func flag(_ name: String) -> Bool { parsed.flag(name) }
    func int(_ name: String) throws -> Int? { try parsed.int(name) }
    func duration(_ name: String) throws -> Duration? { try parsed.duration(name) }
}
