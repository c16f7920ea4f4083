import Foundation

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

    /// Writes `contents` to `name` and returns its path.
    @discardableResult
    public func write(_ name: String, _ contents: String) throws -> String {
        let p = file(name)
        try contents.write(toFile: p, atomically: true, encoding: .utf8)
        return p
    }
}
