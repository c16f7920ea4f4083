import AllProfiles
import Conformance
import Foundation
import InputLimits
import PushMocks
import ReferenceBackend
import Reports

/// `ringcheck run`: run a suite's scenarios against a backend and judge it.
struct RunCommand: RingcheckCommand {
    /// Computed, so its help (the profiles, every reference's defects) follows the registry in force
    /// (`Ringcheck.dispatch(_:profiles:)`).
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "run",
            abstract: "Run the conformance suite (or chosen scenarios) and judge the backend.",
            discussion: discussion,
            arguments: [ArgumentSpec(name: "ID or glob", help: "Scenarios to run (default: all).", repeating: true)],
            options: options,
            examples: [
                "ringcheck run                                  # the whole Callx suite against the reference backend",
                "ringcheck run 'arbitration.*' --repeat 5",
                "ringcheck run --reference-defect racy-answer   # see which checks catch a defect",
                "ringcheck run --profile all                    # every profile against its embedded reference",
                "ringcheck run --shard 1/2 --report-dir r1 && ringcheck run --shard 2/2 --report-dir r2",
                "ringcheck run 'restart.*' --reference-process  # restart a real backend process mid-call",
                "ringcheck init-target my-backend.yaml && ringcheck run --target my-backend.yaml",
            ])
    }

    /// `run --help`'s discussion (the profiles of the registry in force).
    static var discussion: String {
        """
        Without --target, runs against the embedded reference backend wired to ringcheck's mock APNs and
        FCM (ring time \(EmbeddedReference.ringSeconds) s; \(Target.shortRingSeconds) s for the scenarios that wait for expiry). Scenarios run concurrently, each with fresh accounts and
        devices. Reports go to --report-dir; the exit code is the verdict: 0 conformant, 1 non-conformant
        (a MUST failed, or with --strict any requirement), 2 usage or configuration error, 3 inconclusive.
        A failed SHOULD is a warning unless --strict is given.

        The console always prints, whatever --format says: a line per finished scenario (on a terminal also a
        live line for the scenarios running), then the failures grouped by requirement and check (the first
        scenario's expected and actual, one line per push, the other scenarios' IDs and a re-run command),
        counts and the verdict. --verbose prints every failure with its full evidence (the captures and HTTP
        exchanges, as report.html has them); -q/--quiet prints the verdict line only. --format chooses the
        report files written to --report-dir (--format console writes none). A scenario ID, glob or --tag
        that selects nothing is a usage error (exit 2) naming the closest IDs or tags.

        --profile NAME picks the system the backend is judged as (\(Profiles.names.joined(separator: ", "))): its
        suite (built into ringcheck, or $RINGCHECK_SUITES/NAME; --suite picks another), its embedded reference and its defects. --profile all runs every
        profile's suite against its embedded reference, one verdict line per profile (reports in
        <report-dir>/NAME/, a combined junit.xml and summary.md in <report-dir>), and exits with the
        worst. A target file may say 'profile: NAME'.

        With --target FILE (write one with 'ringcheck init-target'), runs against the backend the file
        describes: its base URL and TLS trust, how users a (caller), b (callee) and c (in no call) sign in,
        how each operation maps onto its API, and what it can do. ringcheck starts its mocks where the
        file's mocks: section says (serving the real push host names with impersonate:), prints the
        RINGCHECK_* settings the backend must use, and starts, restarts and stops the backend when the
        file's lifecycle: says how (its output in <report-dir>/backend.log). Scenarios the backend cannot
        run are not applicable, with the reason. A file with problems exits 2 naming file:line and
        field; a backend that does not answer exits 3, its reports still written with the cause.
        """
    }

    /// `run`'s options (the profiles and reference defects of the registry in force).
    static var options: [OptionSpec] {
        [
            .value(
                "profile", "NAME",
                help:
                    "The profile the backend is judged by: \(Profiles.names.joined(separator: ", ")), or all (every profile against its embedded reference).",
                default: "the target file's profile:, else \(Profiles.defaultProfile.name)"),
            .value(
                "suite", "NAME|DIR", help: SuiteLocator.optionHelp, default: "the profile's (built in)"),
            .value(
                "target", "FILE",
                help: "The backend under test, described by a target file (see 'ringcheck init-target').",
                default: "the embedded reference backend"),
            .value("tag", "T", help: "Only scenarios with this tag.", repeatable: true),
            .value("report-dir", "DIR", help: "Where reports are written.", default: "reports"),
            .value(
                "format", "LIST",
                help:
                    "The report files written, comma-separated: junit, json, html, markdown (console alone: no files; the console prints either way unless -q).",
                default: "console,junit,json,html,markdown"),
            .flag("quiet", short: "q", help: "Print the verdict line only (errors still go to standard error)."),
            .flag(
                "verbose", short: "v",
                help: "Print every failure of every scenario with its full evidence (captures, HTTP exchanges)."),
            .value(
                "repeat", "N", help: "Run each scenario N times; pass-and-fail is reported as flaky.", default: "1",
                number: .whole(1...1000)),
            .value(
                "shard", "I/N",
                help:
                    "Run shard I of N (deterministic split by scenario ID); 'report merge' joins all N, or is inconclusive."
            ),
            .flag("fail-fast", help: "Start no further scenarios once one has failed."),
            .flag(
                "strict",
                help:
                    "Judge SHOULD requirements like MUSTs: any failed requirement exits 1 (for gating a release on the whole suite)."
            ),
            .value(
                "reference-defect", "NAME",
                help:
                    "Run the embedded reference backend with this defect (one of the profile's: \(Self.defectHelp)).",
                repeatable: true),
            .value(
                "concurrency", "N",
                help: "Scenarios run at once (with --target, at most one per account of each user).",
                default: "12", number: .whole(1...256)),
            .flag(
                "reference-process",
                help:
                    "Run the reference backend as a child process (serve-reference) that ringcheck starts, restarts and stops like a target's backend; its output goes to <report-dir>/backend.log."
            ),
        ]
    }

    var patterns: [String]
    /// `--profile`, or the target file's `profile:`; nil: the suite's (callx by default).
    var profileName: String?
    /// `--profile all`.
    var allProfiles: Bool
    /// Whether the verdict line names the profile (each profile's run in `--profile all`).
    var namesProfileInVerdict = false
    /// `--suite` as given (nil: the profile's).
    var suiteOption: String?
    var suitePath: String
    var tags: [String]
    var reportDir: String
    var formats: [ReportFormat]
    /// `-q`: only the verdict line.
    var quiet: Bool
    /// `-v`: every failure with its full evidence.
    var verbose: Bool
    /// Whether the live status line is drawn: standard output is a terminal (a test may set it).
    var liveTerminal = LiveStatus.standardOutputIsLive()
    var repeatCount: Int
    var shard: (index: Int, count: Int)?
    var failFast: Bool
    var strict: Bool
    var defectNames: [String]
    var concurrency: Int
    var referenceProcess: Bool
    var targetPath: String?
    var targetFile: TargetFile?

    init(arguments: ParsedArguments) throws {
        let name = Self.configuration.name
        targetPath = arguments.value("target")
        if targetPath != nil, !arguments.all("reference-defect").isEmpty || arguments.flag("reference-process") {
            throw UsageError(
                message:
                    "--reference-defect and --reference-process apply to the embedded reference backend, not to a --target",
                command: name)
        }
        patterns = arguments.positionals
        let profileOption = try arguments.profileName(allowAll: true)
        allProfiles = profileOption == "all"
        if allProfiles {
            let given = ["target", "suite", "shard", "reference-defect"].filter { arguments.value($0) != nil }
            if let first = given.first {
                throw UsageError(
                    message:
                        "--profile all runs every profile's whole suite against its embedded reference; it takes no --\(first)",
                    command: name)
            }
            if !patterns.isEmpty {
                throw UsageError(
                    message: "--profile all runs every profile's whole suite; it takes no scenario IDs", command: name)
            }
        }
        profileName = allProfiles ? nil : profileOption
        suiteOption = arguments.value("suite")
        suitePath = arguments.suitePath(profile: profileName)
        tags = arguments.all("tag")
        reportDir = arguments.value("report-dir") ?? "reports"
        if reportDir.isEmpty {
            throw UsageError(message: "--report-dir is empty; give the directory reports are written to", command: name)
        }
        formats = try ReportFormat.parseList(
            arguments.value("format") ?? "console,junit,json,html,markdown", command: name)
        quiet = arguments.flag("quiet")
        verbose = arguments.flag("verbose")
        if quiet && verbose {
            throw UsageError(message: "--quiet and --verbose exclude each other", command: name)
        }
        repeatCount = try arguments.int("repeat") ?? 1
        if let text = arguments.value("shard") {
            switch ScenarioSelection.checkShard(text) {
            case .success(let s): shard = s
            case .failure(let problem):
                throw UsageError(
                    message: "--shard '\(Suggestion.shown(text))' names no shard: \(problem.reason)", command: name)
            }
        }
        failFast = arguments.flag("fail-fast")
        strict = arguments.flag("strict")
        defectNames = arguments.all("reference-defect")
        concurrency = try arguments.int("concurrency") ?? 12
        referenceProcess = arguments.flag("reference-process")
        targetFile = try targetPath.map { try FileTarget.load($0) }
        if let targetFile, let fileProfile = targetFile.profile {
            if let conflict = Self.profileConflict(option: profileOption, file: fileProfile, path: targetFile.path) {
                throw UsageError(message: conflict, command: name)
            }
            profileName = fileProfile
            suitePath = arguments.suitePath(profile: fileProfile)
        }
        // Without --suite the profile is known now; with it, once the suite is loaded.
        if suiteOption == nil, targetPath == nil, !allProfiles {
            _ = try referenceDefects(for: profileName ?? Profiles.defaultProfile.name)
        }
    }

    /// Why `--profile` and a target file's `profile:` cannot both hold; nil when they agree (or one is missing).
    static func profileConflict(option: String?, file: String?, path: String) -> String? {
        guard let option, let file, option != file else { return nil }
        return
            "the target file \(path) says profile: \(file), but --profile is \(option); make them agree (or leave --profile out)"
    }

    /// One line of every registered reference's defects, for the help.
    static var defectHelp: String {
        ReferenceKits.registered.all.map { "\($0.name): \($0.defectNames.joined(separator: ", "))" }
            .joined(separator: "; ")
    }

    /// `--reference-defect` checked against profile `name`'s reference: a usage error naming its defects
    /// when one is unknown, or when the profile has no embedded reference.
    func referenceDefects(for name: String) throws -> (any ReferenceKit, [String]) {
        guard let kit = ReferenceKits.registered.named(name) else {
            throw UsageError(
                message: "profile '\(name)' has no embedded reference backend; give --target FILE",
                command: Self.configuration.name)
        }
        try kit.checkRunDefects(defectNames)
        var seen: [String] = []
        for d in defectNames where !seen.contains(d) { seen.append(d) }
        return (kit, seen)
    }

    /// `callx` → the folder of suite `callx` (see `SuiteLocator.directory`); a path stays.
    static func suiteDirectory(_ given: String) -> String { SuiteLocator.directory(given) }

    /// The command that re-runs one scenario the same way, from any folder: the suite (when not the
    /// built-in one) and the target file by absolute path.
    func rerunCommand(_ id: String) -> String {
        var parts = ["ringcheck", "run", id]
        let profile = profileName ?? Profiles.defaultProfile.name
        // The target file names its profile itself.
        if profile != Profiles.defaultProfile.name, targetFile?.profile == nil { parts += ["--profile", profile] }
        if suiteOption != nil || !EmbeddedSuites.isEmbedded(suitePath) {
            parts += ["--suite", SuiteLocator.rerunArgument(suitePath)]
        }
        for d in defectNames { parts += ["--reference-defect", d] }
        if let targetPath { parts += ["--target", SuiteLocator.absolutePath(targetPath)] }
        if strict { parts.append("--strict") }
        // Quoted as a shell needs it (a path with a space).
        return BackendCommand.arguments(parts).description
    }

    /// The report files `--format` asks for (console alone: none).
    var fileFormats: [ReportFormat] { formats.filter { $0.fileName != nil } }

    func run() async throws -> ExitCode {
        if allProfiles { return try await runEveryProfile() }
        // Before anything starts: backend.log goes there during the run, the reports at its end.
        try ReportDirectory.prepare(reportDir)
        let suite = try SuiteChoice.loadSuite(suitePath)
        let source = targetFile?.profile != nil ? "the target file \(targetPath ?? "")" : "--profile"
        try suite.checkProfile(profileName, source: source, command: Self.configuration.name)
        let choice: RunBackendChoice
        if let targetFile {
            choice = .file(targetFile)
        } else {
            let (kit, defects) = try referenceDefects(for: suite.profile.name)
            choice = .reference(kit: kit, defects: defects)
        }
        let scenarios = try selectScenarios(from: suite.scenarios)
        let outcome = try await session(suite: suite, scenarios: scenarios, backend: choice).run()
        return ExitCode(rawValue: outcome.exitCode) ?? .inconclusive
    }
}
