extension TargetFile {
    /// The commented target file `ringcheck init-target` writes: a backend that follows the reference
    /// design, as `ringcheck serve-reference` runs it, with every other setting shown commented out.
    /// `profiles` give the `profile:` line's default and their own commented lines.
    /// Each top-level key's commented section is a constant of its own below, in the order the file shows them.
    public static func template(profiles: ProfileRegistry) -> String {
        templateHeader(profiles: profiles)
            + [
                templateBackend, templateTLS, templateAppID, templateCapabilities, templateUsers,
                templateInstallation, templateOperations, templateValues, templateMocks, templateImpersonation,
                templateLifecycle,
            ].joined(separator: "\n")
    }

    /// The file's header and the `profile:` line, then each profile's own commented lines.
    private static func templateHeader(profiles: ProfileRegistry) -> String {
        """
        # ringcheck target file: the backend under test, for `ringcheck run --target FILE`.
        # Relative paths are resolved against this file's folder. Every line not commented out must be
        # right: a problem stops the run (exit 2) naming this file, the line and the field.

        # The profile the backend is judged by (see 'ringcheck run --help'); default: --profile, else \(profiles.defaultProfile.name).
        # A --profile that names another one is refused (exit 2).
        # profile: \(profiles.defaultProfile.name)
        \(profiles.all.map(\.targetFileTemplate).joined())

        """
    }

    /// How reports name the backend and where its API listens (`name`, `baseURL`).
    private static let templateBackend = """
        # How reports name the backend.
        name: my backend
        # Where its API listens (http:// or https://).
        baseURL: http://127.0.0.1:8080

        """

    /// TLS trust for an https:// baseURL (`tls`).
    private static let templateTLS = """
        # TLS trust for an https:// baseURL: the CA that signed its certificate, or (loudly warned
        # about, never for a verdict you rely on) no verification at all.
        # tls:
        #   caFile: certs/ca.pem
        #   insecureSkipVerify: true

        """

    /// The app ID device tokens are registered for (`appId`).
    private static let templateAppID = """
        # The app ID (bundle ID) device tokens are registered for; default: the mocks' bundle ID.
        # appId: com.example.calls

        """

    /// What the backend can do (`capabilities`).
    private static let templateCapabilities = """
        # What the backend can do. Scenarios needing anything else are "not applicable", with the reason.
        #   faults        its pushes reach ringcheck's mocks, so provider failures can be injected
        #   sandbox       it honours APNs sandbox registrations
        #   shortRing     calls ring a few seconds only, so expiry can be waited for
        #   shortRing: F  written {shortRing: ringSeconds}: calls ring long, and a create whose body has F: 4
        #                 rings 4 s (only the scenarios that wait for expiry send it)
        #   pushSignals   it sends Android push signals (call.accepted / call.ended over FCM)
        #   mediaSession  it issues media sessions
        #   idempotency   a retried create, answer or end (same operationId) gets the first outcome
        #   restart       ringcheck can restart it (implied by lifecycle start or restart below)
        #   eventRetention: N      written {eventRetention: 1000}: its feeds keep N events
        #   answerByMediaRequest   no answer endpoint: a callee device's media request answers the call
        #   videoCalls    it places video calls (without it the scenario creating one is not applicable)
        capabilities: [faults, sandbox, shortRing, pushSignals, mediaSession, idempotency, videoCalls]

        """

