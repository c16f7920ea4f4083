import Foundation
import JSON
import PushMocks
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `ringcheck mocks --impersonate` as a user runs it: the listener and proxy announced with the lines
/// to use, written to the settings files, and a push through `HTTPS_PROXY` alone captured with the
/// real host name.
@Suite struct MocksImpersonateCommandTests {
    @Test func impersonateAnnouncesWritesAndServesThroughTheProxy() async throws {
        let dir = TemporaryDirectory(prefix: "ringcheck-mocks-impersonate")
        let mocks = try MockStackCommandProcess(
            ["--impersonate-listen", "127.0.0.1:0", "--proxy-listen", "127.0.0.1:0", "--env-file", "mocks.env"],
            directory: dir)
        #expect(await mocks.waitForFile("mocks.env"), "\(mocks.stdout)\(mocks.stderr)")
        let env = MockStackCommandProcess.parseEnvFile(
            try String(contentsOfFile: dir.file("mocks.env"), encoding: .utf8))
        let listen = try #require(env["RINGCHECK_IMPERSONATE_ADDRESSES"].flatMap { ListenAddress(parsing: $0) })
        let proxy = try #require(env["RINGCHECK_HTTPS_PROXY"])
        #expect(listen.host == "127.0.0.1" && listen.port > 0 && proxy.hasPrefix("http://127.0.0.1:"))

        // The announcement comes after the settings file: wait for its last line.
        var stdout = mocks.stdout
        for _ in 0..<200 where !stdout.contains("docs/mocks-and-control-api.md has more") {
            try await Task.sleep(for: .milliseconds(50))
            stdout = mocks.stdout
        }
        #expect(stdout.contains("TLS listener       \(listen)"), "\(stdout)")
        #expect(stdout.contains("127.0.0.1 \(ImpersonatedHost.allNames)"), "hosts line in \(stdout)")
        #expect(stdout.contains("export HTTPS_PROXY=\(proxy)"), "\(stdout)")
        #expect(stdout.contains("NODE_EXTRA_CA_CERTS=\(env["RINGCHECK_CA_FILE"] ?? "-")"), "\(stdout)")
        #expect(stdout.contains("curl --resolve api.push.apple.com:\(listen.port):127.0.0.1"), "\(stdout)")

        let clients = MockStackClients(settings: try MockSettings(environment: env), scratch: dir)
        let jwt = try #require(try await clients.providerTokens()["valid"])
        let push = try await clients.curl(
            "https://api.sandbox.push.apple.com/3/device/\(MockStackClients.deviceToken)", method: "POST",
            headers: clients.voipHeaders(jwt: jwt), body: MockStackClients.voipBody,
            environment: ["HTTPS_PROXY": proxy, "NO_PROXY": "", "no_proxy": ""])
        #expect(push.status == 200, "\(push)")
        let captures = try await clients.captures("mock=apns")
        #expect(captures.count == 1)
        #expect(captures.first?["addressedHost"] == "api.sandbox.push.apple.com")
        #expect(captures.first?["environment"] == "sandbox")

        mocks.send(SIGTERM)
        #expect(await mocks.exited(within: 10) == 0, "\(mocks.stderr)")
        #expect(!MockStackOccupiedPort.isListening(listen.port))
    }

    @Test func aTakenImpersonationPortIsAClearUsageError() async throws {
        let dir = TemporaryDirectory(prefix: "ringcheck-mocks-impersonate")
        let held = try MockStackOccupiedPort()
        let r = try await MockStackProcess.run(
            [
                RingcheckBinary.path, "mocks", "--impersonate-listen", "127.0.0.1:\(held.port)", "--proxy-listen",
                "none",
            ],
            scratch: dir, timeout: 30)
        #expect(r.status == 2, "\(r.stdout)\(r.stderr)")
        #expect(r.stderr.contains("cannot listen on 127.0.0.1:\(held.port) for the push-host listener"), "\(r.stderr)")
        #expect(r.stderr.contains("already in use") && r.stderr.contains("--impersonate-listen"), "\(r.stderr)")
    }

    /// The default port 443 as a user without the right to bind it (root drops to `nobody` here).
    @Test(.enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")))
    func port443WithoutPrivilegeSuggestsAnotherPort() async throws {
        let dir = TemporaryDirectory(prefix: "ringcheck-mocks-impersonate")
        // `nobody` cannot write into the test's own directory.
        let state = "/tmp/ringcheck-nobody-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: state) }
        let r = try await MockStackProcess.run(
            [
                "/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", RingcheckBinary.path, "mocks",
                "--impersonate", "--state-dir", state,
            ], scratch: dir, timeout: 30)
        #expect(r.status == 2, "\(r.stdout)\(r.stderr)")
        #expect(r.stderr.contains("cannot listen on 127.0.0.1:443") && r.stderr.contains("permission denied"))
        #expect(r.stderr.contains("CAP_NET_BIND_SERVICE") && r.stderr.contains("--impersonate-listen 127.0.0.1:8443"))
    }

    @Test(arguments: [
        ["--impersonate-listen", "api.push.apple.com:443"], ["--proxy-listen", "127.0.0.1"],
        ["--impersonate-listen", "127.0.0.1:70000"], ["--impersonate-listen", "none", "--proxy-listen", "none"],
    ])
    func badAddressesAreUsageErrors(arguments: [String]) async throws {
        let dir = TemporaryDirectory(prefix: "ringcheck-mocks-impersonate")
        let r = try await MockStackProcess.run(
            [RingcheckBinary.path, "mocks"] + arguments, scratch: dir, timeout: 30)
        #expect(r.status == 2, "\(r.stdout)\(r.stderr)")
        #expect(
            r.stderr.contains(arguments.last == "none" ? "nothing to impersonate" : "takes ADDR:PORT"), "\(r.stderr)")
    }

    @Test func helpDocumentsImpersonation() async throws {
        let dir = TemporaryDirectory(prefix: "ringcheck-mocks-impersonate")
        let r = try await MockStackProcess.run([RingcheckBinary.path, "mocks", "--help"], scratch: dir, timeout: 30)
        #expect(r.status == 0)
        for text in [
            "--impersonate", "--impersonate-listen", "--proxy-listen", "HTTPS_PROXY", "curl --resolve",
            "addressedHost",
        ] {
            #expect(r.stdout.contains(text), "\(text) missing from:\n\(r.stdout)")
        }
    }
}
