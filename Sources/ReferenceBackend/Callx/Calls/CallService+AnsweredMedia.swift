import JSON

extension CallService {
    // MARK: Media for an answer that just succeeded

    /// Media credentials for the callee's installation whose answer the service has just accepted
    /// (200): the alternate API's media token, where asking for media *is* the answer.
    ///
    /// The call must still be accepted. The winner is deliberately not checked again: without
    /// defects a 200 answer always comes from the winning installation (the winner never changes),
    /// and under `racy-answer` or `late-answer-wins` every answer that "won" gets its credentials,
    /// just as those defects make every such answer succeed in the reference API.
    public func mediaAfterAnswer(user: BackendUser, callId: String, installationId: String) -> APIResult {
        run { tx, now in
            guard let stored = try tx.call(callId) else { throw APIError.callNotFound }
            _ = try acceptedForMedia(tx, stored, nowMs: now)
            let credentials = mediaCredentials(
                callId: callId, userId: user.userId, installationId: installationId, nowMs: now)
            return APIResult(status: 200, json: credentials)
        }
    }

    /// The call as it now is, when media may flow: refuses a ringing or ended call with 409.
    func acceptedForMedia(_ tx: StoreTransaction, _ stored: CallRecord, nowMs: Int64) throws -> CallRecord {
        let call = try expireIfDue(tx, stored, nowMs: nowMs)
        switch call.state {
        case .ringing: throw APIError(409, "call_not_accepted", "media is available after the call is answered")
        case .ended: throw APIError(409, "call_ended", "the call has ended")
        case .accepted: return call
        }
    }

    /// A new media credential for `userId` (and the callee's `installationId`), valid for
    /// `mediaSessionSeconds` (30 days with the `long-lived-media` defect): the media session object both
    /// API shapes return.
    func mediaCredentials(callId: String, userId: String, installationId: String?, nowMs: Int64) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [("callId", .string(callId)), ("userId", .string(userId))]
        if let installationId { members.append(("installationId", .string(installationId))) }
        members.append(("credential", .string(RandomIdentifier.hex(bytes: 32))))
        let lifetimeSeconds = defects.contains(.longLivedMedia) ? 30 * 86_400 : configuration.mediaSessionSeconds
        members.append(("expiresAtMs", .int(nowMs + Int64(lifetimeSeconds) * 1000)))
        return .object(members)
    }
}
