import Foundation
import Synchronization

/// Writes to standard output and standard error without buffering surprises.
enum Console {
    /// Where the lines go instead of standard output and error in this task (a command run in process by a
    /// test); nil: the standard streams.
    @TaskLocal static var capture: ConsoleCapture?

    static func out(_ text: String) { write(FileHandle.standardOutput, text, toError: false) }
    static func error(_ text: String) { write(FileHandle.standardError, text, toError: true) }

    /// Writes `text` to standard output as it is, no newline added (the live status line's drawing).
    static func outAsIs(_ text: String) {
        if let capture {
            capture.append(text, toError: false)
        } else {
            FileHandle.standardOutput.write(Data(text.utf8))
        }
    }

    private static func write(_ handle: FileHandle, _ text: String, toError: Bool) {
        let line = text.hasSuffix("\n") ? text : text + "\n"
        if let capture {
            capture.append(line, toError: toError)
        } else {
            handle.write(Data(line.utf8))
        }
    }

    /// True when standard output is a terminal and `NO_COLOR` is not set.
    static var colorEnabled: Bool {
        isatty(STDOUT_FILENO) != 0 && ProcessInfo.processInfo.environment["NO_COLOR"].map(\.isEmpty) ?? true
    }
}

/// What `Console` wrote in a task that captures it: standard output's text and standard error's.
final class ConsoleCapture: Sendable {
    private let texts = Mutex<(out: String, error: String)>(("", ""))

    /// The text written to standard output so far.
    var out: String { texts.withLock { $0.out } }
    /// The text written to standard error so far.
    var error: String { texts.withLock { $0.error } }

    func append(_ line: String, toError: Bool) {
        texts.withLock { if toError { $0.error += line } else { $0.out += line } }
    }
}
