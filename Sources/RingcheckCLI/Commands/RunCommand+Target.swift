import AllProfiles
import Conformance
import Foundation
import HTTP
import PushMocks

/// Why a target cannot be tested (unreachable, mocks that cannot start): the run is inconclusive.
struct TargetUnavailable: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// `run --target FILE`: the backend a target file describes.
enum FileTarget {
    /// Loads the file, checking it declares the `users` the command needs; its problems
    /// (file:line: field: message) are a configuration error.
    static func load(_ path: String, users: TargetUserNeeds = .suite) throws -> TargetFile {
        do { return try TargetFile.load(path: path, users: users) } catch {
            throw ConfigurationError(message: "the target file has problems:\n\(error)")
        }
    }

    /// Starts the mocks the file asks for, then the backend when its lifecycle says how (output to `log`),
    /// checks the backend answers, and builds the target. With `secondInstance` and a lifecycle of
    /// `instances: 2`, a second instance of the backend is started beside the first for the scenarios that
    /// must run alone (`withSecondInstance`). What it starts is stopped by `cleanup`.
    static func start(
        _ loaded: TargetFile, announce: Bool, log: String, secondInstance: Bool = false, cleanup: RunCleanup
    ) async throws -> RunBackend {
        let file = try await fillingRunVariables(loaded, cleanup: cleanup)
        if file.insecureSkipVerify {
            Console.error(
                """
                ringcheck run: WARNING: \(file.path) sets tls.insecureSkipVerify: the backend's certificate is NOT \
                verified. Anyone on the path could answer for it; do not trust this run's verdict for a deployment.
                """)
        }
        let mocks: MockStack
        do { mocks = try await MockStack.start(file.mocks?.options ?? MockStack.Options()) } catch {
            throw TargetUnavailable(message: "cannot start the mocks: \(error)")
        }
        await cleanup.add { await mocks.stop() }
        try writeSettings(mocks, file.mocks)
        if announce { Console.out(settingsSummary(mocks, file)) }
        guard secondInstance, let instances = loaded.lifecycle?.instances, instances > 1 else {
            let (target, lifecycle) = try await startInstance(file, mocks: mocks, log: log, cleanup: cleanup)
            return RunBackend(target: target, mocks: mocks, maxConcurrency: file.accountSlots, lifecycle: lifecycle)
        }
        return try await withSecondInstance(loaded, first: file, mocks: mocks, log: log, cleanup: cleanup)
    }

