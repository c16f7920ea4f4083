import AllProfiles
import Conformance
import Foundation

/// `ringcheck validate --target FILE`: checks a target file before a run, the step CI examples call
/// "check the target file". It reads and expands the file, starts the mocks and the backend as a run
/// would, checks the backend answers, signs every account in, makes one registration and one read through
/// the target's routes and mapping (`TargetProbe`, removing what it registered), and says which scenarios
/// would run and which are not applicable and why. Nothing is judged.
struct ValidateCommand: RingcheckCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "validate",
            abstract: "Check a target file before a run: parse it, start the backend, sign every account in.",
            discussion: """
                Reads and expands the target file (every problem at once, with file:line:column and field), starts
                the mocks and, when the file's lifecycle says how, the backend (its output in <report-dir>/backend.log),
                checks that the backend answers at its base URL, signs each account of each user in (a login
                request or token command, as the run would), makes one registration and one read through the file's
                routes and mapping as the first user and removes what it registered (per profile:
                \(probeSummaries)).
                It prints which of the profile's scenarios would run and which are not applicable, with the reason.
                Everything it started is stopped before it exits.

                Exit status: 0 the file is usable, 2 the file (or an option) has problems, 3 the backend did not
                start, does not answer, refused a sign-in, or refused the registration, the read or the clean-up
                (the line names the operation, the request as it went and the answer).
                """,
            options: [
                .value("target", "FILE", help: "The target file to check (required)."),
                .value(
                    "profile", "NAME", help: "The profile it is judged by: \(Profiles.names.joined(separator: ", ")).",
                    default: "the target file's profile:, else \(Profiles.defaultProfile.name)"),
                .value("suite", "NAME|DIR", help: SuiteLocator.optionHelp, default: "the profile's (built in)"),
                .value("report-dir", "DIR", help: "Where the backend's output goes (backend.log).", default: "reports"),
            ],
            examples: ["ringcheck validate --target ringcheck-target.yaml"])
    }

    /// `a: what it registers and reads; b: …` for each registered profile whose probe tries something.
    static var probeSummaries: String {
        Profiles.registry.all.compactMap { ($0 as? any TargetProbing).map { ($0.name, $0.probeSummary) } }
            .filter { !$0.1.isEmpty }.map { "\($0.0): \($0.1)" }.joined(separator: "; ")
    }

    var targetPath: String
    var targetFile: TargetFile
    var suitePath: String
    var profileName: String?
    var reportDir: String

    init(arguments: ParsedArguments) throws {
        let name = Self.configuration.name
        guard let path = arguments.value("target"), !path.isEmpty else {
            throw UsageError(message: "--target FILE is required: the target file to check", command: name)
        }
        targetPath = path
        reportDir = arguments.value("report-dir") ?? "reports"
        if reportDir.isEmpty {
            throw UsageError(message: "--report-dir is empty; give the directory backend.log goes to", command: name)
        }
        let profileOption = try arguments.profileName()
        targetFile = try FileTarget.load(path)
        if let conflict = RunCommand.profileConflict(
            option: profileOption, file: targetFile.profile, path: targetFile.path)
        {
            throw UsageError(message: conflict, command: name)
        }
        profileName = targetFile.profile ?? profileOption
        suitePath = arguments.suitePath(profile: profileName)
    }

    func run() async throws -> ExitCode {
        let suite = try SuiteChoice.loadSuite(suitePath)
        let source = targetFile.profile != nil ? "the target file \(targetPath)" : "--profile"
        try suite.checkProfile(profileName, source: source, command: Self.configuration.name)
        Console.out("✔ \(targetFile.path) reads as a \(suite.profile.name) target")
        try ReportDirectory.prepare(reportDir)

        let cleanup = RunCleanup()
        try cleanup.exitOnSignal(command: Self.configuration.name)
        let backend: RunBackend
        do {
            backend = try await FileTarget.start(
                targetFile, announce: false, log: reportDir + "/backend.log", cleanup: cleanup)
        } catch {
            await cleanup.run()
            Console.error("✘ \(error)")
            return .inconclusive
        }
        let started = backend.lifecycle != nil ? "started (output in \(reportDir)/backend.log) and " : ""
        Console.out("✔ the mocks are up; the backend \(started)answers at \(backend.target.baseURL)")
        for other in backend.target.profileConfiguration.otherBaseURLs {
            Console.out("✔ its \(other.field) answers too: \(other.url)")
        }

        let signInFailures = await signInEveryAccount(backend.target)
        var probeFailed = false
        if signInFailures.isEmpty {
            for line in await TargetProbe.run(suite.profile, on: backend.target) {
                switch line.outcome {
                case .worked: Console.out("✔ \(line.text)")
                case .notApplicable: Console.out("- \(line.text): not applicable")
                case .failed:
                    Console.error("✘ \(line.text)")
                    probeFailed = true
                }
            }
        }
        var lines: [String] = []
        let scenarios = suite.scenarios
        var applicable = 0
        for scenario in scenarios {
            if let reason = backend.target.notApplicableReason(scenario) {
                lines.append("  - \(scenario.id): not applicable: \(reason)")
            } else {
                applicable += 1
            }
        }
        Console.out(
            "\(applicable == 0 ? "✘" : "✔") \(applicable) of \(scenarios.count) scenarios of suite \(suite.catalogue.suite.id) would run"
                + (lines.isEmpty ? "" : "; \(lines.count) not applicable:"))
        for line in lines { Console.out(line) }
        await cleanup.run()
        if !signInFailures.isEmpty || probeFailed { return .inconclusive }
        if applicable == 0 {
            Console.error("✘ no scenario of suite \(suite.catalogue.suite.id) can run against this target")
            return .usage
        }
        Console.out("The target file is ready: ringcheck run --target \(targetPath)")
        return .success
    }

    /// Signs each account of each of the target's users in, printing one line per user; the failures.
    func signInEveryAccount(_ target: Target) async -> [String] {
        var failures: [String] = []
        for role in target.roles {
            let slots = target.accountSlots ?? 1
            var ids: [String] = []
            var failed: String?
            for slot in 0..<slots {
                guard let account = target.accounts(role, slot) else { continue }
                ids.append(account.userId)
                guard let credentials = target.credentials else { continue }
                do { _ = try await credentials(role, slot) } catch {
                    failed = "user \(role) (\(account.userId)) cannot sign in: \(error)"
                    break
                }
            }
            if let failed {
                Console.error("✘ \(failed)")
                failures.append(failed)
            } else if !ids.isEmpty {
                let how = target.credentials == nil ? "fixed headers" : "signed in"
                Console.out("✔ user \(role): \(ids.joined(separator: ", ")) (\(how))")
            }
        }
        return failures
    }
}
