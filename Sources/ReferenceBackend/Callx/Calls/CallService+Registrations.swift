import JSON

extension CallService {
    // MARK: Push-token registrations

    /// Saves `user`'s push token for an installation. An installation registered by another
    /// user is rebound: its old registrations are removed so it stops ringing the first user.
    public func registerPushToken(
        user: BackendUser, installationId: String, kind: PushKind, body: JSONValue
    ) -> APIResult {
        run { tx, now in
            let registration = try PushRegistration.requested(
                installationId: installationId, kind: kind, body: body, userId: user.userId, nowMs: now)
            let token = registration.token
            if let owner = try tx.installationOwner(installationId), owner != user.userId {
                // Rebinding: nothing registered under the previous user may ring anyone any more.
                for old in try tx.registrations(ofInstallation: installationId) {
                    try tx.deleteRegistration(installationId: installationId, kind: old.kind)
                }
                try tx.cancelPendingPushes(installationId: installationId, nowMs: now)
            }
            try tx.bindInstallation(installationId, to: user.userId, nowMs: now)
            // A token names one app on one device: another installation claiming it replaces the older one.
            for other in try tx.registrations(kind: kind, token: token) where other.installationId != installationId {
                try tx.deleteRegistration(installationId: other.installationId, kind: kind)
                try tx.cancelPendingPushes(installationId: other.installationId, kind: kind, nowMs: now)
            }
            try tx.saveRegistration(registration)
            return APIResult(status: 200, json: registration.json)
        }
    }

    /// Removes `user`'s push token of one kind from an installation (sign-out). Deleting what is
    /// not there succeeds; deleting another user's installation is refused.
    public func deletePushToken(user: BackendUser, installationId: String, kind: PushKind) -> APIResult {
        run { tx, now in
            try validateIdentifier(installationId, field: "installationId")
            if let owner = try tx.installationOwner(installationId), owner != user.userId {
                throw APIError(403, "installation_not_yours", "this installation is registered to another user")
            }
            try tx.deleteRegistration(installationId: installationId, kind: kind)
            try tx.cancelPendingPushes(installationId: installationId, kind: kind, nowMs: now)
            return APIResult(status: 204, body: [])
        }
    }
}
