import JSON

/// Where a call is in its life.
public enum CallState: String, Sendable, Equatable {
    case ringing, accepted, ended
}

/// Why a call ended: the closed set Callx understands.
public enum EndReason: String, Sendable, Equatable, CaseIterable {
    case localHangup, declined, remoteEnded, callerCancelled, unanswered, busy, failed, answeredElsewhere,
        declinedElsewhere
}

/// Which side of a call a user is on.
public enum CallParty: Sendable, Equatable {
    case caller, callee
}

/// Everything stored about one call.
public struct CallRecord: Sendable, Equatable {
    public var callId: String
    public var callerUserId: String
    /// The caller's display name and handle as of creation; snapshots and invitations show these.
    public var callerDisplayName: String
    public var callerHandle: String
    public var calleeUserId: String
    public var video: Bool
    public var state: CallState
    /// The installation whose answer won; set once, when the call is accepted.
    public var winningInstallationId: String?
    public var createdAtMs: Int64
    public var expiresAtMs: Int64
    public var endedAtMs: Int64?
    public var endReason: EndReason?
    /// Which side ended it (nil for expiry).
    public var endedBy: CallParty?
    /// Incremented with every change.
    public var revision: Int64

    public init(
        callId: String, callerUserId: String, callerDisplayName: String, callerHandle: String, calleeUserId: String,
        video: Bool = false, state: CallState = .ringing, winningInstallationId: String? = nil, createdAtMs: Int64,
        expiresAtMs: Int64, endedAtMs: Int64? = nil, endReason: EndReason? = nil, endedBy: CallParty? = nil,
        revision: Int64 = 1
    ) {
        self.callId = callId
        self.callerUserId = callerUserId
        self.callerDisplayName = callerDisplayName
        self.callerHandle = callerHandle
        self.calleeUserId = calleeUserId
        self.video = video
        self.state = state
        self.winningInstallationId = winningInstallationId
        self.createdAtMs = createdAtMs
        self.expiresAtMs = expiresAtMs
        self.endedAtMs = endedAtMs
        self.endReason = endReason
        self.endedBy = endedBy
        self.revision = revision
    }

    /// The side `userId` is on, or nil if they are not in the call.
    public func party(of userId: String) -> CallParty? {
        if userId == callerUserId { return .caller }
        if userId == calleeUserId { return .callee }
        return nil
    }

    /// The call snapshot as the API returns it: the seed's fields in the seed's order, then
    /// `answeredByInstallationId`, `endedAtMs` and `endReason` once they exist.
    public var snapshot: JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("schemaVersion", 1),
            ("callId", .string(callId)),
            ("revision", .string(String(revision))),
            ("state", .string(state.rawValue)),
            (
                "caller",
                [
                    "userId": .string(callerUserId), "displayName": .string(callerDisplayName),
                    "handle": .string(callerHandle),
                ]
            ),
            ("calleeUserId", .string(calleeUserId)),
            ("createdAtMs", .int(createdAtMs)),
            ("expiresAtMs", .int(expiresAtMs)),
        ]
        if video { members.append(("video", true)) }
        if let winningInstallationId { members.append(("answeredByInstallationId", .string(winningInstallationId))) }
        if let endedAtMs { members.append(("endedAtMs", .int(endedAtMs))) }
        if let endReason { members.append(("endReason", .string(endReason.rawValue))) }
        return .object(members)
    }
}
