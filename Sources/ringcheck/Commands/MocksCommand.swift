/// `ringcheck mocks`: start mock APNs, FCM and OAuth endpoints and run until interrupted.
struct MocksCommand: RingcheckCommand {
    static let configuration = CommandConfiguration(
        name: "mocks",
        abstract: "Start mock APNs, FCM and Google OAuth endpoints that capture every push, until interrupted.",
        discussion: """
            The mocks behave like the real services: they verify the APNs provider token against a generated
            .p8 key, issue and check OAuth access tokens for a generated service account, and reject what
            APNs and FCM reject. Every request is captured; read captures and install fault plans through
            the control API. Point a backend at them with the settings written to --env-file or --json.
            """,
        options: [
            .value("host", "ADDRESS", help: "Address to listen on.", default: "127.0.0.1"),
            .value("apns-port", "PORT", help: "Port of mock APNs (production).", default: "ephemeral"),
            .value("apns-sandbox-port", "PORT", help: "Port of mock APNs (sandbox).", default: "ephemeral"),
            .value("google-port", "PORT", help: "Port of mock FCM and OAuth.", default: "ephemeral"),
            .value("control-port", "PORT", help: "Port of the control API (plain HTTP).", default: "ephemeral"),
            .value(
                "state-dir", "DIR", help: "Where the CA, .p8 key and service account are written.",
                default: "a new temporary directory"),
            .value("env-file", "PATH", help: "Write the RINGCHECK_* settings as shell 'export' lines."),
            .value("json", "PATH", help: "Write the settings as JSON."),
            .value(
                "bundle-id", "ID", help: "The app bundle ID the APNs mock expects.", default: "com.ringcheck.testapp"),
            .value(
                "project-id", "ID", help: "The Firebase project ID the FCM mock expects.", default: "ringcheck-test"),
        ],
        examples: [
            "ringcheck mocks --env-file mocks.env     # then: source mocks.env && ./start-my-backend",
            "ringcheck mocks --apns-port 8443 --json mocks.json",
        ])

    init(arguments: ParsedArguments) throws {
        throw ConfigurationError(message: "not built yet")
    }

    func run() async throws -> ExitCode { .usage }
}
