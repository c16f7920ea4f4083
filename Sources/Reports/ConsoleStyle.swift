import Foundation

/// Whether console output uses ANSI colours.
public struct ConsoleStyle: Sendable, Equatable {
    public var colors: Bool

    public init(colors: Bool) { self.colors = colors }

    /// Colours only on a terminal, never when `NO_COLOR` is set to anything non-empty (no-color.org)
    /// or `TERM` is `dumb`.
    public static func detect(environment: [String: String], isTerminal: Bool) -> ConsoleStyle {
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return ConsoleStyle(colors: false) }
        if environment["TERM"] == "dumb" { return ConsoleStyle(colors: false) }
        return ConsoleStyle(colors: isTerminal)
    }

    /// `detect` for this process's standard output.
    public static func forStandardOutput() -> ConsoleStyle {
        detect(environment: ProcessInfo.processInfo.environment, isTerminal: isatty(STDOUT_FILENO) == 1)
    }

    enum Color: String {
        case red = "31"
        case green = "32"
        case yellow = "33"
        case dim = "2"
        case bold = "1"
    }

    func paint(_ text: String, _ color: Color) -> String {
        colors ? "\u{1B}[\(color.rawValue)m\(text)\u{1B}[0m" : text
    }
}
