import AllProfiles
import Conformance
import ReferenceBackend

/// A profile's reference backend as ringcheck serves it (`serve-reference <profile>`) and embeds it
/// (`run --profile NAME` without `--target`): its defect switches, its `serve-reference` options and
/// help, how it starts as a server of its own and how it starts beside the mocks as a run's target.
///
/// A kit is one line in `ReferenceKits.all`; `serve-reference`, its help, `run --reference-defect`
/// and `run --profile all` are generated from that list. A minimal kit:
///
/// ```swift
/// struct ProbeReferenceKit: ReferenceKit {
///     typealias Defect = ProbeDefect
///     let profile: any Profile = ProbeProfile()
///     let title = "the probe reference"
///     let helpIntro = "PROFILE probe (--profile probe): …"
///     let inapplicableOptions = ["db", "ring-seconds"]
///
///     func serving(_ arguments: ParsedArguments, defects: Set<ProbeDefect>) throws -> any ServedReference {
///         ProbeServed(server: try ProbeServer(defects: defects, port: try arguments.int("port") ?? 8080))
///     }
///     func startEmbedded(_ start: EmbeddedStart, defects: Set<ProbeDefect>, cleanup: RunCleanup) async throws
///         -> EmbeddedReference { … }
/// }
/// ```
protocol ReferenceKit: Sendable {
    /// The switches `--defect` and `--reference-defect` take.
    associatedtype Defect: ReferenceDefect

    /// The profile this reference conforms to (its name is the kit's name).
    var profile: any Profile { get }
    /// What the reference is, for "cannot start <title>: …" (e.g. "the wake-up reference backend").
    var title: String { get }
    /// The `serve-reference --help` text about this profile, before its defect list.
    var helpIntro: String { get }
    /// The heading of its defect list in `serve-reference --help`.
    var defectHeading: String { get }
    /// `serve-reference` options this reference takes no part in: naming one is a usage error.
    var inapplicableOptions: [String] { get }
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
    func serving(_ arguments: ParsedArguments, defects: Set<Defect>) throws -> any ServedReference
    /// Starts the mocks and the reference wired to them as a run's target; all are stopped by `cleanup`.
    func startEmbedded(_ start: EmbeddedStart, defects: Set<Defect>, cleanup: RunCleanup) async throws
        -> EmbeddedReference
    /// Starts the mocks and the reference for `ringcheck load`, knowing the load users `start` names, each
    /// the account `target.accounts(name, 0)`. The default is `startEmbedded` for one run of those users.
    func startForLoad(_ start: LoadEmbeddedStart, defects: Set<Defect>, cleanup: RunCleanup) async throws
        -> EmbeddedReference
    /// How the reference keeps its data, for the label of the process `load` watches ("SQLite file"); nil
    /// (the default) says nothing.
    var storageNote: String? { get }
}

/// What `load` asks of an embedded reference: its load users (`ProfileLoad.embeddedCallers`, `embeddedCallees`)
/// and, where the kit `startsLogged`, a backend log and a child process (load's default; a kit that does not
/// runs as a child process through its `processTargetFile` instead).
struct LoadEmbeddedStart: Sendable {
    var callers: [String]
    var callees: [String]
    /// The backend log (a fresh file); nil: no log.
    var log: String? = nil
    var asChildProcess = false
}

/// What `run` asks of an embedded reference: accounts for `runs` runs of `userNames`, and, where the
/// kit `startsLogged`, a backend log, a child process (`--reference-process`) and a second instance.
struct EmbeddedStart: Sendable {
    var runs: Int
    var userNames: [String]
    /// The target's `backendLog` (a fresh file); nil: no log.
    var log: String? = nil
    var asChildProcess = false
    var restartInstance = false
}

/// A reference set up by `serve-reference`, not yet listening.
protocol ServedReference: Sendable {
    var host: String { get }
    var port: Int { get }
    /// Starts listening; a `ConfigurationError` is reported as it is, any other error as "cannot start".
    func start() async throws -> RunningReference
}

/// A reference `serve-reference` started: its banner (never a secret) and how it stops.
struct RunningReference: Sendable {
    var banner: String
    var stop: @Sendable () async -> Void
}

