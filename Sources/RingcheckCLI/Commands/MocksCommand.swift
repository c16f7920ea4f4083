import Conformance
import Foundation
import HTTP
import InputLimits
import PushMocks

/// `ringcheck mocks`: start mock APNs, FCM, OAuth and OneSignal endpoints and run until interrupted.
struct MocksCommand: RingcheckCommand {
    /// Computed, as every command's is, so what it reads of the registry in force is read at each use.
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "mocks",
            abstract:
                "Start mock APNs, FCM, Google OAuth and OneSignal endpoints that capture every push, until interrupted.",
            discussion: """
                The mocks behave like the real services: they verify the APNs provider token against a generated
                .p8 key, issue and check OAuth access tokens for a generated service account, and reject what
                APNs and FCM reject. Every request is captured; read captures and install fault plans through
                the control API. Point a backend at them with the settings written to --env-file or --json.

                For a backend that hard-codes api.push.apple.com, api.sandbox.push.apple.com (or the older
                api.development.push.apple.com), fcm.googleapis.com, oauth2.googleapis.com, api.onesignal.com and
                onesignal.com, --impersonate also serves those names (certificates from the ringcheck CA) on a
                TLS listener (--impersonate-listen, 127.0.0.1:443 by default) and through an HTTPS
                forward proxy (--proxy-listen) that answers CONNECT to them itself and refuses every other host.
                Aim the backend there with an /etc/hosts line or a container's extra host, or with HTTPS_PROXY,
                and make it trust the CA file. Captures record the real host name in "addressedHost".
                """,
            options: [
                .value("host", "ADDRESS", help: "Address to listen on.", default: "127.0.0.1")
            ] + MockPortOptions.specs() + [
                .value(
                    "state-dir", "DIR", help: "Where the CA, .p8 key and service account are written.",
                    default: "a new temporary directory"),
                .flag("persistent-ca", help: "Keep the CA in --state-dir and reuse it on the next start."),
                .flag(
                    "persistent-keys",
                    help:
                        "Keep the APNs key (and its IDs) and the service account in --state-dir and reuse them on the next start."
                ),
                .value("env-file", "PATH", help: "Write the RINGCHECK_* settings as shell 'export' lines."),
                .value("json", "PATH", help: "Write the settings as JSON."),
                .value(
                    "bundle-id", "ID", help: "The app bundle ID the APNs mock expects.",
                    default: "com.ringcheck.testapp"),
                .value(
                    "project-id", "ID", help: "The Firebase project ID the FCM mock expects.", default: "ringcheck-test"
                ),
                .value("threads", "N", help: "Event-loop threads per listener.", default: "1", number: .whole(1...64)),
                .flag("impersonate", help: "Also serve the real push host names (TLS listener and HTTPS proxy)."),
                .value(
                    "impersonate-listen", "ADDR:PORT",
                    help:
                        "A TLS listener for the real host names ('none' for the proxy only). Implies --impersonate.",
                    default: "127.0.0.1:443", repeatable: true),
                .value(
                    "proxy-listen", "ADDR:PORT",
                    help:
                        "Where the HTTPS (CONNECT) proxy for the real host names listens ('none' for no proxy). Implies --impersonate.",
                    default: "127.0.0.1:ephemeral"),
                .flag("quiet", short: "q", help: "Print nothing but errors."),
            ],
            examples: [
                "ringcheck mocks --env-file mocks.env     # then: source mocks.env && ./start-my-backend",
                "ringcheck mocks --port apns=8443 --port google=8444 --json mocks.json",
                "curl -s $RINGCHECK_CONTROL_URL/v1/captures    # what the backend sent, secrets redacted",
                "ringcheck mocks --impersonate --env-file mocks.env   # + api.push.apple.com etc. on 127.0.0.1:443",
                "ringcheck mocks --impersonate-listen 127.0.0.1:8443 --proxy-listen 127.0.0.1:3128",
                "HTTPS_PROXY=http://127.0.0.1:3128 SSL_CERT_FILE=$RINGCHECK_CA_FILE ./start-my-backend",
                "curl --resolve api.push.apple.com:8443:127.0.0.1 --cacert $RINGCHECK_CA_FILE https://api.push.apple.com:8443/3/device/…",
            ])
    }

    var options = MockStack.Options()
    var envFile: String?
    var jsonFile: String?
    var quiet: Bool

    init(arguments: ParsedArguments) throws {
        options.host = arguments.value("host") ?? "127.0.0.1"
        options.ports = try MockPortOptions.ports(arguments, command: "mocks")
        options.stateDirectory = arguments.value("state-dir")
        options.persistentCA = arguments.flag("persistent-ca")
        if options.persistentCA, options.stateDirectory == nil {
            throw UsageError(message: "--persistent-ca needs --state-dir (where the CA is kept)", command: "mocks")
        }
        options.persistentKeys = arguments.flag("persistent-keys")
        if options.persistentKeys, options.stateDirectory == nil {
            throw UsageError(message: "--persistent-keys needs --state-dir (where the keys are kept)", command: "mocks")
        }
        options.bundleID = arguments.value("bundle-id") ?? MockCredentials.defaultBundleID
        options.projectID = arguments.value("project-id") ?? "ringcheck-test"
        envFile = arguments.value("env-file")
        jsonFile = arguments.value("json")
        options.loopCount = try arguments.int("threads") ?? 1
        options.impersonation = try Self.impersonation(arguments)
        quiet = arguments.flag("quiet")
    }

    func run() async throws -> ExitCode {
        // Catch SIGINT/SIGTERM before the settings files announce the mocks: a supervisor that waits
        // for the env file and then signals must get a clean stop (exit 0), whatever the timing.
        try TerminationSignals.install()
        let stack: MockStack
        do {
            stack = try await MockStack.start(options)
        } catch {
            Console.error("ringcheck mocks: cannot start the mocks: \(error)")
            return .usage
        }
        defer { stack.stop() }
        do {
            if let envFile { try stack.settings.envFile().write(toFile: envFile, atomically: true, encoding: .utf8) }
            if let jsonFile { try stack.settings.json().write(toFile: jsonFile, atomically: true, encoding: .utf8) }
        } catch {
            Console.error("ringcheck mocks: cannot write the settings: \(error.localizedDescription)")
            return .usage
        }
        if !quiet {
            Console.out(summary(stack))
            if let endpoints = stack.impersonation { Console.out(Self.impersonationSummary(endpoints, stack.settings)) }
        }
        let signal = await TerminationSignals.wait()
        if !quiet {
            Console.out("ringcheck mocks: stopping (signal \(signal)); \(stack.log.count) requests were captured.")
        }
        return .success
    }

    /// What the mocks print once listening: each provider's endpoint and credential lines (the
    /// provider says them: `MockProvider.consoleLines`), the control API's and the CA's.
    func summary(_ stack: MockStack) -> String {
        let s = stack.settings
        let lines = stack.providers.all.map { $0.consoleLines(s) }
        let endpoints =
            lines.flatMap(\.endpoints) + [
                MockConsole.line(
                    "Control API",
                    "\(s.controlURL)/v1/captures  (also /v1/faults, /v1/health; every route: /v1/openapi.json)")
            ]
        let credentials = [MockConsole.line("CA certificate", s.caFile)] + lines.flatMap(\.credentials)
        var out = "ringcheck mocks are listening:\n" + endpoints.joined(separator: "\n")
        out += "\n\nCredentials the mocks trust (files in \(stack.stateDirectory)):\n"
        out += credentials.joined(separator: "\n") + "\n\n"
        if let envFile {
            out += "Settings written to \(envFile): 'source \(envFile)' before starting your backend.\n"
        }
        if let jsonFile { out += "Settings written to \(jsonFile) as JSON.\n" }
        if envFile == nil && jsonFile == nil {
            out += "Pass --env-file PATH or --json PATH to save these settings for your backend.\n"
        }
        out += "Your backend must trust the CA file. Press Ctrl-C to stop."
        return out
    }
}
