import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Reads a file another process is writing, once what it writes is complete: a file can exist (the shell
/// opened it for `echo $$ > pid`) before anything is in it, or hold part of what is being written.
///
///     let backend = try #require(await WrittenFile.pid(dir.file("backend.pid")))
public enum WrittenFile {
    /// The text of the file at `path` once `complete` holds for it; nil when `timeout` passes first.
    /// The wait ends on the content, polled; the deadline is only a bound for a writer that never finishes.
    public static func text(
        _ path: String, timeout: Duration = .seconds(60), until complete: (String) -> Bool
    ) async -> String? {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let text = try? String(contentsOfFile: path, encoding: .utf8), complete(text) { return text }
            if ContinuousClock.now >= deadline { return nil }
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    /// The first line of the file at `path` (without its newline) once the writer ended it with one.
    public static func firstLine(_ path: String, timeout: Duration = .seconds(60)) async -> String? {
        await text(path, timeout: timeout) { $0.contains("\n") }.map { String($0.prefix { $0 != "\n" }) }
    }

    /// The process id written alone on the first line of the file at `path` (`echo $$ > path`), once that
    /// line is complete; nil when it is not there in time or is not a process id.
    public static func pid(_ path: String, timeout: Duration = .seconds(60)) async -> pid_t? {
        await firstLine(path, timeout: timeout).flatMap { pid_t($0.trimmingCharacters(in: .whitespaces)) }
    }
}
