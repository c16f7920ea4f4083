import Foundation

/// A profile's reference backend as ringcheck serves it (`serve-reference <profile>`) and embeds it
/// (`run --profile NAME` without `--target`): its defect switches, its `serve-reference` options and
/// help, how it starts as a server of its own and how it starts beside the mocks as a run's target.
///
/// A profile brings its kit by conforming to `ReferenceKitProvider`; `serve-reference`, its help,
/// `run --reference-defect` and `run --profile all` are generated from the registered profiles' kits
/// (`ReferenceKits`). The kit lives in its profile's module; a minimal one:
///
/// ```swift
/// struct ProbeReferenceKit: ReferenceKit {
///     typealias Defect = ProbeDefect
///     var profile: any Profile { ProbeProfile() }
///     let title = "the probe reference"
///     let summary = "the probe reference"
///     let helpIntro = "PROFILE probe (--profile probe): …"
///     let serveOptions: [ProfileOptionRow] = [.value("log", "FILE", help: "log each ping to FILE")]
///     let serveExamples = ["PROBE_KEY=k ringcheck serve-reference --profile probe --port 0"]
///
///     func serving(_ arguments: any ReferenceArguments, defects: Set<ProbeDefect>) throws -> any ServedReference {
///         ProbeServed(server: try ProbeServer(defects: defects, port: try arguments.int("port") ?? 8080))
///     }
///     func startEmbedded(_ start: EmbeddedStart, defects: Set<ProbeDefect>, cleanup: any CleanupRegistry) async throws
///         -> EmbeddedReference { … }
/// }
/// ```
package protocol ReferenceKit: Sendable {
    /// The switches `--defect` and `--reference-defect` take.
    associatedtype Defect: ReferenceKitDefect

    /// The profile this reference conforms to (its name is the kit's name).
    var profile: any Profile { get }
    /// What the reference is, for "cannot start <title>: …" (e.g. "the wake-up reference backend").
    var title: String { get }
    /// What it serves, for `serve-reference`'s one-line abstract ("the wake-up webhook backend").
    var summary: String { get }
    /// The `serve-reference --help` text about this profile, before its defect list (a paragraph or a few).
    var helpIntro: String { get }
    /// The heading of its defect list in `serve-reference --help`.
    var defectHeading: String { get }
    /// The `serve-reference` options this reference takes besides those every reference takes (`--host`,
    /// `--port`, `--defect`, `--quiet`, `--profile`): the command's options are the union of the registered
    /// kits' rows (one row per name, each kit's sentence after its name), and an option another kit declares
    /// but this one does not is a usage error ("--db does not apply to --profile probe").
    var serveOptions: [ProfileOptionRow] { get }
    /// `serve-reference --help`'s example lines for this reference (the default profile's come first).
    var serveExamples: [String] { get }
    /// Whether `run --reference-process` (and a backend log, a second instance for the scenarios that
    /// restart the backend) applies.
    var startsLogged: Bool { get }
    /// A target file (YAML) that starts this reference as a `serve-reference` child process beside ringcheck's
    /// mocks, as `examples/targets/<profile>-reference.yaml` does, with `{DEFECTS}` where its `--defect NAME`
    /// arguments go in `lifecycle.start` (`load`'s reference as a child process for a kit that does not
    /// `startsLogged`); nil: it has none.
    var processTargetFile: String? { get }

    /// The reference `serve-reference` runs with these arguments and defects; a usage or configuration
    /// error for settings it cannot use.
    func serving(_ arguments: any ReferenceArguments, defects: Set<Defect>) throws -> any ServedReference
    /// Starts the mocks and the reference wired to them as a run's target; all are stopped by `cleanup`.
    func startEmbedded(_ start: EmbeddedStart, defects: Set<Defect>, cleanup: any CleanupRegistry) async throws
        -> EmbeddedReference
    /// Starts the mocks and the reference for `ringcheck load`, knowing the load users `start` names, each
    /// the account `target.accounts(name, 0)`. The default is `startEmbedded` for one run of those users.
    func startForLoad(_ start: LoadEmbeddedStart, defects: Set<Defect>, cleanup: any CleanupRegistry) async throws
        -> EmbeddedReference
    /// How the reference keeps its data, for the label of the process `load` watches ("SQLite file"); nil
    /// (the default) says nothing.
    var storageNote: String? { get }
}

