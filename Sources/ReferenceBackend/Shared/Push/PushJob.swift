import JSON

/// The push service a token belongs to (the `{kind}` in the registration route).
public enum PushKind: String, Sendable, Equatable, CaseIterable {
    case apnsVoip, fcm
}

/// Which APNs host a VoIP token works with.
public enum APNsEnvironment: String, Sendable, Equatable {
    case sandbox, production
}

/// A saved push token of one installation.
public struct PushRegistration: Sendable, Equatable {
    public var installationId: String
    public var kind: PushKind
    public var token: String
    public var appId: String
    public var apnsEnvironment: APNsEnvironment?
    public var userId: String
    public var updatedAtMs: Int64

    /// The registration as the API returns it.
    public var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("installationId", .string(installationId)), ("kind", .string(kind.rawValue)), ("token", .string(token)),
            ("appId", .string(appId)),
        ]
        if let apnsEnvironment { members.append(("apnsEnvironment", .string(apnsEnvironment.rawValue))) }
        members.append(("userId", .string(userId)))
        members.append(("updatedAtMs", .int(updatedAtMs)))
        return .object(members)
    }
}

/// One push in the transactional outbox, written in the same transaction as the call change
/// that caused it and sent later by `PushWorker`.
public struct PushJob: Sendable, Equatable {
    /// What the push is for.
    public enum Purpose: String, Sendable, Equatable {
        /// `call.invited`: a VoIP push or a high-priority FCM data message.
        case invitation
        /// Android `call.ended` under `data.callx` at normal priority, so a killed app stops ringing.
        case stopSignal
    }

    /// Where the job is in its life.
    public enum Status: String, Sendable, Equatable {
        /// Waiting for `nextAttemptAtMs`.
        case pending
        /// Claimed by a worker until `leaseUntilMs`; reclaimed after that if the worker died.
        case sending
        /// Accepted by the provider.
        case sent
        /// Not sent: the call was answered or ended first, or the registration went away.
        case cancelled
        /// Not sent: the call's ring deadline passed.
        case expired
        /// Gave up after a permanent error or too many attempts.
        case failed
        /// The provider said the token is dead; the registration was removed.
        case dropped
    }

    public var jobId: Int64
    public var purpose: Purpose
    public var callId: String
    public var installationId: String
    public var kind: PushKind
    public var token: String
    public var appId: String
    public var apnsEnvironment: APNsEnvironment?
    /// The `callx` object. For invitations `issuedAtMs` is filled in at send time.
    public var payload: JSONValue
    /// The push is worthless after this (the call's `expiresAtMs`): never sent or retried later.
    public var validUntilMs: Int64
    public var attempts: Int
    public var nextAttemptAtMs: Int64
    public var status: Status
    /// The provider's last HTTP status, if any.
    public var lastStatus: Int?
    public var lastError: String?
}