    /// Starts one instance of the file's backend (its run variables filled in) when its lifecycle says how,
    /// output to `log`, checks it answers, and builds its target. Its `accounts:` are made in it, only those of
    /// `accountSlots` (1-based) when given.
    static func startInstance(
        _ file: TargetFile, mocks: MockStack, log: String, accountSlots: ClosedRange<Int>? = nil,
        cleanup: RunCleanup
    ) async throws -> (Target, BackendLifecycle?) {
        var lifecycle: BackendLifecycle?
        if let l = file.lifecycle, l.start != nil || l.ready != nil || l.restart != nil || l.stop != nil {
            let dir = (log as NSString).deletingLastPathComponent
            if !dir.isEmpty { try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) }
            do {
                lifecycle = try await BackendLifecycle.startForRun(
                    l.configuration(directory: file.directory, logFile: log), mocks: mocks.settings, cleanup: cleanup)
            } catch { throw TargetUnavailable(message: "cannot start the backend: \(error)") }
        }
        try await checkReachable(file)
        let provisioned: TargetFile
        do { provisioned = try await file.provisioningAccounts(slots: accountSlots) } catch {
            throw TargetUnavailable(message: "cannot create the accounts: \(error)")
        }
        var target = provisioned.target(defaultAppId: mocks.providers.credentials.bundleID)
        if let lifecycle {
            target.restart(through: lifecycle)
            if file.lifecycle?.start != nil {
                target.backendLog = log
                target.capabilities.insert(.backendLog)
            }
        }
        return (target, lifecycle)
    }

    static func writeSettings(_ mocks: MockStack, _ m: TargetMocks?) throws {
        do {
            if let f = m?.envFile { try mocks.settings.envFile().write(toFile: f, atomically: true, encoding: .utf8) }
            if let f = m?.jsonFile { try mocks.settings.json().write(toFile: f, atomically: true, encoding: .utf8) }
        } catch {
            throw TargetUnavailable(message: "cannot write the mock settings: \(error.localizedDescription)")
        }
    }

    /// The RINGCHECK_* settings the backend receives: the mocks' settings with the target's lifecycle
    /// `environment` applied, as the started backend gets them.
    static func settingsSummary(_ mocks: MockStack, _ file: TargetFile) -> String {
        settingsSummary(
            mocks.settings, name: file.name, path: file.path,
            overrides: file.lifecycle?.configuration(directory: "", logFile: "").filling(mocks.settings).environment
                ?? [:],
            fixedMocks: file.mocks != nil)
    }

    /// `settingsSummary` from its parts: every mock setting, replaced where `overrides` (the target's
    /// environment) sets it, and the RINGCHECK_* variables the target adds. Other variables of the
    /// target (they may hold secrets) are only counted.
    /// Whether a setting holds a secret by its name (`…_API_KEY`, `…_SECRET`, `…_TOKEN`).
    static func isSecretSetting(_ name: String) -> Bool {
        name.hasSuffix("_API_KEY") || name.hasSuffix("_SECRET") || name.hasSuffix("_TOKEN")
    }

    static func settingsSummary(
        _ settings: MockSettings, name: String, path: String, overrides: [String: String], fixedMocks: Bool
    ) -> String {
        var out = "Mocks for \(name) (the backend receives these settings and must trust the CA file):\n"
        let mine = settings.environment
        for (variable, raw) in mine {
            // A provider's API key (the OneSignal mock's) is a secret: named, never shown.
            let secret = Self.isSecretSetting(variable)
            let value = secret ? "<redacted>" : raw
            if let given = overrides[variable], given != raw {
                out +=
                    "  \(variable)=\(secret ? "<redacted>" : given)  (set by the target file; the mocks' value is \(value))\n"
            } else {
                out += "  \(variable)=\(value)\n"
            }
        }
        let added = overrides.keys.filter { name in !mine.contains { $0.name == name } }.sorted()
        for variable in added where variable.hasPrefix("RINGCHECK_") {
            let shown = Self.isSecretSetting(variable) ? "<redacted>" : overrides[variable]!
            out += "  \(variable)=\(shown)  (set by the target file)\n"
        }
        let others = added.filter { !$0.hasPrefix("RINGCHECK_") }.count
        if others > 0 {
            out += "  (and \(others) more variable\(others == 1 ? "" : "s") from the target file, not shown)\n"
        }
        if !fixedMocks {
            out += "  (no mocks: section in \(path): these ports are new each run; fix them there for a "
            out += "backend configured in advance)\n"
        }
        return out
    }

    /// Any HTTP answer from the base URL will do; no answer at all makes the run inconclusive. The other
    /// instances the file names (`ProfileConfiguration.otherBaseURLs`: onesignal's `unconfigured.baseURL`) must
    /// answer too: when the lifecycle starts them, within its `ready.timeout` (the readiness URL shows only the
    /// first), otherwise at once.
    static func checkReachable(_ file: TargetFile) async throws {
        try await checkAnswers(file, url: file.baseURL, field: nil, rounds: 1)
        let waitsForStart = file.lifecycle?.start != nil
        let timeout = file.lifecycle?.ready?.timeout ?? .seconds(30)
        let rounds = waitsForStart ? max(1, Int(timeout / reachableInterval)) : 1
        for other in file.profileConfiguration.otherBaseURLs {
            try await checkAnswers(file, url: other.url, field: other.field, rounds: rounds)
        }
    }

    /// The pause between two tries of an instance the lifecycle started.
    static let reachableInterval: Duration = .milliseconds(250)

    /// Tries `url` up to `rounds` times, `reachableInterval` apart, until it gives any HTTP answer.
    static func checkAnswers(_ file: TargetFile, url: String, field: String?, rounds: Int) async throws {
        let client = try Target.makeClient(
            for: url, caFile: file.caFile, insecureSkipVerify: file.insecureSkipVerify, timeoutSeconds: 10)
        defer { client.shutdown() }
        var lastError: (any Error)?
        for round in 0..<rounds {
            if round > 0 { try? await Task.sleep(for: reachableInterval) }
            do {
                _ = try await client.send(ClientRequest(method: "GET", url: url + "/"))
                return
            } catch { lastError = error }
        }
        let what = field.map { "the backend's \($0) \(url)" } ?? "the backend at \(url)"
        let waited = rounds > 1 ? " (tried for \(reachableInterval * rounds))" : ""
        throw TargetUnavailable(message: "\(what) does not answer\(waited): \(lastError.map { "\($0)" } ?? "")")
    }
}
