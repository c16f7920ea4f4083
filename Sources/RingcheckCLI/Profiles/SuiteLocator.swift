import AllProfiles
import Conformance
import Foundation

/// Where a suite named on the command line is read from, so that a `ringcheck` binary copied,
/// symlinked or installed anywhere finds the same suites as one run in the source tree.
enum SuiteLocator {
    /// The environment variable naming a folder of the user's own suites (`<folder>/<name>/suite.yaml`).
    static let environmentVariable = "RINGCHECK_SUITES"

    /// The `--suite` option's help; computed, so its built-in suites are the registry in force's
    /// (`Ringcheck.dispatch(_:profiles:)`).
    static var optionHelp: String {
        "The suite: a built-in one by name (\(EmbeddedSuites.names.joined(separator: ", "))), a folder NAME under $\(environmentVariable), or a folder DIR holding a suite.yaml."
    }

    /// `--suite NAME|DIR` (or a profile's suite `NAME`) → the folder `Suite.load` reads:
    /// a value with a `/` is a folder on disk, as given; `builtin:NAME` is the suite built in;
    /// any other `NAME` is `$RINGCHECK_SUITES/NAME` when that folder exists, else the built-in suite
    /// NAME, else `suites/NAME` under the working directory or a folder above the real executable
    /// (a suite of the user's own next to an installed binary), else the folder NAME here when it holds
    /// a suite.yaml. Not found: `suites/NAME`, which `missing` explains.
    static func directory(_ given: String, environment: [String: String] = ProcessInfo.processInfo.environment)
        -> String
    {
        if given.contains("/") || EmbeddedSuites.isEmbedded(given) { return given }
        var candidates: [String] = []
        if let folder = environment[environmentVariable], !folder.isEmpty { candidates.append(folder + "/" + given) }
        if let builtIn = EmbeddedSuites.directory(given), candidates.allSatisfy({ !isFolder($0) }) { return builtIn }
        candidates.append("suites/" + given)
        var dir = URL(fileURLWithPath: RingcheckExecutable.path()).resolvingSymlinksInPath()
            .deletingLastPathComponent()
        while dir.path != "/" {
            candidates.append(dir.appendingPathComponent("suites/" + given).path)
            dir = dir.deletingLastPathComponent()
        }
        // Last, a folder NAME here that holds a suite (`--suite mine` for ./mine/suite.yaml).
        if FileManager.default.fileExists(atPath: given + "/suite.yaml") { candidates.append(given) }
        return candidates.first(where: isFolder) ?? "suites/" + given
    }

    /// Why the suite folder `path` (what `directory` gave for `given`) cannot be read: nil when it is a
    /// built-in suite or a folder on disk.
    static func missing(_ path: String, environment: [String: String] = ProcessInfo.processInfo.environment)
        -> String?
    {
        if EmbeddedSuites.isEmbedded(path) {
            guard EmbeddedSuites.directory(String(path.dropFirst(EmbeddedSuites.scheme.count))) == nil else {
                return nil
            }
            return "no suite \(path) is built in; the built-in suites are "
                + EmbeddedSuites.names.map { EmbeddedSuites.scheme + $0 }.joined(separator: ", ")
        }
        guard !isFolder(path) else { return nil }
        var message = "there is no suite folder \(path)"
        if path.hasPrefix("suites/"), !path.dropFirst("suites/".count).contains("/") {
            let name = path.dropFirst("suites/".count)
            let env = environment[environmentVariable].map { " nor in $\(environmentVariable) (\($0))" } ?? ""
            message =
                "there is no suite '\(name)': it is not built in (\(EmbeddedSuites.names.joined(separator: ", ")))\(env), "
                + "and no folder suites/\(name) is here"
        }
        return message + "; give --suite DIR (a folder holding suite.yaml) or set \(environmentVariable)"
    }

    /// How the re-run command names suite folder `path`: a built-in suite by its name (found the same
    /// way from any folder), a folder on disk by its absolute path.
    static func rerunArgument(_ path: String) -> String {
        if EmbeddedSuites.isEmbedded(path) { return String(path.dropFirst(EmbeddedSuites.scheme.count)) }
        return absolutePath(path)
    }

    /// `ringcheck run ID` for a scenario of `suite` against the embedded reference, from any folder:
    /// with its profile unless the default, and its folder unless built in.
    static func rerunCommand(_ id: String, suite: Suite) -> String {
        var parts = ["ringcheck", "run", id]
        if suite.profile.name != Profiles.defaultProfile.name { parts += ["--profile", suite.profile.name] }
        if !EmbeddedSuites.isEmbedded(suite.directory) { parts += ["--suite", rerunArgument(suite.directory)] }
        return BackendCommand.arguments(parts).description
    }

    /// `path` made absolute against the working directory and tidied (`a/../b` → `b`).
    static func absolutePath(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }

    private static func isFolder(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
