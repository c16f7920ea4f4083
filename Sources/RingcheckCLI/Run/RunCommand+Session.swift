import AllProfiles
import Conformance

extension RunCommand {
    /// The engine's `RunSession` for the selected `scenarios` of `suite`, wired to this process: the
    /// terminal console, the signal-driven cleanup, and the backend `choice` names.
    func session(suite: Suite, scenarios: [Scenario], backend choice: RunBackendChoice) throws -> RunSession {
        let cleanup = RunCleanup()
        return RunSession(
            settings: sessionSettings, profile: suite.profile, catalogue: suite.catalogue, scenarios: scenarios,
            shard: shardFacts(of: suite.scenarios),
            backend: try backendSource(choice, scenarios: scenarios, cleanup: cleanup),
            console: TerminalRunConsole(live: !quiet && liveTerminal),
            cleanup: SignalRunCleanup(cleanup: cleanup, command: Self.configuration.name))
    }

    /// The options the session runs and reports by.
    var sessionSettings: RunSessionSettings {
        let command = self
        var settings = RunSessionSettings(
            ringcheckVersion: RingcheckVersion.current, commandName: "ringcheck " + Self.configuration.name,
            reportDir: reportDir, fileFormats: fileFormats, quiet: quiet, verbose: verbose, repeatCount: repeatCount,
            concurrency: concurrency, failFast: failFast, strict: strict, rerunCommand: { command.rerunCommand($0) })
        settings.namesProfileInVerdict = namesProfileInVerdict
        return settings
    }

    /// The session's backend source for `choice`: a usage error for `--reference-process` when the
    /// reference cannot run as a child process.
    func backendSource(_ choice: RunBackendChoice, scenarios: [Scenario], cleanup: RunCleanup) throws
        -> any RunBackendSource
    {
        switch choice {
        case .file(let file):
            return FileTargetBackend(
                file: file, secondInstance: scenarios.contains(where: \.runsAlone), announce: !quiet,
                log: reportDir + "/backend.log", cleanup: cleanup)
        case .reference(let kit, let defects):
            if referenceProcess, !kit.startsLogged {
                throw UsageError(
                    message: "--reference-process: the \(kit.name) reference cannot run as a child process",
                    command: Self.configuration.name)
            }
            return ReferenceKitBackend(
                kit: kit, defects: defects, embeddedStart: embeddedStart(kit, scenarios: scenarios), cleanup: cleanup)
        }
    }

    /// What the kit is asked for: accounts for every run of every scenario user and, where it can, the
    /// backend log in the report folder, `--reference-process` and a second instance for the scenarios
    /// that restart the backend.
    func embeddedStart(_ kit: any ReferenceKit, scenarios: [Scenario]) -> EmbeddedStart {
        var userNames: [String] = []
        for s in scenarios { for u in s.allUsers where !userNames.contains(u) { userNames.append(u) } }
        let logged = kit.startsLogged
        return EmbeddedStart(
            runs: scenarios.count * repeatCount, userNames: userNames,
            log: logged ? reportDir + "/backend.log" : nil, asChildProcess: referenceProcess,
            restartInstance: logged && scenarios.contains(where: \.runsAlone))
    }
}
