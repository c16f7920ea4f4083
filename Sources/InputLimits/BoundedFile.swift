#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a whole file ringcheck was pointed at (a suite, a target or users file, a key, a service
/// account, a capture, a report) with one size limit, so a huge file or a device such as /dev/zero
/// is refused after at most `limit + 1` bytes instead of filling memory.
public enum BoundedFile {
    /// The largest file read, in bytes (4 MiB): the suite loader's limit, for every file. The shipped
    /// suites' files are a few KB and keys, users and target files smaller still; a file a thousand
    /// times larger is a mistake (a log, a dump, a device).
    public static let maxBytes = 4 * 1024 * 1024
    /// The largest file of data ringcheck itself wrote and reads back (a shard's report.json for
    /// `report merge`, a capture log for `check-payload`), in bytes (256 MiB): a conforming Callx run's
    /// report.json is about 0.5 MB, a failing one with `--repeat` or a load run's capture log can pass
    /// 4 MiB; still bounded, so /dev/zero is refused.
    public static let maxDataBytes = 256 * 1024 * 1024

    /// Why a file was not read; `description` names the file.
    public struct ReadError: Error, Sendable, Equatable, CustomStringConvertible {
        public enum Reason: Sendable, Equatable {
            /// It could not be opened or read (`errno`'s text).
            case unreadable(String)
            /// It has more than `limit` bytes.
            case tooLarge(limit: Int)
        }
        public var path: String
        public var reason: Reason

        public var description: String { "\(path): \(reasonText)" }

        /// The reason without the path, for errors that name the file themselves.
        public var reasonText: String {
            switch reason {
            case .unreadable(let why): return "cannot read the file (\(why))"
            case .tooLarge(let limit):
                return "the file is larger than \(BoundedFile.describe(limit)), the most ringcheck reads from one file "
                    + "(is this the right file?)"
            }
        }
    }

    /// The file's bytes, at most `limit`.
    public static func bytes(_ path: String, limit: Int = maxBytes) throws(ReadError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ReadError(path: path, reason: .unreadable(errnoText())) }
        defer { close(fd) }
        return try read(fd, path: path, limit: limit)
    }

    /// The file as UTF-8 text (invalid sequences replaced), at most `limit` bytes.
    public static func text(_ path: String, limit: Int = maxBytes) throws(ReadError) -> String {
        String(decoding: try bytes(path, limit: limit), as: UTF8.self)
    }

    /// The file's bytes, or nil when it does not exist; other failures throw.
    public static func bytesIfPresent(_ path: String, limit: Int = maxBytes) throws(ReadError) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 && errno == ENOENT { return nil }
        guard fd >= 0 else { throw ReadError(path: path, reason: .unreadable(errnoText())) }
        defer { close(fd) }
        return try read(fd, path: path, limit: limit)
    }

    /// Everything on standard input, at most `limit` bytes (named `name` in errors).
    public static func standardInput(name: String = "standard input", limit: Int = maxBytes) throws(ReadError)
        -> [UInt8]
    {
        try read(STDIN_FILENO, path: name, limit: limit)
    }

    private static func read(_ fd: Int32, path: String, limit: Int) throws(ReadError) -> [UInt8] {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let want = min(buffer.count, limit + 1 - out.count)
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, want) }
            if n < 0 {
                if errno == EINTR { continue }
                throw ReadError(path: path, reason: .unreadable(errnoText()))
            }
            if n == 0 { break }
            out.append(contentsOf: buffer[0..<n])
            if out.count > limit { throw ReadError(path: path, reason: .tooLarge(limit: limit)) }
        }
        return out
    }

    static func describe(_ bytes: Int) -> String {
        if bytes >= 1_048_576 && bytes % 1_048_576 == 0 { return "\(bytes / 1_048_576) MiB" }
        if bytes >= 1024 && bytes % 1024 == 0 { return "\(bytes / 1024) KiB" }
        return "\(bytes) bytes"
    }

    private static func errnoText() -> String { String(cString: strerror(errno)) }
}
