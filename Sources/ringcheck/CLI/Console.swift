import Foundation

/// Writes to standard output and standard error without buffering surprises.
enum Console {
    static func out(_ text: String) { write(FileHandle.standardOutput, text) }
    static func error(_ text: String) { write(FileHandle.standardError, text) }

    private static func write(_ handle: FileHandle, _ text: String) {
        let line = text.hasSuffix("\n") ? text : text + "\n"
        handle.write(Data(line.utf8))
    }

    /// True when standard output is a terminal and `NO_COLOR` is not set.
    static var colorEnabled: Bool {
        isatty(STDOUT_FILENO) != 0 && ProcessInfo.processInfo.environment["NO_COLOR"].map(\.isEmpty) ?? true
    }
}
