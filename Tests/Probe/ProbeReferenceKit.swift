import Conformance
import Foundation
import PushMocks
import Signing

/// The probe's reference kit: `ProbeReference` as `serve-reference --profile probe` serves it (its key from
/// `PROBE_KEY`) and as `run --profile probe` embeds it without `--target` (a random key, given to both it and
/// the target's `probe:` configuration), with its one defect, `wrong-echo`.
///
/// ```swift
/// let profiles = ProfileRegistry(Profiles.all + [ProbeProfile()])
/// await Ringcheck.dispatch(["run", "--profile", "probe", "--reference-defect", "wrong-echo"], profiles: profiles)
/// ```
package struct ProbeReferenceKit: ReferenceKit {
    package typealias Defect = ProbeDefect

    package init() {}

    /// Where `serve-reference --profile probe` takes the key it wants in `x-probe-key`.
    package static let keyVariable = "PROBE_KEY"

    package var profile: any Profile { ProbeProfile() }
    package let title = "the probe reference"
    package let helpIntro = """
        PROFILE probe (--profile probe): the probe reference (a test profile). POST /ping {"n": N} with
        x-probe-key: the key from \(keyVariable) (or the variable --key-env names) answers {"echo": N}.
        """
    package let summary = "the probe reference (a test profile)"
    /// Its one option of its own: which variable holds the key (a kit's options reach `serve-reference`'s help,
    /// its parser, its refusals for other profiles and the shell completions through the registry alone).
    package let serveOptions: [ProfileOptionRow] = [
        .value("key-env", "NAME", help: "the variable its x-probe-key key is read from", default: keyVariable)
    ]
    package let serveExamples = ["\(keyVariable)=… ringcheck serve-reference --profile probe --port 0"]

    package func serving(_ arguments: any ReferenceArguments, defects: Set<ProbeDefect>) throws
        -> any ServedReference
    {
        try serving(arguments, defects: defects, environment: ProcessInfo.processInfo.environment)
    }

    /// `serving` with the key read from `environment` (the variable `--key-env` names, else `PROBE_KEY`): a
    /// configuration error when it has none.
    package func serving(
        _ arguments: any ReferenceArguments, defects: Set<ProbeDefect>, environment: [String: String]
    ) throws -> ProbeServed {
        let variable = arguments.value("key-env") ?? Self.keyVariable
        guard let key = environment[variable], !key.isEmpty else {
            throw ConfigurationError(message: "--profile probe needs the key it wants in x-probe-key: set \(variable)")
        }
        return ProbeServed(
            key: key, keyVariable: variable, defects: defects, host: arguments.value("host") ?? "127.0.0.1",
            port: try arguments.int("port") ?? 8080)
    }

    /// Mocks (the engine's run wants them, though the probe sends no push) and the probe reference with a random
    /// key, which the target carries as its `probe:` configuration.
    package func startEmbedded(_ start: EmbeddedStart, defects: Set<ProbeDefect>, cleanup: any CleanupRegistry)
        async throws -> EmbeddedReference
    {
        let mocks = try await MockStack.start()
        await cleanup.add { await mocks.stop() }
        let key = "probe-" + SecureRandom.alphanumeric(24, uppercaseOnly: false)
        let reference = ProbeReference(key: key, defects: defects)
        await cleanup.add { await reference.server.stop() }
        try reference.server.start()
        var target = Target(
            name: EmbeddedReference.name("embedded probe reference", defects: defects),
            baseURL: "http://127.0.0.1:\(reference.server.port)", accounts: { EmbeddedReference.account($0, run: $1) },
            capabilities: [], appId: mocks.providers.credentials.bundleID)
        target.profileConfiguration[ProbeTargetConfiguration.self] = ProbeTargetConfiguration(key: key)
        return EmbeddedReference(mocks: mocks, target: target)
    }
}

/// `serve-reference --profile probe`: the probe reference on `host:port`, not yet listening.
package struct ProbeServed: ServedReference {
    /// The key it wants in `x-probe-key` (never in the banner).
    var key: String
    /// The variable it came from, for the banner.
    package var keyVariable: String
    var defects: Set<ProbeDefect>
    package var host: String
    package var port: Int

    package func start() async throws -> RunningReference {
        let reference = ProbeReference(key: key, defects: defects, host: host, port: port)
        try reference.server.start()
        let banner = """
            ringcheck serve-reference: listening on http://\(host):\(reference.server.port)
              profile      probe (POST /ping, key from \(keyVariable))
              defects      \(ServedReferenceText.defectsLine(defects))
            Press Ctrl-C to stop.
            """
        return RunningReference(banner: banner, stop: { await reference.server.stop() })
    }
}

/// The probe brings its reference: `serve-reference --profile probe` and `run --profile probe` without `--target`.
extension ProbeProfile: ReferenceKitProvider {
    package var referenceKit: any ReferenceKit { ProbeReferenceKit() }
}

/// The engine's view of the probe's defect switches (`ReferenceKitDefect` asks what `ReferenceDefect` has).
extension ProbeDefect: ReferenceKitDefect {}