/// What `load` asks of an embedded reference: its load users (`ProfileLoad.embeddedCallers`, `embeddedCallees`)
/// and, where the kit `startsLogged`, a backend log and a child process (load's default; a kit that does not
/// runs as a child process through its `processTargetFile` instead).
package struct LoadEmbeddedStart: Sendable {
    package var callers: [String]
    package var callees: [String]
    /// The backend log (a fresh file); nil: no log.
    package var log: String?
    package var asChildProcess: Bool

    package init(callers: [String], callees: [String], log: String? = nil, asChildProcess: Bool = false) {
        self.callers = callers
        self.callees = callees
        self.log = log
        self.asChildProcess = asChildProcess
    }
}

/// What `run` asks of an embedded reference: accounts for `runs` runs of `userNames`, and, where the
/// kit `startsLogged`, a backend log, a child process (`--reference-process`) and a second instance.
package struct EmbeddedStart: Sendable {
    package var runs: Int
    package var userNames: [String]
    /// The target's `backendLog` (a fresh file); nil: no log.
    package var log: String?
    package var asChildProcess: Bool
    package var restartInstance: Bool

    package init(
        runs: Int, userNames: [String], log: String? = nil, asChildProcess: Bool = false, restartInstance: Bool = false
    ) {
        self.runs = runs
        self.userNames = userNames
        self.log = log
        self.asChildProcess = asChildProcess
        self.restartInstance = restartInstance
    }
}

/// A reference set up by `serve-reference`, not yet listening.
package protocol ServedReference: Sendable {
    var host: String { get }
    var port: Int { get }
    /// Starts listening; a `ConfigurationError` is reported as it is, any other error as "cannot start".
    func start() async throws -> RunningReference
}

/// A reference `serve-reference` started: its banner (never a secret) and how it stops.
package struct RunningReference: Sendable {
    package var banner: String
    package var stop: @Sendable () async -> Void

    package init(banner: String, stop: @escaping @Sendable () async -> Void) {
        self.banner = banner
        self.stop = stop
    }
}

extension ReferenceKit {
    /// The kit's name: its profile's.
    package var name: String { profile.name }
    package var defectHeading: String { "\(name.uppercased()) DEFECTS (--profile \(name) --defect NAME):" }
    package var startsLogged: Bool { false }
    package var storageNote: String? { nil }
    package var processTargetFile: String? { nil }
    package var serveOptions: [ProfileOptionRow] { [] }
    package var serveExamples: [String] { [] }

    package func startForLoad(_ start: LoadEmbeddedStart, defects: Set<Defect>, cleanup: any CleanupRegistry)
        async throws -> EmbeddedReference
    {
        try await startEmbedded(
            EmbeddedStart(
                runs: 1, userNames: start.callers + start.callees, log: start.log, asChildProcess: start.asChildProcess),
            defects: defects, cleanup: cleanup)
    }

    /// `processTargetFile` with `defects` (known names: check them first) as the child's `--defect NAME`
    /// arguments.
    package func processTargetFile(defects: [String]) -> String? {
        processTargetFile?.replacingOccurrences(
            of: "{DEFECTS}", with: defects.sorted().map { ", --defect, \($0)" }.joined())
    }
    /// Its defect switches' names, in declaration order.
    package var defectNames: [String] { Defect.allCases.map(\.rawValue) }

    /// `names` as this reference's defects, and the names it does not know (in the order given).
    package func parseDefects(_ names: [String]) -> (defects: Set<Defect>, unknown: [String]) {
        var defects: Set<Defect> = []
        var unknown: [String] = []
        for name in names {
            if let defect = Defect(rawValue: name) { defects.insert(defect) } else { unknown.append(name) }
        }
        return (defects, unknown)
    }
}

/// What a `serve-reference` banner and its exit say, the same for every reference.
package enum ServedReferenceText {
    /// The line a start on a taken port prints (exit status 13); `run --reference-process` looks for it
    /// to choose another port.
    package static func portInUse(host: String, port: Int) -> String {
        "ringcheck serve-reference: \(host):\(port) is in use"
    }

    /// A banner's database line: the file, or that the data is lost on exit.
    package static func databaseLine(file: String?) -> String {
        file ?? "in memory (lost on exit; use --db PATH to keep it)"
    }

    /// A banner's defects line: the switches on, by name, or that the reference conforms.
    package static func defectsLine(_ defects: Set<some ReferenceKitDefect>) -> String {
        defects.isEmpty ? "none (conforming)" : defects.sortedNames.joined(separator: ", ")
    }
}
