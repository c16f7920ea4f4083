import Foundation
import HTTP
import JSON
import PushMocks
import TestSupport
import Testing

@testable import AllProfiles
@testable import Conformance

/// Target files: what loads, what is refused (with line and field), and the users' sign-in modes.
@Suite(.cpuBound) struct TargetFileLoaderTests {
    static let users = """
        users:
          a: {userId: ua, auth: {bearer: ta}}
          b: {userId: ub, auth: {bearer: tb}}
          c: {userId: uc, auth: {bearer: tc}}
        """

    func load(_ text: String, users: TargetUserNeeds = .suite) throws(SuiteLoadError) -> TargetFile {
        try TargetFile.load(text: text, file: "t.yaml", users: users)
    }

    /// The problems of `text` for a command needing `users`, each `t.yaml:line:column: field: message`.
    func errors(_ text: String, users: TargetUserNeeds = .suite) -> [String] {
        do {
            _ = try load(text, users: users)
            return []
        } catch { return error.errors.map(\.description) }
    }

    @Test func theInitTemplateLoadsAsTheReferenceDesign() throws {
        let file = try load(TargetFile.template)
        #expect(file.baseURL == "http://127.0.0.1:8080")
        #expect(
            file.users["b"] == [
                TargetAccount(userId: "user-b", auth: .headers(["authorization": "Bearer token-user-b"]))
            ])
        #expect(file.mapping.operations.isEmpty)
        #expect(file.capabilities.isSuperset(of: [.faults, .shortRing, .mediaSession, .answerEndpoint]))
        #expect(file.cleanUp)
        #expect(file.poolSize == 1)
    }

    @Test func problemsNameTheLineAndTheField() {
        let text = """
            baseURL: ftp://x
            capabilities: [faults, shortRnig]
            colour: blue
            \(Self.users)
            operations:
              create:
                path: /calls/{calId}
                method: FETCH
              registerToken:
                path: /tokens
            """
        let found = errors(text)
        #expect(found.contains("t.yaml:1:10: baseURL: 'ftp://x' is not an http:// or https:// URL"))
        #expect(
            found.contains {
                $0.hasPrefix("t.yaml:2:24: capabilities[1]: unknown capability 'shortRnig' (did you mean 'shortRing'?)")
            })
        #expect(found.contains { $0.hasPrefix("t.yaml:3:1: unknown field 'colour'") })
        #expect(
            found.contains {
                $0.hasPrefix(
                    "t.yaml:10:11: operations.create.path: unknown placeholder '{calId}' (did you mean 'callId'?)")
            })
        #expect(found.contains { $0.hasPrefix("t.yaml:11:13: operations.create.method: 'FETCH' is not one of") })
        #expect(
            found.contains { $0.hasPrefix("t.yaml:13:5: operations.registerToken: the installation goes in the path") })
        #expect(found.count == 6, "\(found)")
    }

    @Test func missingPiecesAreNamed() {
        #expect(
            errors("users: {a: {userId: x, auth: {bearer: y}}}") == [
                "t.yaml:1:1: missing required field 'baseURL'",
                "t.yaml:1:8: users: missing user 'b' (the suite's scenarios use a, b and c)",
                "t.yaml:1:8: users: missing user 'c' (the suite's scenarios use a, b and c)",
            ])
        let twoModes = errors(
            """
            baseURL: http://h
            users:
              a: {userId: ua, auth: {bearer: t}}
              b: [{userId: ub1, auth: {bearer: t}}, {userId: ub2, auth: {bearer: t}}]
              c: {userId: uc, auth: {bearer: t, headers: {X-Key: k}}}
              d: {userId: ud, auth: {}}
            """)
        #expect(twoModes.contains { $0.hasPrefix("t.yaml:5:25: users.c.auth: give one way to authenticate") })
        #expect(twoModes.contains { $0.hasPrefix("t.yaml:6:25: users.d.auth: say how the user authenticates") })
        #expect(twoModes.contains { $0.hasPrefix("t.yaml:3:3: users: every user needs the same number of accounts") })
    }

    @Test func aCallNeedsOnlyItsCallerAndCalleeTheSuiteAllThree() throws {
        let twoUsers = """
            baseURL: http://h
            users:
              a: {userId: ua, auth: {bearer: ta}}
              b: {userId: ub, auth: {bearer: tb}}
            """
        let file = try load(twoUsers, users: .call(caller: "a", callee: "b"))
        #expect(file.users.keys.sorted() == ["a", "b"])
        #expect(file.target(defaultAppId: "x").accounts("b", 0)?.userId == "ub")
        // The call names its users by role or by an account's user ID.
        #expect(errors(twoUsers, users: .call(caller: "ub", callee: "a")).isEmpty)
        #expect(errors(twoUsers) == ["t.yaml:3:3: users: missing user 'c' (the suite's scenarios use a, b and c)"])
        #expect(
            errors(twoUsers, users: .call(caller: "a", callee: "c")) == [
                "t.yaml:3:3: users: missing user 'c' (the call's callee, --to): it is neither a user here (a, b) nor an account's userId"
            ])
        #expect(
            errors(twoUsers, users: .call(caller: "alice", callee: "b")) == [
                "t.yaml:3:3: users: missing user 'alice' (the call's caller, --as): it is neither a user here (a, b) nor an account's userId"
            ])
    }

    /// `load` needs the users its profile's workload plays: callx's a and b; none by name for a push service.
    @Test func aLoadNeedsTheUsersItsProfilePlaysAndNoOthers() throws {
        let oneUser = """
            baseURL: http://h
            users:
              x: {userId: ux, auth: {bearer: tx}}
            """
        #expect(errors(oneUser, users: .users([], why: "")).isEmpty)
        #expect(
            errors(oneUser, users: .users(["a", "b"], why: "load: a calls b")) == [
                "t.yaml:3:3: users: missing user 'a' (load: a calls b); the file declares x",
                "t.yaml:3:3: users: missing user 'b' (load: a calls b); the file declares x",
            ])
    }

    @Test func idempotencyNeedsTheKeyInEveryRetriedOperation() throws {
        let found = errors(
            "baseURL: http://h\ncapabilities: [idempotency]\n\(Self.users)\noperations:\n  end: {body: {why: \"{reason}\"}}"
        )
        #expect(
            found == ["t.yaml:2:15: capabilities: 'idempotency' is declared, but operations.end sends no {operationId}"]
        )
        // Without it, the scenarios that retry operations are not applicable, with the reason.
        let target = try load("baseURL: http://h\ncapabilities: [faults]\n\(Self.users)").target(defaultAppId: "x")
        let retry = Scenario(
            id: "x.retry", title: "t", requirements: ["R"], needs: [.idempotency],
            steps: [ScenarioStep(.save([:]), path: "steps[0]", mark: YAMLMark(line: 1, column: 1))])
        #expect(target.notApplicableReason(retry) == "the target lacks idempotency")
        var plain = retry
        plain.needs = []
        #expect(target.notApplicableReason(plain) == nil)
        plain.users = ["d"]
        #expect(target.notApplicableReason(plain) == "the target has no account for user 'd'")
    }

    @Test func aBrokenYAMLFileIsAnErrorWithItsPosition() {
        let found = errors("baseURL: [unclosed\n")
        #expect(found.count == 1)
        #expect(found.first?.hasPrefix("t.yaml:") == true)
    }

    @Test func poolsSetHowManyScenariosRunAtOnce() throws {
        let file = try load(
            """
            baseURL: http://h
            users:
              a: [{userId: a1, auth: {bearer: t1}}, {userId: a2, auth: {bearer: t2}}]
              b: [{userId: b1, auth: {bearer: t1}}, {userId: b2, auth: {bearer: t2}}]
              c: [{userId: c1, auth: {bearer: t1}}, {userId: c2, auth: {bearer: t2}}]
            """)
        #expect(file.poolSize == 2)
        let target = file.target(defaultAppId: "com.x")
        #expect(target.accountSlots == 2)
        #expect(target.accounts("b", 1)?.userId == "b2")
        #expect(target.accounts("d", 0) == nil)
        #expect(target.credentials == nil)
        #expect(target.appId == "com.x")
    }

    @Test func mocksImpersonationAndLifecycleAreRead() throws {
        let file = try TargetFile.load(
            text: """
                baseURL: http://h
                \(Self.users)
                mocks: {apnsPort: 18443, controlPort: 18446, stateDir: state, persistentCA: true, envFile: m.env}
                impersonate: {listen: ["127.0.0.1:8443", "[::1]:2197"], proxy: none}
                lifecycle:
                  start: [./run.sh, --port, "8080"]
                  ready: {url: "http://h/health", timeout: 5s}
                  stop: "kill $(cat pid)"
                  environment: {DATABASE_URL: "sqlite:test.db"}
                """, file: "t.yaml", directory: "/srv/backend")
        let mocks = try #require(file.mocks)
        #expect(mocks.options.apnsPort == 18443 && mocks.options.controlPort == 18446 && mocks.options.googlePort == 0)
        #expect(mocks.options.stateDirectory == "/srv/backend/state" && mocks.options.persistentCA)
        #expect(mocks.envFile == "/srv/backend/m.env")
        #expect(
            mocks.options.impersonation
                == ImpersonationOptions(
                    listen: [ListenAddress(host: "127.0.0.1", port: 8443), ListenAddress(host: "::1", port: 2197)],
                    proxy: nil))
        let lifecycle = try #require(file.lifecycle)
        let configuration = lifecycle.configuration(directory: file.directory, logFile: "/tmp/b.log")
        #expect(configuration.start == .arguments(["./run.sh", "--port", "8080"]))
        #expect(configuration.stop == .shell("kill $(cat pid)"))
        #expect(configuration.ready == BackendReadiness(url: "http://h/health", timeout: .seconds(5)))
        #expect(configuration.restart == nil && configuration.canRestart)
        #expect(configuration.workingDirectory == "/srv/backend")
        #expect(configuration.environment == ["DATABASE_URL": "sqlite:test.db"])
        #expect(
            try load("baseURL: http://h\n\(Self.users)\nimpersonate: true").mocks?.options.impersonation
                == ImpersonationOptions())
        let bad = errors(
            "baseURL: http://h\n\(Self.users)\nlifecycle: {begin: x, ready: {timeout: 5s}}\nimpersonate: {listen: [api.push.apple.com:443]}"
        )
        #expect(bad.contains("t.yaml:6:13: lifecycle: unknown field 'begin'"))
        #expect(bad.contains("t.yaml:6:30: lifecycle.ready: missing required field 'url'"))
        #expect(
            bad.contains {
                $0.hasPrefix("t.yaml:7:24: impersonate.listen[0]: 'api.push.apple.com:443' is not ADDR:PORT")
            })
        #expect(
            errors("baseURL: http://h\ncapabilities: [restart]\n\(Self.users)") == [
                "t.yaml:2:15: capabilities: 'restart' needs lifecycle.restart or lifecycle.start (how ringcheck restarts the backend)"
            ])
    }

    // MARK: Sign-in modes

    @Test func staticHeadersAreSentAsWritten() throws {
        let file = try load(
            """
            baseURL: http://h
            users:
              a: {userId: ua, auth: {headers: {X-Api-Key: k-a, X-Tenant: t1}}}
              b: {userId: ub, auth: {bearer: tb}}
              c: {userId: uc, auth: {bearer: tc}}
            """)
        let target = file.target(defaultAppId: "x")
        #expect(target.accounts("a", 0)?.authHeaders == ["x-api-key": "k-a", "x-tenant": "t1"])
        #expect(target.accounts("b", 0)?.authHeaders == ["authorization": "Bearer tb"])
    }

    @Test func aLoginRequestIsSentOnceAndItsTokenUsed() async throws {
        let logins = Counter()
        let handler = ClosureHandler { request in
            logins.increment()
            guard request.method == "POST", request.path == "/auth/login",
                let body = try? JSONValue.parse(request.body), body["username"]?.stringValue == "ub",
                body["password"]?.stringValue == "pw"
            else { return .json(401, #"{"error": "bad login"}"#) }
            return .json(200, #"{"data": {"accessToken": "tok-from-login"}}"#)
        }
        try await withTestServer(handler: handler) { server in
            let file = try load(
                """
                baseURL: http://127.0.0.1:\(server.port)
                users:
                  a: {userId: ua, auth: {bearer: ta}}
                  b:
                    userId: ub
                    auth:
                      login: {url: /auth/login, body: {username: "{userId}", password: pw}, token: data.accessToken}
                      send: {header: X-Session, format: "Token {token}"}
                  c: {userId: uc, auth: {login: {url: /auth/login, body: {username: nobody}, token: t}}}
                """)
            let target = file.target(defaultAppId: "x")
            let credentials = try #require(target.credentials)
            #expect(try await credentials("b", 0) == ["x-session": "Token tok-from-login"])
            #expect(try await credentials("b", 0) == ["x-session": "Token tok-from-login"])
            #expect(logins.value == 1)
            #expect(try await credentials("a", 0) == ["authorization": "Bearer ta"])
            await #expect(throws: CommandError.self) { try await credentials("c", 0) }
        }
    }

    @Test func aTokenCommandsFirstLineIsTheToken() async throws {
        let dir = TemporaryDirectory()
        try dir.writeExecutable("token.sh", Array("#!/bin/sh\necho \"tok-$1\"\necho ignored\n".utf8))
        let file = try TargetFile.load(
            text: """
                baseURL: http://h
                users:
                  a: {userId: ua, auth: {command: [./token.sh, ua]}}
                  b: {userId: ub, auth: {command: "exit 3", timeout: 5s}}
                  c: {userId: uc, auth: {command: "sleep 120", timeout: 300ms}}
                """, file: "t.yaml", directory: dir.path)
        let credentials = try #require(file.target(defaultAppId: "x").credentials)
        #expect(try await credentials("a", 0) == ["authorization": "Bearer tok-ua"])
        do {
            _ = try await credentials("b", 0)
            Issue.record("a failing command gave a token")
        } catch { #expect("\(error)".contains("exited with status 3")) }
        let started = Date()
        do {
            _ = try await credentials("c", 0)
            Issue.record("a command past its timeout gave a token")
        } catch { #expect("\(error)".contains("did not finish")) }
        // The command would sleep for two minutes; a timeout that works ends it long before, even on a busy
        // machine where spawning and reaping take seconds.
        #expect(Date().timeIntervalSince(started) < 60)
    }
}

/// Counts calls from handler tasks.
final class Counter: @unchecked Sendable {  // guarded by lock
    private let lock = NSLock()
    private var n = 0
    var value: Int { lock.withLock { n } }
    func increment() { lock.withLock { n += 1 } }
}