    /// The test users and how they sign in (`users`, `accounts`, `auth`).
    private static let templateUsers = """
        # The test users: a calls, b is called, c is in no call ('run' needs all three; 'call' only
        # the two it plays, as its --as and --to name them). Each is one account, or a list of
        # accounts: with lists, as many scenarios run at once as each list is long (one account each).
        # After each scenario its device tokens are deleted and its unfinished calls ended
        # (cleanUp: false keeps them).
        users:
          a: {userId: user-a, auth: {bearer: token-user-a}}
          b: {userId: user-b, auth: {bearer: token-user-b}}
          c: {userId: user-c, auth: {bearer: token-user-c}}
        # Faster runs: with one account per user scenarios run one at a time (the reference suite takes
        # about five times as long as with fresh accounts). Account pools run as many at once as each
        # list is long (run's default --concurrency is 12); create the accounts in the backend once:
        #   a:
        #     - {userId: user-a1, auth: {bearer: token-user-a1}}
        #     - {userId: user-a2, auth: {bearer: token-user-a2}}
        #   (b and c likewise, lists as long; see examples/targets/reference-pools.yaml)
        # Or, instead of users:, have ringcheck create perUser accounts for each of a, b and c when the run
        # starts: a sign-up request (or command: a program) whose JSON answer holds each one's ID and token.
        # accounts:
        #   perUser: 12
        #   signUp: {url: /test/accounts, body: {name: "ringcheck-{user}{slot}-{runId}"}}
        #   userId: id                            # where the answer holds the account's ID
        #   token: token                          # and its token (sent as `send:` says)
        #   # command: [./new-account.sh, "{user}", "{slot}"]   # prints {"userId": "…", "token": "…"}
        #   (examples/targets/reference-signup.yaml signs up through the reference's POST /v1/accounts)
        # How else a user may sign in (the token is sent as `send` says; default Authorization: Bearer):
        #   auth: {headers: {X-Api-Key: secret-b}}
        #   auth:
        #     login:
        #       method: POST
        #       url: /auth/login                  # a path under baseURL, or a full URL
        #       body: {username: "{userId}", password: secret}
        #       token: data.accessToken           # where the token is in the JSON answer
        #     send: {header: Authorization, format: "Bearer {token}"}
        #   auth:
        #     command: [./scripts/token.sh, user-b]   # prints the token on its first line
        #     timeout: 10s

        """

    /// Where requests carry the installation (`installation`).
    private static let templateInstallation = """
        # Where requests carry the installation (the device); default: as the reference design does
        # (path for push tokens, body for answer/end/media, query for events).
        # installation: {in: header, name: X-Device-Id}   # in: path | header | body | query | none

        """

    /// Operations that differ from the reference design (`operations`).
    private static let templateOperations = """
        # Operations that differ from the reference design. Placeholders: {callId}, {calleeUserId},
        # {operationId}, {installationId}, {userId}, {kind}, {token}, {appId}, {apnsEnvironment},
        # {reason}, {expectedRevision}, {video}, {cursor}, {limit}. A body string that is exactly one
        # placeholder takes its value (any JSON type) and is left out when there is none; a query
        # parameter whose placeholder has no value is left out.
        # operations:
        #   registerToken:
        #     method: PUT
        #     path: /api/push-registrations
        #     body: {platform: "{kind}", token: "{token}", appId: "{appId}", apnsEnvironment: "{apnsEnvironment}"}
        #   create:
        #     path: /api/v2/calls
        #     body: {id: "{callId}", to: "{calleeUserId}", requestId: "{operationId}", video: "{video}"}
        #     response: {snapshot: call}          # the call snapshot is under "call"
        #     statuses: {412: 409}                # the backend's status -> the reference's
        #   events:
        #     path: /api/events?after={cursor}&max={limit}
        #     response: {nextCursor: cursor}      # also: events, gap, winner, error, media, fields
        #     gapStatus: 410                      # a lost cursor is answered 410: read as gap true
        # (registerToken, deleteToken, create, answer, end, get, mediaSession, events)
        # A token API of its own: a body per token kind, an ID the backend makes up kept from the
        # registration's answer (response.save) for deleteToken, or deletion by the push token itself:
        #   registerToken:
        #     method: POST
        #     path: /me/devices
        #     bodyByKind:                         # the kinds not named send `body`
        #       apnsVoip: {os: "{kind}", pushToken: "{token}", voip: true, sandbox: "{apnsEnvironment}"}
        #       fcm: {os: "{kind}", pushToken: "{token}"}
        #     response: {save: {deviceId: id}}    # {deviceId} for deleteToken: the answer's "id"
        #   deleteToken: {method: DELETE, path: "/me/devices/{deviceId}"}   # or "/me/devices/{token}"
        # Without deleteToken a backend of another profile than callx whose registerToken is mapped keeps
        # its tokens after each scenario (the run warns); callx falls back to the reference route.
        #   mediaSession:
        #     response:
        #       snapshotFromGet: true             # a granted answer has no snapshot: ringcheck GETs the call
        #       media: ""                         # the whole body is the media session
        #       fields: {expiresAtMs: {jwtExp: accessToken}}   # the expiry is a JWT's exp claim

        """

