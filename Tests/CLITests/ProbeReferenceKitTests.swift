import AllProfiles
import Conformance
import Foundation
import JSON
import Probe
import TestSupport
import Testing

@testable import RingcheckCLI

/// Issue 26's proof, its reference part: the probe brings its reference kit (`ProbeReferenceKit`, in
/// `Tests/Probe`), and with the probe in the registry `serve-reference` lists and checks it and `run --profile
/// probe` runs against it embedded, no `--target` — with no change to the CLI.
@Suite struct ProbeReferenceKitTests {
    @Test func serveReferenceHelpListsTheProbeAndItsDefect() async {
        let (code, console) = await ProbeProfileTests.ringcheck(["serve-reference", "--help"])
        #expect(code == .success)
        #expect(console.out.contains("PROFILE probe (--profile probe): the probe reference"), "\(console.out)")
        #expect(console.out.contains("PROBE DEFECTS (--profile probe --defect NAME):\n  wrong-echo "), "\(console.out)")
        #expect(
            console.out.contains("onesignal or\n                              probe. (default: callx)"),
            "\(console.out)")

        let shipped = await ProbeProfileTests.ringcheck(["serve-reference", "--help"], profiles: Profiles.registry)
        #expect(!shipped.1.out.contains("probe"), "\(shipped.1.out)")
    }

    /// `run --help` names the registered profiles and every reference's defects, the probe's among them.
    @Test func runHelpListsTheProbeAndItsDefect() async {
        let (code, console) = await ProbeProfileTests.ringcheck(["run", "--help"])
        #expect(code == .success)
        #expect(console.out.contains("onesignal, probe"), "\(console.out)")
        #expect(console.out.contains("probe: wrong-echo"), "\(console.out)")

        let shipped = await ProbeProfileTests.ringcheck(["run", "--help"], profiles: Profiles.registry)
        #expect(!shipped.1.out.contains("probe"), "\(shipped.1.out)")
    }

    /// An unknown defect is a usage error that lists the probe's defects, with a "did you mean" when one is close.
    @Test func anUnknownProbeDefectIsAUsageError() async {
        let (code, console) = await ProbeProfileTests.ringcheck(
            ["serve-reference", "--profile", "probe", "--defect", "nope"])
        #expect(code == .usage)
        #expect(
            console.error.contains("unknown defect 'nope' for --profile probe; the defects are:\n  wrong-echo "),
            "\(console.error)")
        let close = await ProbeProfileTests.ringcheck(
            ["serve-reference", "--profile", "probe", "--defect", "wrong-ech"])
        #expect(close.0 == .usage)
        #expect(
            close.1.error.contains("unknown defect 'wrong-ech' for --profile probe (did you mean 'wrong-echo'?)"),
            "\(close.1.error)")
        let db = await ProbeProfileTests.ringcheck(["serve-reference", "--profile", "probe", "--db", "x.db"])
        #expect(db.0 == .usage)
        #expect(db.1.error.contains("--db does not apply to --profile probe"), "\(db.1.error)")
    }

    /// The probe kit's own `serve-reference` option (`--key-env`, a `ReferenceKit.serveOptions` row) is in the
    /// command's help and the shell completions with the probe registered, refused for another profile, and
    /// unknown to the shipped registry.
    @Test func theProbesServeOptionComesFromItsKit() async throws {
        let help = await ProbeProfileTests.ringcheck(["serve-reference", "--help"])
        #expect(
            help.1.out.contains("--key-env <NAME>            probe: the variable its x-probe-key key is read from."),
            "\(help.1.out)")
        #expect(help.1.out.contains("Options of its own: --key-env\n(another profile's option is refused)."))
        let completion = await ProbeProfileTests.ringcheck(["completion", "bash"])
        #expect(completion.0 == .success)
        #expect(completion.1.out.contains("--key-env"), "\(completion.1.out)")
        #expect(completion.1.out.contains("probe"), "\(completion.1.out)")
        let callx = await ProbeProfileTests.ringcheck(["serve-reference", "--profile", "callx", "--key-env", "K"])
        #expect(callx.0 == .usage)
        #expect(callx.1.error.contains("--key-env does not apply to --profile callx"), "\(callx.1.error)")

        let shipped = await ProbeProfileTests.ringcheck(["completion", "bash"], profiles: Profiles.registry)
        #expect(!shipped.1.out.contains("--key-env"))
        let unknown = await ProbeProfileTests.ringcheck(
            ["serve-reference", "--key-env", "K"], profiles: Profiles.registry)
        #expect(unknown.0 == .usage)
    }

    /// `serve-reference --profile probe` wants its key from PROBE_KEY (or the variable `--key-env` names) and never
    /// shows it.
    @Test func theServedProbeTakesItsKeyFromTheEnvironment() async throws {
        let parsed = try ArgumentParser.parse(["--port", "0"], for: ServeReferenceCommand.configuration)
        #expect {
            _ = try ProbeReferenceKit().serving(parsed, defects: [], environment: [:])
        } throws: { error in "\(error)".contains("set PROBE_KEY") }
        let named = try Profiles.$registry.withValue(ProbeProfileTests.profiles) {
            try ArgumentParser.parse(["--key-env", "OTHER_KEY"], for: ServeReferenceCommand.configuration)
        }
        #expect {
            _ = try ProbeReferenceKit().serving(named, defects: [], environment: ["PROBE_KEY": "k"])
        } throws: { error in "\(error)".contains("set OTHER_KEY") }
        #expect(
            try ProbeReferenceKit().serving(named, defects: [], environment: ["OTHER_KEY": "k"]).keyVariable
                == "OTHER_KEY")
        let served = try ProbeReferenceKit().serving(
            parsed, defects: [.wrongEcho], environment: ["PROBE_KEY": "probe-secret-served"])
        let running = try await served.start()
        await running.stop()
        #expect(running.banner.contains("defects      wrong-echo"), "\(running.banner)")
        #expect(!running.banner.contains("probe-secret-served"))
    }

    /// Without `--target` the probe suite runs against its embedded reference: conformant, and with
    /// `--reference-defect wrong-echo` non-conformant, charged to PROBE-ECHO-1 alone.
    @Test(arguments: [false, true])
    func runWithoutATargetUsesTheEmbeddedProbeReference(withDefect: Bool) async throws {
        let dir = TemporaryDirectory(prefix: "ringcheck-probe-embedded")
        let reports = dir.file("reports")
        let (code, console) = await ProbeProfileTests.ringcheck(
            ["run", "--profile", "probe", "--report-dir", reports, "--format", "json"]
                + (withDefect ? ["--reference-defect", "wrong-echo"] : []))
        #expect(code == (withDefect ? .nonConformant : .success), "\(console.out)\n\(console.error)")
        let report = try JSONValue.parse(Array(try Data(contentsOf: URL(fileURLWithPath: reports + "/report.json"))))
        let scenarios = report["scenarios"]?.arrayValue ?? []
        #expect(scenarios.map { $0["id"]?.stringValue } == ["echo.one"])
        let charged = scenarios.flatMap { $0["failures"]?.arrayValue ?? [] }.compactMap {
            $0["requirement"]?.stringValue
        }
        #expect(charged == (withDefect ? ["PROBE-ECHO-1"] : []), "\(charged)")
        #expect(console.out.contains("embedded probe reference"), "\(console.out)")
    }

    /// Out of process: `ProbeRingcheck` (the CLI's library over `Profiles.all + [ProbeProfile()]`) serves the
    /// probe's reference as `serve-reference --profile probe --port 0`; the probe suite run against it with its
    /// key passes, and SIGTERM stops it (exit 0) without the key in anything it printed.
    @Test func theProbeRingcheckExecutableServesTheProbeReference() async throws {
        let key = "probe-secret-\(UUID().uuidString)"
        let server = try await ReferenceServerProcess.start(
            arguments: ["--profile", "probe", "--port", "0"], environment: ["PROBE_KEY": key],
            executable: RingcheckBinary.path(of: "ProbeRingcheck"))
        let dir = TemporaryDirectory(prefix: "ringcheck-probe-served")
        let target = try dir.write("probe.yaml", "profile: probe\nbaseURL: \(server.baseURL)\nprobe: {key: \(key)}\n")
        let (code, console) = await ProbeProfileTests.ringcheck(
            ["run", "--target", target, "--report-dir", dir.file("reports"), "--format", "console"])
        let status = await server.terminate()
        #expect(code == .success, "\(console.out)\n\(console.error)")
        #expect(status == 0, "\(server.log)")
        #expect(server.log.contains("profile      probe"), "\(server.log)")
        #expect(server.log.contains("ringcheck serve-reference: stopped (signal"), "\(server.log)")
        #expect(!server.log.contains(key))
    }
}
