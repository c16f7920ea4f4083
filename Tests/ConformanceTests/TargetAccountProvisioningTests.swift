import Foundation
import HTTP
import JSON
import Synchronization
import Testing

@testable import AllProfiles
@testable import Conformance

/// `accounts:`: a target file whose accounts ringcheck creates when the run starts, by a sign-up request or
/// a command, one per user and slot; and the files that say it wrong (refused with line and field).
@Suite struct TargetAccountProvisioningTests {
    /// A backend's sign-up endpoint: `POST /signup {"name"}` makes an account (409 for a name taken).
    final class SignUpEndpoint: Sendable {
        final class Names: Sendable {
            let taken = Mutex<[String]>([])
        }
        let names = Names()
        let server: HTTPServer

        init() throws {
            let names = self.names
            server = HTTPServer(
                configuration: .init(host: "127.0.0.1", port: 0, loopCount: 1),
                handler: ClosureHandler { request in
                    guard request.path == "/signup", request.headers["x-admin-key"] == "k",
                        let name = (try? JSONValue.parse(request.body))?["name"]?.stringValue
                    else { return .json(400, Array("{}".utf8)) }
                    let taken = names.taken.withLock { list in
                        if list.contains(name) { return true }
                        list.append(name)
                        return false
                    }
                    if taken { return .json(409, Array("{}".utf8)) }
                    let answer: JSONValue = [
                        "account": ["id": .string("id-" + name)], "session": .string("tok-" + name),
                    ]
                    return .json(201, Array(answer.serialized().utf8))
                })
            try server.start()
        }
        var baseURL: String { "http://127.0.0.1:\(server.port)" }
    }

    static let signUp = """
        accounts:
          perUser: 2
          signUp: {url: /signup, headers: {X-Admin-Key: k}, body: {name: "rc-{user}{slot}-{runId}"}}
          userId: account.id
          token: session
          send: {header: X-Session, format: "S {token}"}
        """

    func load(_ text: String) throws -> TargetFile { try TargetFile.load(text: text, file: "t.yaml", users: .suite) }

    func errors(_ text: String) -> [String] {
        do {
            _ = try TargetFile.load(text: text, file: "t.yaml", users: .suite)
            return []
        } catch { return error.errors.map(\.description) }
    }

    @Test func aSignUpRequestMakesOneAccountPerUserAndSlot() async throws {
        let endpoint = try SignUpEndpoint()
        defer { endpoint.server.stop() }
        let file = try load("baseURL: \(endpoint.baseURL)\n" + Self.signUp)
        #expect(file.users.isEmpty && file.poolSize == 2)
        let made = try await file.provisioningAccounts(runId: "r1")
        #expect(made.users.keys.sorted() == ["a", "b", "c"])
        #expect(made.users["b"]?.map(\.userId) == ["id-rc-b1-r1", "id-rc-b2-r1"])
        #expect(made.users["b"]?[1].auth == .headers(["x-session": "S tok-rc-b2-r1"]))
        #expect(made.poolSize == 2)
        #expect(endpoint.names.taken.withLock { $0.count } == 6)
        // The same run ID again: the backend refuses the names it has, and the error names the account.
        await #expect {
            _ = try await file.provisioningAccounts(runId: "r1")
        } throws: { error in
            "\(error)".contains("the sign-up of user ") && "\(error)".contains("answered 409")
        }
    }

    @Test func aCommandPrintsEachAccount() async throws {
        let text = """
            baseURL: http://127.0.0.1:9
            accounts:
              perUser: 3
              users: [a, b]
              command: ["/bin/sh", "-c", "echo '{\\"userId\\": \\"u-{user}-{slot}\\", \\"token\\": \\"t-{user}-{slot}\\"}'"]
            """
        let file = try TargetFile.load(text: text, file: "t.yaml", users: .call(caller: "a", callee: "b"))
        let made = try await file.provisioningAccounts()
        #expect(made.users["a"]?.map(\.userId) == ["u-a-1", "u-a-2", "u-a-3"])
        #expect(made.users["b"]?[2].auth == .headers(["authorization": "Bearer t-b-3"]))
        // The slots of one instance of the backend only (`lifecycle.instances: 2`): the last one, or the others.
        let last = try await file.provisioningAccounts(slots: 3...3)
        #expect(last.users["a"]?.map(\.userId) == ["u-a-3"] && last.users["b"]?.map(\.userId) == ["u-b-3"])
        #expect(last.poolSize == 1)
        let others = try await file.provisioningAccounts(slots: 1...2)
        #expect(others.users["b"]?.map(\.userId) == ["u-b-1", "u-b-2"] && others.poolSize == 2)
        let failing = try TargetFile.load(
            text: "baseURL: http://127.0.0.1:9\naccounts: {command: [\"/bin/sh\", \"-c\", \"echo nope\"]}\n",
            file: "t.yaml", users: .suite)
        await #expect {
            _ = try await failing.provisioningAccounts()
        } throws: { "\($0)".contains("is not JSON") }
    }

    @Test func aFileSaysHowAccountsAreMadeOnce() {
        let base = "baseURL: http://h\n"
        #expect(
            errors(base + "accounts: {perUser: 2}\n") == [
                "t.yaml:2:11: accounts: say how an account is made: signUp (an HTTP request) or command (a program printing it)"
            ])
        #expect(
            errors(base + "accounts: {command: [x], signUp: {url: /s}}\n").first?.contains(
                "not both signUp and command")
                == true)
        #expect(
            errors(base + TargetFileLoaderTests.users + "\naccounts: {command: [x]}\n").contains {
                $0.contains("accounts: give users (accounts listed) or accounts (accounts made), not both")
            })
        #expect(errors(base + "accounts: {command: [x], perUser: 0}\n").first?.contains("must be at least 1") == true)
        #expect(errors(base + "accounts: {signUp: {url: /s}, timeout: 5s}\n").first?.contains("'timeout'") == true)
        #expect(errors(base + "accounts: {command: [x], users: [a, b]}\n").first?.contains("missing user 'c'") == true)
        #expect(errors(base).first?.contains("missing required field 'users'") == true)
    }
}
