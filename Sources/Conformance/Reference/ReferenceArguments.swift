/// The command line as a reference kit reads its `serve-reference` options: what
/// `ReferenceKit.serving(_:defects:)` may ask of it. The CLI's parsed arguments conform; the values are
/// already checked against the command's declared options (a numeric option's range included).
///
/// ```swift
/// func serving(_ arguments: any ReferenceArguments, defects: Set<ProbeDefect>) throws -> any ServedReference {
///     let host = arguments.value("host") ?? "127.0.0.1"
///     let port = try arguments.int("port") ?? 8080        // a UsageError naming --port when out of range
///     return ProbeServed(host: host, port: port, quiet: arguments.flag("quiet"))
/// }
/// ```
package protocol ReferenceArguments: Sendable {
    /// The command's name, for a `UsageError` about one of its options (`serve-reference`).
    var command: String { get }
    /// Whether flag `--name` was given.
    func flag(_ name: String) -> Bool
    /// The last value of option `--name`, nil when not given.
    func value(_ name: String) -> String?
    /// Every value of repeatable option `--name`, in the order given.
    func all(_ name: String) -> [String]
    /// A whole-number option's value, checked against its declared range and `range` (when given); a
    /// `UsageError` naming the option otherwise.
    func int(_ name: String, in range: ClosedRange<Int>?) throws -> Int?
}

extension ReferenceArguments {
    /// A whole-number option's value, checked against its declared range.
    package func int(_ name: String) throws -> Int? { try int(name, in: nil) }
}
