/// A command ringcheck runs to start, stop or restart the backend under test.
public enum BackendCommand: Sendable, Equatable, CustomStringConvertible {
    /// A program and its arguments, run directly (the program is looked up on PATH).
    case arguments([String])
    /// A shell command line, run with `/bin/sh -c`.
    case shell(String)

    /// The argument vector to spawn.
    public var argv: [String] {
        switch self {
        case .arguments(let a): return a
        case .shell(let line): return ["/bin/sh", "-c", line]
        }
    }

    public var description: String {
        switch self {
        case .arguments(let a): return a.map(Self.quoted).joined(separator: " ")
        case .shell(let line): return line
        }
    }

    /// `word` as a shell would need it written, for messages.
    static func quoted(_ word: String) -> String {
        let plain = !word.isEmpty && word.allSatisfy { $0.isLetter || $0.isNumber || "-_./=:,@%+".contains($0) }
        return plain ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
