/// One problem found while loading a suite: `file:line:column: field: message`.
public struct SuiteError: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var mark: YAMLMark
    /// The field's path inside the file, such as `steps[2].race[0].answer`; nil for whole-file problems.
    public var field: String?
    public var message: String

    public init(file: String, mark: YAMLMark, field: String?, message: String) {
        self.file = file
        self.mark = mark
        self.field = field
        self.message = message
    }

    public init(_ yaml: YAMLError) {
        self.init(file: yaml.file, mark: yaml.mark, field: nil, message: yaml.message)
    }

    public var description: String {
        let location = "\(file):\(mark.line):\(mark.column)"
        guard let field, !field.isEmpty else { return "\(location): \(message)" }
        return "\(location): \(field): \(message)"
    }
}

/// Every problem found while loading a suite or a catalogue (loading goes on after the first).
public struct SuiteLoadError: Error, Sendable, Equatable, CustomStringConvertible {
    public var errors: [SuiteError]

    public init(errors: [SuiteError]) { self.errors = errors }

    public var description: String { errors.map(\.description).joined(separator: "\n") }
}
