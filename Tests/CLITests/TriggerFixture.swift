import Foundation
import JSON
import Processes
import PushMocks
import TestSupport
import Testing

/// A running reference (`serve-reference --profile P`) wired to mocks whose keys and ports are fixed, as a user
/// runs `ringcheck trigger`: `ringcheck mocks --state-dir` made the settings once, the reference was started with
/// them, and each trigger brings the mocks up again where the reference expects them (`--mocks-dir`, the ports).
/// The ports are held (`HeldLoopbackPort`) while the fixture lives: between two triggers no other test is handed
/// one of them (a port chosen, released and reused was taken meanwhile once: "Address already in use").
struct TriggerFixture {
    let dir = TemporaryDirectory(prefix: "ringcheck-trigger")
    let held: [HeldLoopbackPort]
    var ports: [Int] { held.map(\.port) }
    let reference: ReferenceServerProcess
    let profile: String
    /// What the reference was given beside the mocks' settings (its secret, App ID and key).
    let environment: [String: String]

    init(
        profile: String, defects: [String] = [], environment: [String: String] = [:], referenceArguments: [String] = []
    ) async throws {
        let held = try (0..<5).map { _ in try HeldLoopbackPort() }
        self.held = held
        let ports = held.map(\.port)
        self.profile = profile
        self.environment = environment
        var options = MockStack.Options()
        options.stateDirectory = dir.file("mocks")
        options.persistentCA = true
        options.persistentKeys = true
        options.apnsPort = ports[0]
        options.apnsSandboxPort = ports[1]
        options.googlePort = ports[2]
        options.ports["onesignal"] = ports[3]
        // The dialstack reference enables Wake-Up Hold at the DialStack API mock on every registration.
        options.ports["dialstack"] = ports[4]
        let mocks = try await MockStack.start(options)
        let env = mocks.settings.environmentDictionary.merging(environment) { $1 }
        await mocks.stop()
        reference = try await ReferenceServerProcess.start(
            arguments: ["--profile", profile, "--port", "0"] + referenceArguments
                + defects.flatMap { ["--defect", $0] },
            environment: env)
    }

    /// `trigger <profile> --url URL` with the fixture's mocks, `--settle 1` and `arguments`.
    func arguments(url: String, _ arguments: [String]) -> [String] {
        [
            // Both spellings of the mocks' ports: `--port NAME=PORT` and the aliases of earlier versions.
            "trigger", profile, "--url", url, "--mocks-dir", dir.file("mocks"), "--port", "apns=\(ports[0])",
            "--apns-sandbox-port", "\(ports[1])", "--port", "google=\(ports[2])", "--onesignal-port", "\(ports[3])",
            "--port", "dialstack=\(ports[4])",
            "--settle", "1",
        ] + arguments
    }

    func trigger(url: String, _ arguments: [String], environment: [String: String]? = nil) async throws
        -> ProcessResult
    {
        try await RingcheckBinary.run(self.arguments(url: url, arguments), timeout: 120, environment: environment)
    }

    /// The NDJSON lines of a `--json` run, the summary last.
    static func lines(_ r: ProcessResult) throws -> [JSONValue] {
        try r.stdout.split(separator: "\n").map { try JSONValue.parse(String($0)) }
    }

    /// The requirements the summary names.
    static func violated(_ summary: JSONValue?) -> Set<String> {
        Set(summary?["violations"]?.arrayValue?.compactMap { $0["requirement"]?.stringValue } ?? [])
    }
}