extension ReferenceKit {
    var name: String { profile.name }
    var defectHeading: String { "\(name.uppercased()) DEFECTS (--profile \(name) --defect NAME):" }
    var startsLogged: Bool { false }
    var storageNote: String? { nil }
    var processTargetFile: String? { nil }

    func startForLoad(_ start: LoadEmbeddedStart, defects: Set<Defect>, cleanup: RunCleanup) async throws
        -> EmbeddedReference
    {
        try await startEmbedded(
            EmbeddedStart(
                runs: 1, userNames: start.callers + start.callees, log: start.log, asChildProcess: start.asChildProcess),
            defects: defects, cleanup: cleanup)
    }

    /// `processTargetFile` with `defects` (known names: check them with `checkRunDefects` first) as the child's
    /// `--defect NAME` arguments.
    func processTargetFile(defects: [String]) -> String? {
        processTargetFile?.replacingOccurrences(
            of: "{DEFECTS}", with: defects.sorted().map { ", --defect, \($0)" }.joined())
    }
    /// Its defect switches' names, in declaration order.
    var defectNames: [String] { Defect.names }
    /// One help row per defect switch: its name and summary.
    var defectRows: String {
        String(Defect.allCases.map { HelpFormatter.row($0.name, $0.summary) }.joined().dropLast())
    }
    /// Its whole `serve-reference --help` section: the intro, the heading, the defect rows.
    var helpSection: String { (helpIntro.isEmpty ? "" : helpIntro + "\n\n") + defectHeading + "\n" + defectRows }
    /// Whether this is the profile `serve-reference` and `run` take when none is named.
    var isDefault: Bool { name == Profiles.defaultProfile.name }

    /// `names` as this reference's defects; a usage error naming the unknown ones, the closest known
    /// one (did you mean), and every defect, as one `row` each after `list`'s words (see `DefectList`).
    func defects(_ names: [String], for command: String, context: String, list: DefectList) throws -> Set<Defect> {
        let (defects, unknown) = Defect.parse(names)
        guard !unknown.isEmpty else { return defects }
        let close = unknown.compactMap { Suggestion.closest(to: $0, among: defectNames, limit: 3) }
        let hint = close.isEmpty ? "" : " (did you mean '\(close.joined(separator: "', '"))'?)"
        let all: String
        switch list {
        case .rows: all = "\n" + defectRows
        case .names: all = " " + defectNames.joined(separator: ", ")
        }
        throw UsageError(
            message: "unknown defect '\(unknown.joined(separator: "', '"))'\(context)\(hint); the defects are:\(all)",
            command: command)
    }

    /// What `serve-reference` runs for these arguments: the options it refuses, its defects, then its settings.
    func served(_ arguments: ParsedArguments, command: String) throws -> any ServedReference {
        for option in inapplicableOptions where arguments.value(option) != nil {
            throw UsageError(message: "--\(option) does not apply to --profile \(name)", command: command)
        }
        let defects = try defects(
            arguments.all("defect"), for: command, context: isDefault ? "" : " for --profile \(name)", list: .rows)
        return try serving(arguments, defects: defects)
    }

    /// `run --reference-defect` names as this reference's defects; a usage error naming the valid ones.
    func runDefects(_ names: [String]) throws -> Set<Defect> {
        try defects(
            names, for: RunCommand.configuration.name, context: isDefault ? "" : " for profile \(name)", list: .names)
    }

    /// Checks `run --reference-defect` names before anything starts (see `runDefects`).
    func checkRunDefects(_ names: [String]) throws { _ = try runDefects(names) }

    /// `startEmbedded` with defects by name: a usage error (with the list) for an unknown one.
    func startEmbedded(defectNames names: [String], _ start: EmbeddedStart, cleanup: RunCleanup) async throws
        -> EmbeddedReference
    {
        try await startEmbedded(start, defects: runDefects(names), cleanup: cleanup)
    }

    /// `startForLoad` with defects by name: a usage error (with the list) for an unknown one.
    func startForLoad(defectNames names: [String], _ start: LoadEmbeddedStart, cleanup: RunCleanup) async throws
        -> EmbeddedReference
    {
        try await startForLoad(start, defects: runDefects(names), cleanup: cleanup)
    }
}

/// How an unknown-defect error lists the defects: `serve-reference`'s help rows, or `run`'s names on one line.
enum DefectList {
    case rows
    case names
}
