import Foundation
import JSON
import PushMocks
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `ringcheck mocks` run as a user runs it: in the background, settings read from the files it writes,
/// pushed to with curl, stopped with a signal.
@Suite struct MocksCommandTests {
    /// The settings ARCHITECTURE.md promises, in its order.
    static let variables = [
        "RINGCHECK_APNS_URL", "RINGCHECK_APNS_SANDBOX_URL", "RINGCHECK_FCM_URL", "RINGCHECK_OAUTH_TOKEN_URL",
        "RINGCHECK_CA_FILE", "RINGCHECK_APNS_KEY_FILE", "RINGCHECK_APNS_KEY_ID", "RINGCHECK_APNS_TEAM_ID",
        "RINGCHECK_APNS_TOPIC", "RINGCHECK_APNS_BUNDLE_ID", "RINGCHECK_APNS_VOIP_TOPIC",
        "RINGCHECK_FCM_SERVICE_ACCOUNT",
        "RINGCHECK_FCM_PROJECT_ID", "RINGCHECK_CONTROL_URL",
        // The OneSignal mock's, after the built-in ones.
        "RINGCHECK_ONESIGNAL_URL", "RINGCHECK_ONESIGNAL_APP_ID", "RINGCHECK_ONESIGNAL_API_KEY",
        "RINGCHECK_ONESIGNAL_VOIP_APP_ID", "RINGCHECK_ONESIGNAL_VOIP_API_KEY",
        // The DialStack API mock's.
        "RINGCHECK_DIALSTACK_API_URL", "RINGCHECK_DIALSTACK_API_KEY",
    ]
    static let files = ["RINGCHECK_CA_FILE", "RINGCHECK_APNS_KEY_FILE", "RINGCHECK_FCM_SERVICE_ACCOUNT"]
    static let urls = [
        "RINGCHECK_APNS_URL", "RINGCHECK_APNS_SANDBOX_URL", "RINGCHECK_FCM_URL", "RINGCHECK_CONTROL_URL",
        "RINGCHECK_ONESIGNAL_URL",
    ]

