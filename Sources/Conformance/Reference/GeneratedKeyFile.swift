import Foundation
import Processes

#if canImport(Glibc)
    import Glibc
#endif

/// A key ringcheck generated, handed to the operator in a file only they can read (mode 0600, in a
/// private mode-0700 folder of the temporary directory) instead of on the terminal, whose output CI
/// uploads. `remove()` deletes the folder when the server stops; the folder's owner file
/// (`OwnedTemporaryDirectory`) lets a later start remove it after a `kill -9`.
package struct GeneratedKeyFile: Sendable {
    package let path: String
    private let directory: String

    package init(key: String, name: String = "rest-key") throws {
        var template = Array((NSTemporaryDirectory() + "ringcheck-key-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw ConfigurationError(message: "cannot create a private folder: \(String(cString: strerror(errno)))")
        }
        directory = String(cString: made)
        path = directory + "/" + name
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            rmdir(directory)
            throw ConfigurationError(message: "cannot create \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        let bytes = Array((key + "\n").utf8)
        guard bytes.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == bytes.count else {
            let why = String(cString: strerror(errno))
            remove()
            throw ConfigurationError(message: "cannot write \(path): \(why)")
        }
        do { try OwnedTemporaryDirectory.claim(directory) } catch {
            remove()
            throw ConfigurationError(message: "cannot write the owner file of \(directory): \(error)")
        }
    }

    package func remove() { try? FileManager.default.removeItem(atPath: directory) }
}
