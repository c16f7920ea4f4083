import Callx
import Conformance
import Foundation
import ReferenceBackend

extension CallCommand {
    /// The users of the embedded backend for a call: the reference test users (`user-a` Alex,
    /// `user-b` Blake, `user-c` Casey) and any other name given, each signing in as `token-<name>`.
    func embeddedUsers() -> [BackendUser] {
        var users = UserDirectory.testUsers.users
        for name in [callerName, calleeName] where !users.contains(where: { $0.userId == name }) {
            users.append(
                BackendUser(
                    userId: name, displayName: name.prefix(1).uppercased() + name.dropFirst(), handle: "callx:\(name)",
                    bearerToken: "token-\(name)"))
        }
        return users
    }

    /// Starts the mocks and the embedded reference backend, places the call, and stops them.
    func runEmbedded() async throws -> ExitCode {
        let users = embeddedUsers()
        let ringSeconds = Int((ringTimeout ?? 30).rounded(.up))
        return try await placeCall(embedded: true, startFailure: "cannot start the mocks and the reference backend") {
            cleanup in
            let embedded = try await EmbeddedReference.start(
                defects: defects, users: users, ringSeconds: ringSeconds,
                accounts: { name, _ in
                    users.first { $0.userId == name }.map { TargetUser(userId: $0.userId, bearerToken: $0.bearerToken) }
                }, cleanup: cleanup)
            return (embedded.target, embedded.mocks)
        }
    }
}
