import Conformance
import Foundation
import JSON
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
        mocks: MockStack, users: [BackendUser], defects: Set<Defect>, log: String, cleanup: RunCleanup
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
        let port = try freePort()
        var arguments = [
            selfPath(), "serve-reference", "--port", String(port), "--db", directory + "/reference.db",
            "--ring-seconds", String(EmbeddedReference.ringSeconds), "--users", usersFile, "--quiet",
        ]
        for d in defects.map(\.name).sorted() { arguments += ["--defect", d] }
        let baseURL = "http://127.0.0.1:\(port)"
        let configuration = BackendLifecycleConfiguration(
            start: .arguments(arguments), ready: BackendReadiness(url: baseURL + "/v1/calls/ready-check"),
            stopGracePeriod: .seconds(5), logFile: log)
        let lifecycle = BackendLifecycle(configuration, mocks: mocks.settings)
        await cleanup.add { await lifecycle.stop() }
        try await lifecycle.start()
        return ReferenceProcess(lifecycle: lifecycle, baseURL: baseURL, directory: directory)
    }

    /// This executable, to run its `serve-reference` command.
    static func selfPath() -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    /// A port the kernel has just handed out on 127.0.0.1 (free unless someone takes it in the meantime).
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw BackendLifecycleError("cannot open a socket to find a free port") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else { throw BackendLifecycleError("cannot find a free port on 127.0.0.1") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
