import AllProfiles
import Conformance
import Foundation
import InputLimits
import PushMocks
import ReferenceBackend

#if canImport(Glibc)
    import Glibc
#endif

/// `ringcheck load`: many concurrent calls against a backend, every push and the whole history checked.
struct LoadCommand: RingcheckCommand {
    /// Built from the registry in force at each use.
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "load",
            abstract: "Put a backend under many concurrent calls and check every push and the whole history.",
            discussion: """
                Drives a profile's units of work (--profile) at a rate or concurrency against a backend, and judges
                every push and the whole history by the profile's rules:

                \(Profiles.registry.all.compactMap { $0.load?.helpSection }.filter { !$0.isEmpty }.joined(separator: "\n\n"))

                Without --target it runs against the profile's embedded reference backend as a child process
                (serve-reference; --reference-in-process runs it inside ringcheck instead). See docs/commands.md.

                Figures: calls/s sustained, latency percentiles per endpoint, push latency from the request that
                caused each push to its arrival at the mock, and the backend's CPU and memory when it runs on this
                machine (a child process: its own figures; for --reference-in-process, ringcheck's own process,
                labelled so).
                Progress is a single line on a terminal. Loopback only; bounded by --duration or --calls and by a
                hard limit of one hour.

                EXIT STATUS:
                  0   clean: no MUST broken in the history or the pushes
                  1   violations (each names its call)
                  2   usage or configuration error
                  3   inconclusive: the backend could not be reached, or too many calls failed to be judged
                  130, 143  interrupted by Ctrl-C (SIGINT) or SIGTERM: no more calls start, those in flight finish,
                      and what ran is judged and written to load-report.json (a second Ctrl-C stops at once)
                """,
            options: [
                .embeddedOrTarget,
                .value(
                    "profile", "NAME", help: "The profile to load: \(Self.profilesSentence("or")).",
                    default: "\(Profiles.defaultProfile.name), or the target file's profile"),
                .value(
                    "rate", "N", help: "Calls started per second.", default: "4 unless --concurrency",
                    number: NumberRange(0, 10_000, lowerExclusive: true)),
                .value(
                    "concurrency", "N", help: "Calls kept in flight instead of a rate.", number: .whole(1...10_000)),
                .value(
                    "duration", "S", help: "Stop starting calls after S seconds.", default: "10 unless --calls",
                    number: .seconds(upTo: 3_600, positive: true)),
                .value("calls", "N", help: "Stop after starting N calls.", number: .whole(1...1_000_000)),
                .value(
                    "max-in-flight", "N", help: "With --rate: at most N calls in flight.", default: "200",
                    number: .whole(1...10_000)),
                .value(
                    "short-ring", "S",
                    help: "How long the calls that should expire ring (whole seconds; \(owners(of: "short-ring"))).",
                    default: "3", number: .whole(1...60)),
                .flag("strict", help: "Judge SHOULD requirements like MUSTs: any violation exits 1."),
                .value(
                    "report-dir", "DIR", help: "Where load-report.json (and backend.log) are written.",
                    default: "reports/load"),
                .flag(
                    "reference-process",
                    help: "Run the embedded reference backend as a child process (serve-reference; the default)."),
                .flag(
                    "reference-in-process",
                    help:
                        "Run the embedded reference backend inside ringcheck (its CPU is then counted with ringcheck's)."
                ),
                .value(
                    "reference-defect", "NAME", help: "Run the embedded reference backend with this defect.",
                    repeatable: true),
            ],
            examples: [
                "ringcheck load --rate 5 --duration 10",
                "ringcheck load --calls 100 --concurrency 8 --reference-defect racy-answer   # exit 1, names the calls",
                "ringcheck load --target backend.yaml --rate 20 --duration 60",
                "ringcheck load --profile dialstack --calls 40 --rate 8 --reference-defect wrong-user   # exit 1",
            ])
    }

    /// The registered profiles with a load mode (`Profile.load`), in the order of the registry in force
    /// (`Profiles.registry`, read at use so an injected registry is followed).
    static var profiles: [String] { Profiles.registry.all.filter { $0.load != nil }.map(\.name) }

    /// The registered profiles with a load mode, as a sentence lists them (`a, b or c`).
    static func profilesSentence(_ conjunction: String) -> String {
        profiles.sentenceList(conjunction)
    }

    /// The load options some profile takes for itself (`ProfileLoad.options`), with the profiles that take each.
    static var profileOptions: [(option: String, profiles: [String])] {
        var out: [(option: String, profiles: [String])] = []
        for profile in Profiles.registry.all {
            for option in profile.load?.options ?? [] {
                if let i = out.firstIndex(where: { $0.option == option }) {
                    out[i].profiles.append(profile.name)
                } else {
                    out.append((option, [profile.name]))
                }
            }
        }
        return out
    }

    /// The profiles that take load option `option` (`ProfileLoad.options`), as help names them: `a or b`.
    static func owners(of option: String) -> String {
        (profileOptions.first { $0.option == option }?.profiles ?? []).joined(separator: " or ")
    }

    var targetFile: String?
    /// `--profile`; nil: the default profile, or the target file's profile.
    var profile: String?
    var plan: LoadPlan
    /// The values of the profile's own load options (`ProfileLoad.options`) that were given.
    var profileOptionValues: [String: String]
    var reportDir: String
    var asChildProcess: Bool
    /// `--reference-defect` names for the embedded reference (checked against its kit).
    var defectNames: [String]

    init(arguments: ParsedArguments) throws {
        let name = Self.configuration.name
        targetFile = arguments.value("target")
        profile = try arguments.profileName()
        if let profile, !Self.profiles.contains(profile) {
            throw UsageError(
                message: "load mode supports \(Self.profilesSentence("and")) (not '\(profile)')",
                command: name)
        }
        let chosen = profile ?? Profiles.defaultProfile.name
        let rate = try arguments.double("rate")
        let concurrency = try arguments.int("concurrency")
        if rate != nil && concurrency != nil {
            throw UsageError(message: "--rate and --concurrency exclude each other: give one", command: name)
        }
        let duration = try arguments.double("duration")
        let calls = try arguments.int("calls")
        let maxInFlight = try arguments.int("max-in-flight") ?? 200
        plan = LoadPlan(
            rate: rate, concurrency: concurrency, durationSeconds: duration, calls: calls, maxInFlight: maxInFlight,
            strict: arguments.flag("strict"))
        reportDir = arguments.value("report-dir") ?? "reports/load"
        let inProcess = arguments.flag("reference-in-process")
        if inProcess && arguments.flag("reference-process") {
            throw UsageError(
                message: "--reference-process and --reference-in-process exclude each other: give one", command: name)
        }
        // The backend's CPU and memory are measured on their own unless the reference is asked in process.
        asChildProcess = !inProcess
        defectNames = arguments.all("reference-defect")
        let kit = ReferenceKits.registered.named(chosen)
        let own = Profiles.named(chosen)?.load?.options ?? []
        profileOptionValues = [:]
        for (option, owners) in Self.profileOptions {
            guard let value = arguments.value(option) else { continue }
            guard own.contains(option) else {
                throw UsageError(
                    message: "--\(option) applies to --profile \(owners.joined(separator: " or ")) only", command: name)
            }
            profileOptionValues[option] = value
        }
        try kit?.checkRunDefects(defectNames)
        if targetFile != nil && (!defectNames.isEmpty || arguments.flag("reference-process") || inProcess) {
            throw UsageError(
                message:
                    "--reference-defect, --reference-process and --reference-in-process apply to the embedded backend, "
                    + "not to --target",
                command: name)
        }
    }

    func run() async throws -> ExitCode {
        try ReportDirectory.prepare(reportDir)
        let cleanup = RunCleanup()
        // Ctrl-C while starting stops what was started; once calls run, it stops starting new ones.
        let signals = CallSignals(command: "load")
        let watching = signals.watch(cleanup: cleanup)
        let start = try await signals.starting(cleanup: cleanup, failure: "cannot start") {
            if let targetFile { return try await startTarget(targetFile, cleanup: cleanup) }
            return try await startEmbedded(profile ?? Profiles.defaultProfile.name, cleanup: cleanup)
        }
        guard let started = start else { return .inconclusive }
        let progress = LoadProgressLine()
        let result: LoadResult
        do {
            let workload = try started.load.workload(
                LoadSetup(
                    target: started.target, mocks: started.mocks, callers: started.callers, callees: started.callees,
                    options: profileOptionValues))
            let driver = LoadDriver(
                workload: workload, plan: plan, watched: started.watched, progress: { progress.show($0) })
            if watching {
                signals.callPlaced()
                Task {
                    await signals.interrupted()
                    driver.interrupt()
                }
            }
            // Announced once a signal is the driver's to handle (a script may interrupt from here on).
            Console.out(
                "ringcheck load: \(workload.profile) on \(started.target.name) (\(started.target.baseURL)): "
                    + plan.summary(unit: workload.unit))
            result = await driver.run()
        } catch let error as LoadSetupError {
            await cleanup.run()
            throw ConfigurationError(message: error.message)
        } catch {
            await cleanup.run()
            Console.error("ringcheck load: cannot start the HTTP client: \(error)")
            return .inconclusive
        }
        progress.finish()
        await cleanup.run()
        var report = result.report
        // Ctrl-C or SIGTERM during the calls: what ran is judged and written, and load exits as run does.
        if let signal = signals.signal { report.interrupt(by: signal) }
        let path = reportDir + "/" + LoadReport.fileName
        do { try report.json().write(to: URL(fileURLWithPath: path)) } catch {
            Console.error("ringcheck load: cannot write \(path): \(error)")
        }
        Console.out(LoadConsoleSummary.render(report, words: started.words) + "report: \(path)\n")
        return ExitCode(rawValue: report.exitCode) ?? .inconclusive
    }
}

/// What a load run drives: the profile's load mode, the target, its mocks, who starts units (callers) and
/// whose devices they reach (callees), and the process to watch.
struct LoadBackend {
    var load: any ProfileLoad
    var target: Target
    var mocks: MockStack
    var callers: [TargetUser]
    var callees: [TargetUser]
    var watched: WatchedProcess?

    /// How the console names a unit and the pushes that start something.
    var words: LoadWords { load.words }
}

/// The progress line: rewritten in place on a terminal (standard error), nothing otherwise.
final class LoadProgressLine: Sendable {
    let enabled = isatty(STDERR_FILENO) == 1

    func show(_ p: LoadProgress) {
        guard enabled else { return }
        FileHandle.standardError.write(Data(("\r\u{1B}[K" + p.line).utf8))
    }

    func finish() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
