import Conformance
import Foundation
import JSON
import Processes
import PushMocks
import ReferenceBackend

#if canImport(Glibc)
    import Glibc
#endif

/// `ringcheck serve-reference` as the backend under test in a child process (`run --reference-process`),
/// driven by `BackendLifecycle` exactly as a target file's `start`, `ready` and (default) `stop` and
/// `restart` would drive a user's backend: mock settings in its environment, a SQLite file in a
/// temporary folder, a fixed port so a restart comes back where it was.
struct ReferenceProcess {
    let lifecycle: BackendLifecycle
    let baseURL: String
    let directory: String

    static func start(
        mocks: MockStack, users: [BackendUser], defects: Set<Defect>, ringSeconds: Int, eventRetention: Int,
        log: String, cleanup: RunCleanup
    ) async throws -> ReferenceProcess {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("ringcheck-reference-\(getpid())-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        await cleanup.add { try? FileManager.default.removeItem(atPath: directory) }
        let usersFile = directory + "/users.json"
        let json: JSONValue = [
            "users": .array(
                users.map {
                    [
                        "userId": .string($0.userId), "displayName": .string($0.displayName),
                        "handle": .string($0.handle), "token": .string($0.bearerToken),
                    ]
                })
        ]
        try json.serialized().write(toFile: usersFile, atomically: true, encoding: .utf8)
        guard let port = LoopbackPort.free() else {
            throw BackendLifecycleError("cannot find a free port on 127.0.0.1 for the reference backend")
        }
        var arguments = [
            selfPath(), "serve-reference", "--port", String(port), "--db", directory + "/reference.db",
            "--ring-seconds", String(ringSeconds), "--event-retention", String(eventRetention), "--users", usersFile,
            "--quiet", "--log", "-",
        ]
        for d in defects.map(\.name).sorted() { arguments += ["--defect", d] }
        let baseURL = "http://127.0.0.1:\(port)"
        let configuration = BackendLifecycleConfiguration(
            start: .arguments(arguments), ready: BackendReadiness(url: baseURL + "/v1/calls/ready-check"),
            stopGracePeriod: .seconds(5), logFile: log)
        let lifecycle = try await BackendLifecycle.startForRun(configuration, mocks: mocks.settings, cleanup: cleanup)
        return ReferenceProcess(lifecycle: lifecycle, baseURL: baseURL, directory: directory)
    }

    /// This executable, to run its `serve-reference` command.
    static func selfPath() -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }
}
