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
package struct ReferenceProcess {
    package let lifecycle: BackendLifecycle
    package let baseURL: String
    package let directory: String

    /// Starts the child on a port from `choosePort`. The port is free when chosen but only bound a moment
    /// later by the child: when another process takes it in between (the child says so and exits with
    /// status 13), another port is chosen, up to `attempts` times. Any other failure is thrown at once.
    package static func start(
        mocks: MockSettings, users: [BackendUser], defects: Set<CallxDefect>, ringSeconds: Int, eventRetention: Int,
        log: String, cleanup: any CleanupRegistry, executable: String = RingcheckExecutable.path(), attempts: Int = 3,
        choosePort: () -> Int? = LoopbackPort.free
    ) async throws -> ReferenceProcess {
        // Named after this process, with an owner file: a later start removes it (and the users' tokens in
        // it) when this ringcheck was killed before its cleanup ran.
        let directory = try OwnedTemporaryDirectory.create(
            named: "ringcheck-reference-\(getpid())-\(UUID().uuidString.prefix(8))")
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
        var arguments = [
            executable, "serve-reference", "--db", directory + "/reference.db", "--ring-seconds", String(ringSeconds),
            "--event-retention", String(eventRetention), "--users", usersFile, "--quiet", "--log", "-",
        ]
        for d in defects.map(\.name).sorted() { arguments += ["--defect", d] }
        var tried: [Int] = []
        while tried.count < attempts {
            guard let port = choosePort() else {
                throw BackendLifecycleError("cannot find a free port on 127.0.0.1 for the reference backend")
            }
            tried.append(port)
            let baseURL = "http://127.0.0.1:\(port)"
            let configuration = BackendLifecycleConfiguration(
                start: .arguments(arguments + ["--port", String(port)]),
                ready: BackendReadiness(url: baseURL + "/v1/calls/ready-check"), stopGracePeriod: .seconds(5),
                logFile: log)
            do {
                let lifecycle = try await BackendLifecycle.startForRun(configuration, mocks: mocks, cleanup: cleanup)
                // Another server on the port may have answered `ready` before the child found the port taken.
                if try await childListens(lifecycle, on: port) {
                    return ReferenceProcess(lifecycle: lifecycle, baseURL: baseURL, directory: directory)
                }
                await lifecycle.stop()
                guard portWasTaken(port, log: log) else {
                    throw BackendLifecycleError(
                        "something answered \(baseURL), but the reference backend exited before it listened there; "
                            + "its output: \(log)")
                }
            } catch is BackendLifecycleError where portWasTaken(port, log: log) {}
        }
        throw BackendLifecycleError(
            "the reference backend found each port ringcheck chose for it taken by another process before it "
                + "could listen (\(tried.count) attempts, 127.0.0.1 ports \(tried.map(String.init).joined(separator: ", "))); "
                + "its output: \(log)")
    }
}
