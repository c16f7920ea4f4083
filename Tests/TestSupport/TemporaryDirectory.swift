import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A fresh directory under the system temp dir, removed when the value is deinitialised.
public final class TemporaryDirectory: @unchecked Sendable {  // immutable after init
    public let path: String

    public init(prefix: String = "ringcheck-test") {
        path = NSTemporaryDirectory() + "/\(prefix)-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// The absolute path of `name` inside the directory.
    public func file(_ name: String) -> String { path + "/" + name }

    /// Writes `contents` to `name` and returns its path. Not `atomically`: Foundation then syncs the file to
    /// disk, and hundreds of tests doing so at once each held a thread of the two-thread cooperative pool for
    /// as long as the disk took (seen in `fsync` in stack samples of a full run); a test's files need no sync.
    @discardableResult
    public func write(_ name: String, _ contents: String) throws -> String {
        let p = file(name)
        try contents.write(toFile: p, atomically: false, encoding: .utf8)
        return p
    }

    /// Writes `bytes` to `name` as an executable (mode 0755) and returns its path. The file is opened
    /// close-on-exec: a process the test process spawns meanwhile must not inherit the write descriptor,
    /// or executing the file fails with "Text file busy" for as long as that process lives (seen in CI,
    /// where many tests spawn processes at once).
    @discardableResult
    public func writeExecutable(_ name: String, _ bytes: [UInt8]) throws -> String {
        let p = file(name)
        let fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
        guard fd >= 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: p]) }
        defer { close(fd) }
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: p]) }
            offset += n
        }
        return p
    }

    /// Copies the executable at `source` to `name` (see `writeExecutable`) and returns its path.
    ///
    /// A hard link where the file system allows one: the test binary's 36 MB, read and written again by each
    /// of the tests that install it, held the cooperative pool's threads at the start of a full run.
    @discardableResult
    public func copyExecutable(_ source: String, to name: String) throws -> String {
        let p = file(name)
        if link(source, p) == 0 { return p }
        return try writeExecutable(name, [UInt8](try Data(contentsOf: URL(fileURLWithPath: source))))
    }
}