    @Test func settingsFilesPushAndSIGTERM() async throws {
        let dir = TemporaryDirectory(prefix: "ringcheck-mocks-cli")
        // Relative paths, as typed in a shell: the files must still name absolute paths.
        let mocks = try MockStackCommandProcess(
            ["--env-file", "mocks.env", "--json", "mocks.json", "--state-dir", "state"], directory: dir)
        #expect(await mocks.waitForFile("mocks.env"), "\(mocks.stdout)\(mocks.stderr)")
        #expect(await mocks.waitForFile("mocks.json"))

        let env = MockStackCommandProcess.parseEnvFile(
            try String(contentsOfFile: dir.file("mocks.env"), encoding: .utf8))
        #expect(Set(env.keys) == Set(Self.variables), "\(env)")
        for name in Self.variables { #expect(env[name]?.isEmpty == false, "\(name)") }
        for name in Self.files {
            let path = env[name] ?? ""
            #expect(path.hasPrefix((dir.path as NSString).standardizingPath + "/state/"), "\(name)=\(path)")
            #expect(FileManager.default.fileExists(atPath: path), "\(name)=\(path)")
        }
        #expect(env["RINGCHECK_APNS_KEY_ID"]?.count == 10 && env["RINGCHECK_APNS_TEAM_ID"]?.count == 10)
        // The topic is the bundle ID, as ARCHITECTURE.md says; the VoIP topic has its own name.
        #expect(env["RINGCHECK_APNS_TOPIC"] == MockCredentials.defaultBundleID)
        #expect(env["RINGCHECK_APNS_BUNDLE_ID"] == MockCredentials.defaultBundleID)
        #expect(env["RINGCHECK_APNS_VOIP_TOPIC"] == MockCredentials.defaultBundleID + ".voip")
        #expect(env["RINGCHECK_OAUTH_TOKEN_URL"] == (env["RINGCHECK_FCM_URL"] ?? "") + "/token")

        // A shell reads the same values.
        let sourced = try await MockStackProcess.run(
            ["/bin/sh", "-c", ". \"$0\" && env", dir.file("mocks.env")], scratch: dir, timeout: 10)
        for name in Self.variables { #expect(sourced.stdout.contains("\(name)=\(env[name] ?? "-")\n"), "\(name)") }

        let json = try JSONValue.parse(try String(contentsOfFile: dir.file("mocks.json"), encoding: .utf8))
        #expect(json.objectValue?.map(\.key) == Self.variables)
        for name in Self.variables { #expect(json[name]?.stringValue == env[name], "\(name)") }

        // A backend pointed at the settings: a PyJWT-signed VoIP push with curl, seen by the control API.
        let clients = MockStackClients(settings: try MockSettings(environment: env), scratch: dir)
        let jwt = try #require(try await clients.providerTokens()["valid"])
        let push = try await clients.apnsPush(jwt: jwt)
        #expect(push.status == 200 && push.httpVersion == "2" && push.headers["apns-id"] != nil, "\(push)")
        let captures = try await clients.captures("mock=apns&reveal=true")
        #expect(captures.count == 1 && captures.first?["deviceToken"]?.stringValue == MockStackClients.deviceToken)
        #expect(mocks.stdout.contains(env["RINGCHECK_APNS_URL"] ?? "-"), "\(mocks.stdout)")
        // The OneSignal apps are named, their keys are not.
        #expect(mocks.stdout.contains(env["RINGCHECK_ONESIGNAL_VOIP_APP_ID"] ?? "-"), "\(mocks.stdout)")
        #expect(!mocks.stdout.contains(env["RINGCHECK_ONESIGNAL_API_KEY"] ?? "-"))

        let ports = Self.urls.compactMap { env[$0].flatMap(URL.init(string:))?.port }
        #expect(ports.count == 5 && ports.allSatisfy(MockStackOccupiedPort.isListening))
        // Its listening sockets, by inode, as far as the kernel's table shows them: a sandboxed kernel (CI's)
        // may serve /proc/net/tcp empty, and a loaded one showed only some of them, so their number is not
        // judged; the exit below speaks for the stop, and whatever was seen must be gone after it.
        let listeners = MockStackOccupiedPort.listeningSocketInodes(ports)
        mocks.send(SIGTERM)
        let status = await mocks.exited(within: 10)
        #expect(status == 0, "\(mocks.stdout)\(mocks.stderr)")
        #expect(mocks.stdout.contains("stopping"))
        // Its own listeners are gone (another test may have been given one of the ports since).
        #expect(MockStackOccupiedPort.listeningSocketInodes(ports).isDisjoint(with: listeners))
    }

    /// A supervisor may signal as soon as the settings appear: the mocks must still stop cleanly.
    @Test(arguments: [SIGINT, SIGTERM])
    func signalRightAfterTheSettingsAppearStopsCleanly(signal: Int32) async throws {
        let dir = TemporaryDirectory(prefix: "ringcheck-mocks-cli")
        let mocks = try MockStackCommandProcess(["--env-file", "mocks.env", "--quiet"], directory: dir)
        #expect(await mocks.waitForFile("mocks.env", poll: .milliseconds(1)), "\(mocks.stderr)")
        mocks.send(signal)
        let status = await mocks.exited(within: 10)
        #expect(status == 0, "status \(String(describing: status)): \(mocks.stderr)")
        #expect(mocks.stdout.isEmpty)
    }

    @Test func aPortInUseIsAClearUsageError() async throws {
        let dir = TemporaryDirectory(prefix: "ringcheck-mocks-cli")
        let held = try MockStackOccupiedPort()
        let r = try await MockStackProcess.run(
            [RingcheckBinary.path, "mocks", "--google-port", String(held.port), "--env-file", dir.file("mocks.env")],
            scratch: dir, timeout: 30)
        #expect(r.status == 2, "\(r.stdout)\(r.stderr)")
        #expect(r.stderr.contains("127.0.0.1:\(held.port)") && r.stderr.contains("in use"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.file("mocks.env")))
    }

    @Test func helpListsEveryOption() async throws {
        let dir = TemporaryDirectory(prefix: "ringcheck-mocks-cli")
        let r = try await MockStackProcess.run([RingcheckBinary.path, "mocks", "--help"], scratch: dir, timeout: 30)
        #expect(r.status == 0)
        let options = [
            "--host", "--apns-port", "--apns-sandbox-port", "--google-port", "--control-port", "--state-dir",
            "--persistent-ca", "--env-file", "--json", "--bundle-id", "--project-id", "--quiet", "--help",
        ]
        for option in options { #expect(r.stdout.contains(option), "\(option) missing from:\n\(r.stdout)") }
    }
}
