import Foundation
import PushMocks

#if canImport(Glibc)
    import Glibc
#endif

/// The file the backend's commands write their output to, and its last lines for error messages.
struct BackendLog: Sendable {
    let path: String

    /// Opens the log for appending (creating it and its folder) and writes a header line naming `what`;
    /// the caller closes the descriptor once the child has it.
    func open(for what: String) throws -> Int32 {
        let dir = (path as NSString).deletingLastPathComponent
        if !dir.isEmpty { try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) }
        let fd = Glibc.open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw BackendLifecycleError(
                "cannot open the backend log \(path): \(String(cString: strerror(errno))) (choose another --report-dir)"
            )
        }
        let header = "==== ringcheck \(ISO8601DateFormatter().string(from: Date())): \(what)\n"
        _ = header.withCString { write(fd, $0, strlen($0)) }
        return fd
    }

    /// The last `count` lines the latest command wrote (from the last 16 KiB of the file), indented,
    /// with device tokens, JWTs, access tokens, bearer credentials and private keys redacted.
    func lastLines(_ count: Int = 12) -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else { return "  (no output)" }
        defer { try? handle.close() }
        let size = (try? handle.seekToEnd()) ?? 0
        let cut = size > 16_384
        try? handle.seek(toOffset: cut ? size - 16_384 : 0)
        var window = (try? handle.readToEnd()) ?? Data()
        // The first line of a cut window is a fragment: maybe the rest of a token too short to recognise.
        if cut, let newline = window.firstIndex(of: UInt8(ascii: "\n")) { window = window[(newline + 1)...] }
        // Redacted before splitting, so a key or token that spans lines is seen whole.
        let text = Redaction.redactingOutput(String(decoding: window, as: UTF8.self))
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if let header = lines.lastIndex(where: { $0.hasPrefix("==== ringcheck ") }) {
            lines.removeFirst(header + 1)
        }
        let tail = lines.reversed().drop { $0.isEmpty }.prefix(count).reversed()
        return tail.isEmpty ? "  (no output)" : tail.map { "  " + $0 }.joined(separator: "\n")
    }

    /// "its output: <path>, last lines:\n…" for error messages, which reach the console and the
    /// reports: the quoted lines are redacted (`lastLines`). The file at `path` itself is the user's
    /// own record of their backend and is left as the backend wrote it, secrets included.
    var reference: String { "its output: \(path), last lines:\n\(lastLines())" }
}
