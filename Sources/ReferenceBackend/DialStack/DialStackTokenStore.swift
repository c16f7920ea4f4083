import Synchronization

/// The device tokens of the wake-up backend, per user, in memory (a restart forgets them; the app
/// registers again on its next start). The same rules as the Callx reference's registrations: an
/// installation belongs to one user (registering it as another moves it and drops its old
/// tokens), and a token names one app on one device (another installation claiming it takes it).
public final class DialStackTokenStore: Sendable {
    private struct State {
        /// Registrations in the order they were first made: "the first device" is the oldest.
        var registrations: [PushRegistration] = []
        /// installationId → userId, kept after the tokens are deleted (as the Callx reference binds them).
        var owners: [String: String] = [:]
    }

    private let state = Mutex(State())

    public init() {}

    /// Saves `registration` (for `registration.userId`), replacing what its installation had of its kind.
    public func register(_ registration: PushRegistration) {
        state.withLock { state in
            let installation = registration.installationId
            if let owner = state.owners[installation], owner != registration.userId {
                state.registrations.removeAll { $0.installationId == installation }
            }
            state.owners[installation] = registration.userId
            state.registrations.removeAll { $0.kind == registration.kind && $0.token == registration.token }
            if let i = state.registrations.firstIndex(where: {
                $0.installationId == installation && $0.kind == registration.kind
            }) {
                state.registrations[i] = registration
            } else {
                state.registrations.append(registration)
            }
        }
    }

    /// Removes `userId`'s token of `kind` from an installation; false (nothing removed) when the
    /// installation belongs to another user. Removing what is not there succeeds.
    public func delete(userId: String, installationId: String, kind: PushKind) -> Bool {
        state.withLock { state in
            if let owner = state.owners[installationId], owner != userId { return false }
            state.registrations.removeAll { $0.installationId == installationId && $0.kind == kind }
            return true
        }
    }

    /// A token the provider called dead (APNs 410 / BadDeviceToken, FCM UNREGISTERED): forgotten.
    public func drop(kind: PushKind, token: String) {
        state.withLock { state in state.registrations.removeAll { $0.kind == kind && $0.token == token } }
    }

    /// Every registered device of `userId`, oldest first.
    public func devices(ofUser userId: String) -> [PushRegistration] {
        state.withLock { state in state.registrations.filter { $0.userId == userId } }
    }

    /// Every registered device, oldest first.
    public var allDevices: [PushRegistration] { state.withLock { $0.registrations } }
}