    /// The backend's own words for the reference design's values (`values`, `numbers`).
    private static let templateValues = """
        # The backend's own words for the reference design's values, used both ways (sent, and read back
        # in every answer and event).
        # values:
        #   kind: {apnsVoip: voip}
        #   state: {ringing: RINGING, accepted: ACTIVE, ended: ENDED}
        #   reason: {callerCancelled: cancel, remoteEnded: hangup}
        #   apnsEnvironment: {production: false, sandbox: true}   # any JSON value: false is sent as a boolean
        # Members it sends as JSON numbers where the reference design has decimal strings.
        # numbers: [revision, cursor]            # also eventId, callId

        """

    /// Where ringcheck's mocks listen (`mocks`).
    private static let templateMocks = """
        # ringcheck's mocks (APNs, FCM, OAuth) where a backend configured in advance expects them.
        # The RINGCHECK_* settings are printed at the start of every run, and written where asked.
        # mocks:
        #   host: 127.0.0.1
        #   apnsPort: 8443
        #   apnsSandboxPort: 8444
        #   googlePort: 8445
        #   controlPort: 8446
        #   stateDir: .ringcheck-mocks
        #   persistentCA: true       # the same CA next time: the backend's trust store stays valid
        #   persistentKeys: true     # the same .p8 key, key/team IDs and service account next time
        #   envFile: mocks.env
        #   jsonFile: mocks.json

        """

    /// Serving the real push host names (`impersonate`).
    private static let templateImpersonation = """
        # Also serve the real push host names (api.push.apple.com, fcm.googleapis.com, …) for a backend
        # that hard-codes them: true is a TLS listener on 127.0.0.1:443 and an HTTPS proxy on a free port.
        # impersonate: true
        # impersonate: {listen: ["127.0.0.1:8443"], proxy: "127.0.0.1:3128"}   # or proxy: none

        """

    /// How ringcheck starts, waits for, stops and restarts the backend (`lifecycle`, `instances`).
    private static let templateLifecycle = """
        # How ringcheck starts, waits for, stops and restarts the backend. Commands are argument lists or
        # shell lines, run from this file's folder with the mocks' RINGCHECK_* settings (and `environment`)
        # added to the environment; their output goes to <report-dir>/backend.log. With start or restart,
        # the restart scenarios apply; with start, so do the backend-log checks.
        # lifecycle:
        #   start: [./run-backend.sh]
        #   ready: {url: "http://127.0.0.1:8080/health", timeout: 30s}
        #   stop: "kill $(cat backend.pid)"
        #   restart: [./restart-backend.sh]
        #   environment: {DATABASE_URL: "postgres://localhost/calls_test"}
        # The run fills in ${RINGCHECK_EXECUTABLE} (ringcheck's own path), ${RINGCHECK_BACKEND_PORT} (a free
        # port, kept across restarts) and ${RINGCHECK_BACKEND_STATE_DIR} (a fresh folder for the run) in
        # baseURL, ready.url, the commands and environment, e.g.
        #   baseURL: http://127.0.0.1:${RINGCHECK_BACKEND_PORT}
        #   start: ["${RINGCHECK_EXECUTABLE}", serve-reference, --port, "${RINGCHECK_BACKEND_PORT}"]
        # With such a baseURL, `instances: 2` starts a second instance (its own port and state folder) for
        # the scenarios that must run alone (restarts, broken push connections), beside the others:
        #   instances: 2

        """
}
