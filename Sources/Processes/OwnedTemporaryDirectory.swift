import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A folder in the temporary directory that one ringcheck process makes for itself and removes when it
/// exits, with a file naming that process (pid and start time) so that a later start can remove the
/// folders of a process that was killed before it could (`kill -9`, a CI runner's timeout).
///
/// Only folders of the family (names starting `ringcheck-`: the mocks' keys, the reference process's
/// database) that hold an owner file are ever removed, and only when the process it names is gone: a
/// folder without one (made by an older ringcheck, or by anyone else) and a folder the user named
/// (`--state-dir`, which gets no owner file) are left alone.
public enum OwnedTemporaryDirectory {
    /// The owner file's name in each folder: `<pid> <start time>` (field 22 of `/proc/PID/stat`).
    public static let ownerFileName = ".ringcheck-owner"

    /// The name prefix of every folder made here.
    public static let family = "ringcheck-"

    /// Makes `parent/name` (`name` starts with `family`), writes the owner file naming this process, then
    /// removes the stale folders of `family` in `parent`. Returns the folder's path.
    public static func create(named name: String, in parent: String = NSTemporaryDirectory()) throws -> String {
        precondition(name.hasPrefix(family) && !name.contains("/"), "not a ringcheck folder name: \(name)")
        let path = (parent.hasSuffix("/") ? parent : parent + "/") + name
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try claim(path, in: parent)
        return path
    }

    /// Writes the owner file naming this process into `path`, a folder of the family made otherwise (a
    /// private `mkdtemp` folder), then removes the stale folders of the family in `parent`.
    public static func claim(_ path: String, in parent: String = NSTemporaryDirectory()) throws {
        let me = ProcessIdentity.current
        try "\(me.pid) \(me.startTime ?? "0")\n".write(
            toFile: path + "/" + ownerFileName, atomically: false, encoding: .utf8)
        removeStale(in: parent)
    }

    /// Removes the folders of the family in `parent` whose owner file names a process that is gone, and
    /// returns their names.
    @discardableResult
    public static func removeStale(in parent: String = NSTemporaryDirectory()) -> [String] {
        let base = parent.hasSuffix("/") ? parent : parent + "/"
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: base)) ?? []
        var removed: [String] = []
        for name in entries where name.hasPrefix(family) {
            let path = base + name
            guard isOwnDirectory(path), let owner = owner(of: path), !owner.isRunning else { continue }
            if (try? FileManager.default.removeItem(atPath: path)) != nil { removed.append(name) }
        }
        return removed
    }

    /// The process the owner file in `path` names; nil without a readable one.
    static func owner(of path: String) -> ProcessIdentity? {
        let file = path + "/" + ownerFileName
        guard let handle = FileHandle(forReadingAtPath: file) else { return nil }
        defer { try? handle.close() }
        // A few dozen bytes; anything longer is not an owner file ringcheck wrote.
        guard let data = try? handle.read(upToCount: 64) else { return nil }
        let fields = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isWhitespace)
        guard fields.count == 2, let pid = pid_t(fields[0]), pid > 0, UInt64(fields[1]) != nil else { return nil }
        return ProcessIdentity(pid, startTime: String(fields[1]))
    }

    /// A real directory (not a link to one) that belongs to this user.
    static func isOwnDirectory(_ path: String) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0 else { return false }
        return (info.st_mode & S_IFMT) == S_IFDIR && info.st_uid == getuid()
    }
}
