import Foundation
import JSON
import Testing

@testable import AllProfiles
@testable import Conformance
@testable import OneSignal

/// A `profile: onesignal` target file: `profileOperations` as paths or as mappings (method, path with the
/// operation's placeholders, body template, auth, where `delivered` is), and no `users:` needed.
@Suite struct OneSignalTargetFileTests {
    static let head = """
        profile: onesignal
        baseURL: http://127.0.0.1:9

        """

    func load(_ text: String) throws -> TargetFile {
        try TargetFile.load(text: Self.head + text, file: "t.yaml", users: .suite)
    }

    func errors(_ text: String) -> [String] {
        do {
            _ = try load(text)
            return []
        } catch { return (error as? SuiteLoadError)?.errors.map(\.description) ?? ["\(error)"] }
    }

    @Test func thePlainPathFormStillLoads() throws {
        let file = try load("profileOperations:\n  pushToUser: /v1/notify/user\n")
        #expect(file.profileOperations["pushToUser"] == ProfileOperationMapping(path: "/v1/notify/user"))
    }

    @Test func theMappingFormGivesMethodPathBodyAndWhereDeliveredIs() throws {
        let file = try load(
            """
            profileOperations:
              pushToUser:
                method: PUT
                path: "/v1/users/{userId}/test-push"
                body: {title: "{title}", payload: "{data}"}
                response: {delivered: result.ok}

            """)
        let m = try #require(file.profileOperations["pushToUser"])
        #expect(m.method == "PUT" && m.path == "/v1/users/{userId}/test-push" && m.delivered == "result.ok")
        #expect(m.body == ["title": "{title}", "payload": "{data}"])
        #expect(m.auth == nil)
    }

    @Test func aPlaceholderTheOperationCannotFillIsRefusedAtItsLine() {
        let typo = errors("profileOperations:\n  pushToUser: \"/v1/users/{user_id}/push\"\n")
        #expect(
            typo.contains {
                $0.hasPrefix(
                    "t.yaml:4:15: profileOperations.pushToUser: unknown placeholder '{user_id}' (did you mean 'userId'?)"
                )
            }, "\(typo)")
        // A broadcast names no user.
        let broadcast = errors("profileOperations:\n  pushBroadcast: {path: \"/v1/{userId}/all\"}\n")
        #expect(
            broadcast.contains { $0.contains("pushBroadcast.path: unknown placeholder '{userId}'") }, "\(broadcast)")
        let body = errors("profileOperations:\n  voipPush: {path: /ring, body: {t: \"{title}\"}}\n")
        #expect(body.contains { $0.contains("voipPush.body: unknown placeholder '{title}'") }, "\(body)")
    }

    @Test func anUnknownOperationOrKeyIsRefused() {
        let name = errors("profileOperations:\n  pushToUsr: /p\n")
        #expect(name.contains { $0.contains("unknown operation 'pushToUsr' (did you mean 'pushToUser'?)") }, "\(name)")
        let key = errors("profileOperations:\n  pushToUser: {path: /p, respons: {delivered: ok}}\n")
        #expect(key.contains { $0.contains("respons") && $0.contains("did you mean 'response'") }, "\(key)")
    }

    @Test func authOnTheOperationOrForAllIsTheUsersGrammar() async throws {
        let file = try load(
            """
            profileOperations:
              auth: {headers: {X-Admin-Key: s3cret}}
              pushToUser: /u
              voipPush: {path: /v, auth: {bearer: t}}

            """)
        #expect(file.profileOperations["pushToUser"]?.auth == .headers(["x-admin-key": "s3cret"]))
        #expect(file.profileOperations["voipPush"]?.auth == .headers(["authorization": "Bearer t"]))
        let target = file.target(defaultAppId: "app")
        let headers = try #require(target.profileOperationHeaders)
        #expect(try await headers("pushToUser") == ["x-admin-key": "s3cret"])
        #expect(try await headers("voipPush") == ["authorization": "Bearer t"])
        let bad = errors("profileOperations:\n  pushToUser: {path: /u, auth: {bearer: t, headers: {A: b}}}\n")
        #expect(bad.contains { $0.contains("give one way to authenticate") }, "\(bad)")
    }

    /// A bearer token or a header's value given as `${NAME}` is read from ringcheck's environment, as a
    /// sign-up's headers are: it was sent literally (a backend got the text `${KIT_ADMIN_KEY}` and answered
    /// 401 to every operation, while `validate` said the file was ready).
    @Test func anAuthSecretFromRingchecksEnvironment() throws {
        // A variable the test process already has: setenv here would race other tests reading the environment.
        let path = try #require(ProcessInfo.processInfo.environment["PATH"])
        let file = try load(
            """
            profileOperations:
              auth: {headers: {X-Admin-Key: "${PATH}"}}
              pushToUser: /u
              voipPush: {path: /v, auth: {bearer: "${PATH}"}}

            """)
        #expect(file.profileOperations["pushToUser"]?.auth == .headers(["x-admin-key": path]))
        #expect(file.profileOperations["voipPush"]?.auth == .headers(["authorization": "Bearer \(path)"]))
        let unset = errors(
            "profileOperations:\n  auth: {headers: {X-Admin-Key: \"${RINGCHECK_TEST_OS_UNSET}\"}}\n  pushToUser: /u\n")
        #expect(
            unset.count == 1
                && unset[0].contains(
                    "profileOperations.auth.headers.X-Admin-Key: RINGCHECK_TEST_OS_UNSET is not set in ringcheck's environment"
                ),
            "\(unset)")
        let inside = errors("profileOperations:\n  pushToUser: {path: /u, auth: {bearer: \"k-${PATH}\"}}\n")
        #expect(
            inside.count == 1 && inside[0].contains("only a whole value is read from the environment"), "\(inside)")
    }

    @Test func usersAreOptionalForOneSignalOnly() throws {
        let file = try load("profileOperations:\n  pushToUser: /u\n")
        #expect(file.users.isEmpty)
        // Every scenario user runs without an account: the profile makes its IDs per run.
        #expect(file.target(defaultAppId: "app").accounts("a", 0) != nil)
        // No fixed accounts to share: the scenarios run as --concurrency says, not one at a time.
        #expect(file.accountSlots == nil && file.target(defaultAppId: "app").accountSlots == nil)
        let listed = try load(
            "profileOperations:\n  pushToUser: /u\nusers:\n  a: [{userId: u1, auth: {bearer: t1}}, {userId: u2, auth: {bearer: t2}}]\n"
        )
        #expect(listed.accountSlots == 2)
        let other = (try? TargetFile.load(text: "baseURL: http://127.0.0.1:9\n", file: "t.yaml", users: .suite))
        #expect(other == nil)
    }

    @Test func theUnconfiguredInstanceTakesNoLifecycleAndSaysHowToStartIt() {
        let e = errors("unconfigured: {baseURL: \"http://127.0.0.1:9/off\", lifecycle: {start: [x]}}\n")
        #expect(e.count == 1 && e[0].hasPrefix("t.yaml:3:51: unconfigured: 'lifecycle' is not read here"), "\(e)")
        #expect(e.first?.contains("lifecycle.start") == true)
    }
}
