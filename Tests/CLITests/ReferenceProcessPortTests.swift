import Callx
import Conformance
import Foundation
import HTTP
import Processes
import PushMocks
import ReferenceBackend
import TestSupport
import Testing

@testable import RingcheckCLI

#if canImport(Glibc)
    import Glibc
#endif

/// `run --reference-process` when the port it chose for the reference backend is taken before the child
/// binds it: another port, a few times; any other start failure at once.
@Suite struct ReferenceProcessPortTests {
    static let users = [
        BackendUser(userId: "user-a", displayName: "User A", handle: "callx:user-a", bearerToken: "token-user-a")
    ]

    /// A port held by this test: a socket listening on 127.0.0.1 that never answers.
    final class TakenPort: Sendable {
        let fd: Int32
        let port: Int

        init() throws {
            fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let ok = withUnsafeMutablePointer(to: &address) { [fd] in
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, length) == 0 && listen(fd, 16) == 0 && getsockname(fd, $0, &length) == 0
                }
            }
            guard fd >= 0, ok else { throw POSIXError(.EADDRNOTAVAIL) }
            port = Int(UInt16(bigEndian: address.sin_port))
        }

        deinit { close(fd) }
    }

    static func start(
        _ settings: MockSettings, log: String, cleanup: RunCleanup, choosePort: () -> Int?
    ) async throws -> ReferenceProcess {
        try await ReferenceProcess.start(
            mocks: settings, users: users, defects: [], ringSeconds: 30, eventRetention: 100, log: log,
            cleanup: cleanup, executable: RingcheckBinary.path, choosePort: choosePort)
    }

    @Test func aPortAnotherServerTookIsReplacedByAFreeOne() async throws {
        let mocks = try await MockStackHarness.start()
        let dir = TemporaryDirectory()
        let log = dir.file("backend.log")
        let cleanup = RunCleanup()
        // The other server answers every request: the readiness poll alone would take it for the backend.
        try await withTestServer { occupant in
            let taken = occupant.port
            var offered: [Int] = []
            let child = try await Self.start(mocks.settings, log: log, cleanup: cleanup) {
                let port = offered.isEmpty ? taken : LoopbackPort.free()
                if let port { offered.append(port) }
                return port
            }
            #expect(offered.count == 2 && offered.first == taken, "\(offered)")
            #expect(child.baseURL == "http://127.0.0.1:\(offered.last ?? 0)")
            let pid = try #require(await child.lifecycle.pid)
            #expect(ReferenceProcess.listening(pid: pid, port: offered.last ?? 0))
            #expect(!ReferenceProcess.listening(pid: pid, port: taken))
            // The reference backend wants a bearer token; the other server would say 200.
            let r = try await runProcess(
                "curl", curlBase + ["-o", "/dev/null", "-w", "%{http_code}", child.baseURL + "/v1/calls/x"])
            #expect(r.stdout == "401", "\(r.stdout) \(r.stderr)")
            let output = try String(contentsOfFile: log, encoding: .utf8)
            #expect(output.contains(ServedReferenceText.portInUse(host: "127.0.0.1", port: taken)), "\(output)")
            #expect(output.components(separatedBy: ": start: ").count - 1 == 2, "\(output)")
            await cleanup.run()
            #expect(await child.lifecycle.pid == nil)
        }
    }

    @Test func whenEveryChosenPortIsTakenTheErrorNamesThem() async throws {
        let mocks = try await MockStackHarness.start()
        let dir = TemporaryDirectory()
        let cleanup = RunCleanup()
        let taken = try [TakenPort(), TakenPort(), TakenPort()]
        var next = 0
        let error = await #expect(throws: (any Error).self) {
            _ = try await Self.start(mocks.settings, log: dir.file("backend.log"), cleanup: cleanup) {
                defer { next += 1 }
                return next < taken.count ? taken[next].port : LoopbackPort.free()
            }
        }
        await cleanup.run()
        #expect(next == 3)
        let message = "\(error.map { "\($0)" } ?? "")"
        #expect(
            message.contains("3 attempts, 127.0.0.1 ports \(taken.map { String($0.port) }.joined(separator: ", "))"))
        #expect(message.contains(dir.file("backend.log")), "\(message)")
    }

    @Test func aStartFailureOtherThanATakenPortIsNotRetried() async throws {
        let dir = TemporaryDirectory()
        let log = dir.file("backend.log")
        let cleanup = RunCleanup()
        // Complete settings naming a key file that does not exist: the child refuses to start.
        let settings = MockSettings(
            apnsURL: "https://127.0.0.1:1", apnsSandboxURL: "https://127.0.0.1:1", fcmURL: "https://127.0.0.1:1",
            oauthTokenURL: "https://127.0.0.1:1/token", caFile: dir.file("ca.pem"), apnsKeyFile: dir.file("none.p8"),
            apnsKeyID: "ABC123DEFG", apnsTeamID: "DEF123GHIJ", apnsBundleID: "com.example.app",
            fcmServiceAccountFile: dir.file("none.json"), fcmProjectID: "p", controlURL: "http://127.0.0.1:1")
        var chosen = 0
        let error = await #expect(throws: (any Error).self) {
            _ = try await Self.start(settings, log: log, cleanup: cleanup) {
                chosen += 1
                return LoopbackPort.free()
            }
        }
        await cleanup.run()
        #expect(chosen == 1)
        let message = "\(error.map { "\($0)" } ?? "")"
        #expect(message.contains("RINGCHECK_APNS_KEY_FILE"), "\(message)")
        #expect(!message.contains("attempts"), "\(message)")
        let output = try String(contentsOfFile: log, encoding: .utf8)
        #expect(output.components(separatedBy: ": start: ").count - 1 == 1, "\(output)")
    }

    @Test func serveReferenceOnATakenPortSaysSoAndExits13() async throws {
        let mocks = try await MockStackHarness.start()
        let taken = try TakenPort()
        var environment: [String: String] = [:]
        for (name, value) in mocks.settings.environment { environment[name] = value }
        let r = try await RingcheckBinary.run(
            ["serve-reference", "--port", String(taken.port), "--quiet"], timeout: 30, environment: environment)
        #expect(r.status == 13, "\(r.stdout)\n\(r.stderr)")
        #expect(r.stderr.contains(ServedReferenceText.portInUse(host: "127.0.0.1", port: taken.port)), "\(r.stderr)")
        #expect(r.stderr.contains("Address already in use"), "\(r.stderr)")
    }
}
