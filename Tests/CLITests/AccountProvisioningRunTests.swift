import Foundation
import TestSupport
import Testing

/// `accounts:` through the binary: the accounts a target's `command:` prints when the run starts are the
/// ones it signs in with (`validate` signs each in), and a command that fails makes the start inconclusive,
/// naming the account.
@Suite struct AccountProvisioningRunTests {
    /// The reference backend, as the pools example starts it (its users file knows user-a1 … user-c12), with
    /// `accounts:` instead of `users:`; `command` stands in for a script that creates an account.
    static func target(command: String) -> String {
        let users = TargetCommandTests.repositoryRoot + "/examples/targets/reference-users.json"
        return #"""
            baseURL: http://127.0.0.1:${RINGCHECK_BACKEND_PORT}
            capabilities: [faults, sandbox, shortRing, pushSignals, mediaSession, idempotency, videoCalls]
            accounts:
              perUser: 2
              command: \#(command)
            lifecycle:
              start: ["${RINGCHECK_EXECUTABLE}", serve-reference, --port, "${RINGCHECK_BACKEND_PORT}", --db, "${RINGCHECK_BACKEND_STATE_DIR}/b.sqlite", --users, "\#(users)", --quiet]
              ready: {url: "http://127.0.0.1:${RINGCHECK_BACKEND_PORT}/v1/calls/none"}

            """#
    }

    @Test func theAccountsACommandPrintsAreTheOnesUsed() async throws {
        let dir = TemporaryDirectory()
        let path = dir.file("t.yaml")
        let print = #""printf '{\"userId\": \"user-{user}{slot}\", \"token\": \"token-user-{user}{slot}\"}'""#
        try Self.target(command: print).write(toFile: path, atomically: true, encoding: .utf8)
        let r = try await RingcheckBinary.run(
            ["validate", "--target", path, "--report-dir", dir.file("r")], timeout: 120)
        #expect(r.status == 0, "\(r.stdout)\n\(r.stderr)")
        for user in ["a", "b", "c"] {
            #expect(r.stdout.contains("✔ user \(user): user-\(user)1, user-\(user)2 (fixed headers)"), "\(r.stdout)")
        }
        #expect(!r.stdout.contains("token-user-"), "a token was printed")
    }

    @Test func aFailingCommandIsInconclusiveNamingTheAccount() async throws {
        let dir = TemporaryDirectory()
        let path = dir.file("t.yaml")
        try Self.target(command: #""echo no such account >&2; exit 4""#).write(
            toFile: path, atomically: true, encoding: .utf8)
        let r = try await RingcheckBinary.run(
            ["validate", "--target", path, "--report-dir", dir.file("r")], timeout: 120)
        #expect(r.status == 3, "\(r.stdout)\n\(r.stderr)")
        #expect(r.stderr.contains("cannot create the accounts: accounts: the command for user "), "\(r.stderr)")
        #expect(r.stderr.contains("exited with status 4: no such account"), "\(r.stderr)")
    }
}
