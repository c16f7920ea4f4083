import Conformance
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `--report-dir`, checked before a run starts anything: the run writes backend.log there while it
/// runs and the reports at its end, and a directory it cannot write would otherwise surface as a
/// failure of whatever wrote first (the mocks, the backend) after the whole run.
enum ReportDirectory {
    /// Creates `path` (with its parents) if missing and proves it writable by creating and removing
    /// a file in it; throws a `ConfigurationError` that says what is wrong with which path.
    static func prepare(_ path: String, option: String = "--report-dir") throws(ConfigurationError) {
        guard !path.isEmpty else {
            throw ConfigurationError(message: "\(option) is empty; give the directory reports are written to")
        }
        func problem(_ what: String) -> ConfigurationError {
            ConfigurationError(message: "\(option) \(path): \(what)")
        }
        // Make each missing component, saying which one is in the way.
        var prefix = path.hasPrefix("/") ? "/" : ""
        let components = path.split(separator: "/")
        for (i, component) in components.enumerated() {
            prefix += (prefix.isEmpty || prefix.hasSuffix("/") ? "" : "/") + component
            var info = stat()
            if stat(prefix, &info) == 0 {
                if info.st_mode & S_IFMT != S_IFDIR {
                    let last = i == components.count - 1
                    throw problem(last ? "it is a file, not a directory" : "\(prefix) is a file, not a directory")
                }
                continue
            }
            guard errno == ENOENT else { throw problem("cannot look at \(prefix): \(Self.reason())") }
            if mkdir(prefix, 0o755) != 0, errno != EEXIST {
                throw problem("cannot create the directory \(prefix): \(Self.reason())")
            }
        }
        let probe = path + "/.ringcheck-write-check-\(getpid())"
        let fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw problem("cannot write files in it: \(Self.reason())") }
        close(fd)
        unlink(probe)
    }

    private static func reason() -> String { String(cString: strerror(errno)) }
}
