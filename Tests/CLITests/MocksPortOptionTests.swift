import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `ringcheck mocks --port NAME=PORT`: one repeatable option for every listener, the per-provider
/// options kept as its aliases.
@Suite struct MocksPortOptionTests {
    /// Runs `mocks` with `arguments` until it exits (a usage error) or 30 s pass.
    static func run(_ arguments: [String]) async throws -> (status: Int32?, stderr: String, stateFile: Bool) {
        let dir = TemporaryDirectory(prefix: "ringcheck-mocks-port")
        let r = try await MockStackProcess.run(
            [RingcheckBinary.path, "mocks"] + arguments + ["--env-file", dir.file("mocks.env")], scratch: dir,
            timeout: 30)
        return (r.status, r.stderr, FileManager.default.fileExists(atPath: dir.file("mocks.env")))
    }

    @Test func eachNameAndEachAliasReachesItsListener() async throws {
        // A port in use makes the listener that was given it fail by name: the option reached it.
        for spelling in [
            ["--port", "google=P"], ["--port", "fcm=P"], ["--port", "oauth=P"], ["--google-port", "P"],
            ["--port", "onesignal=P"], ["--onesignal-port", "P"], ["--port", "apnsSandbox=P"],
            ["--apns-sandbox-port", "P"], ["--port=control=P"], ["--control-port", "P"], ["--apns-port", "P"],
        ] {
            let held = try MockStackOccupiedPort()
            let r = try await Self.run(spelling.map { $0.replacingOccurrences(of: "P", with: String(held.port)) })
            #expect(r.status == 2, "\(spelling): \(r.stderr)")
            #expect(
                r.stderr.contains("127.0.0.1:\(held.port)") && r.stderr.contains("in use"), "\(spelling): \(r.stderr)")
            #expect(!r.stateFile)
        }
    }

    /// The settings variable of each listener, in the order of the spellings below.
    static let urls = [
        "RINGCHECK_APNS_URL", "RINGCHECK_APNS_SANDBOX_URL", "RINGCHECK_FCM_URL", "RINGCHECK_ONESIGNAL_URL",
        "RINGCHECK_CONTROL_URL",
    ]

    @Test(arguments: [
        ["--port apns=P0", "--port apnsSandbox=P1", "--port fcm=P2", "--port onesignal=P3", "--port=control=P4"],
        ["--port apns=P0", "--port apnsSandbox=P1", "--port oauth=P2", "--port onesignal=P3", "--port control=P4"],
        ["--apns-port P0", "--apns-sandbox-port P1", "--google-port P2", "--onesignal-port P3", "--control-port P4"],
    ])
    func theGivenPortsAreTheListenersPorts(spellings: [String]) async throws {
        let dir = TemporaryDirectory(prefix: "ringcheck-mocks-port")
        // Ports held (bound, not listening) for the whole test: the mocks' listeners take them
        // (SO_REUSEADDR), and no test running beside this one is handed one meanwhile.
        let held = try (0..<5).map { _ in try HeldLoopbackPort() }
        let ports = held.map(\.port)
        var arguments = spellings.joined(separator: " ")
        for (i, port) in ports.enumerated() { arguments = arguments.replacingOccurrences(of: "P\(i)", with: "\(port)") }
        let mocks = try MockStackCommandProcess(
            arguments.split(separator: " ").map(String.init) + ["--env-file", "mocks.env"], directory: dir)
        #expect(await mocks.waitForFile("mocks.env"), "\(mocks.stdout)\(mocks.stderr)")
        let env = MockStackCommandProcess.parseEnvFile(
            try String(contentsOfFile: dir.file("mocks.env"), encoding: .utf8))
        for (name, port) in zip(Self.urls, ports) {
            let scheme = name == "RINGCHECK_CONTROL_URL" ? "http" : "https"
            #expect(env[name] == "\(scheme)://127.0.0.1:\(port)", "\(name) after \(arguments): \(env)")
        }
        mocks.send(SIGTERM)
        #expect(await mocks.exited(within: 30) == 0)
        withExtendedLifetime(held) {}
    }

    @Test func anUnknownNameIsAUsageErrorWithTheClosestName() async throws {
        let r = try await Self.run(["--port", "apnz=8443"])
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.contains("no mock listener or provider 'apnz'; did you mean 'apns'?"), "\(r.stderr)")
        #expect(
            r.stderr.contains("apns, apnsSandbox, google, onesignal, dialstack, fcm, oauth, control"), "\(r.stderr)")
        #expect(!r.stateFile)
    }

    @Test(arguments: ["apns=70000", "apns=-1", "apns=x", "apns=", "apns", "=8443"])
    func aBadPortIsAUsageError(value: String) async throws {
        let r = try await Self.run(["--port", value])
        #expect(r.status == 2, "\(value): \(r.stderr)")
        #expect(r.stderr.contains("--port"), "\(value): \(r.stderr)")
        #expect(!r.stateFile)
    }

    @Test func twoPortsForOneListenerAreAUsageError() async throws {
        let r = try await Self.run(["--google-port", "9001", "--port", "fcm=9002"])
        #expect(r.status == 2, "\(r.stderr)")
        #expect(
            r.stderr.contains("--google-port 9001 and --port fcm=9002 give the google listener two ports"),
            "\(r.stderr)")
        // The same port twice is no conflict (and a usage error only for the port in use, not here).
        let held = try MockStackOccupiedPort()
        let same = try await Self.run(["--google-port", "\(held.port)", "--port", "oauth=\(held.port)"])
        #expect(same.stderr.contains("in use") && !same.stderr.contains("two ports"), "\(same.stderr)")
    }
}
