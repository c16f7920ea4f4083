/// Why a YAML file could not be read, and where: `file:line:column: message`.
public struct YAMLError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file as given to the parser (a path, or a name such as `<input>`).
    public var file: String
    public var mark: YAMLMark
    public var message: String

    public init(file: String, mark: YAMLMark, message: String) {
        self.file = file
        self.mark = mark
        self.message = message
    }

    public var description: String { "\(file):\(mark.line):\(mark.column): \(message)" }
}
