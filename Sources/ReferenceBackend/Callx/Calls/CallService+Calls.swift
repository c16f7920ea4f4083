import JSON

extension CallService {
    // MARK: Create

    /// Creates a ringing call from `user` to `calleeUserId` and queues its invitations in the same
    /// transaction. Idempotent on (user, operationId, fingerprint); a callId ever used before is refused.
    public func createCall(user: BackendUser, body: JSONValue, fingerprint: String) -> APIResult {
        run { tx, now in
            let fields = RequestBody(body)
            let callId = try fields.string("callId", maxBytes: 128)
            try validateIdentifier(callId, field: "callId")
            let calleeUserId = try fields.string("calleeUserId")
            let operationId = try fields.string("operationId")
            let video = try fields.optionalBool("video") ?? false
            // ringcheck's own extension (not the seed's): a scenario about expiry asks for a short ring, so
            // the default ring can stay long enough for every other call on a busy machine.
            let ringSeconds = try fields.optionalInt("ringSeconds", in: 1...86_400) ?? Int64(configuration.ringSeconds)
            let caller = try callerIdentity(session: user, body: body, in: tx)
            guard try self.user(id: calleeUserId, in: tx) != nil else {
                throw APIError(404, "user_not_found", "no user \(calleeUserId)")
            }
            guard calleeUserId != caller.userId else {
                throw APIError(400, "cannot_call_self", "calleeUserId must be another user")
            }
            return try idempotent(
                tx, account: user.userId, operationId: operationId, fingerprint: fingerprint, nowMs: now,
                onReplay: { replay in
                    // The defect: a retried create rings the callee's devices again.
                    if defects.contains(.duplicateInviteOnRetry), replay.status == 200,
                        let call = try tx.call(callId), call.state == .ringing
                    {
                        try enqueueInvitations(tx, call: call, nowMs: now)
                    }
                }
            ) {
                if var existing = try tx.call(callId) {
                    // Kept ended calls make a delayed or retried create harmless: it never rings again.
                    guard defects.contains(.resurrectEndedCall), existing.state == .ended else {
                        let message = "callId \(callId) is already used; use a new UUID"
                        // Participants learn what became of the call; anyone else learns nothing about it.
                        guard existing.party(of: user.userId) != nil else {
                            throw APIError(409, "call_exists", message)
                        }
                        return .conflict(
                            "call_exists", message, snapshot: try expireIfDue(tx, existing, nowMs: now).snapshot)
                    }
                    existing.state = .ringing
                    existing.revision += 1
                    existing.expiresAtMs = now + ringSeconds * 1000
                    existing.endedAtMs = nil
                    existing.endReason = nil
                    existing.endedBy = nil
                    existing.winningInstallationId = nil
                    try tx.updateCall(existing)
                    try enqueueInvitations(tx, call: existing, nowMs: now)
                    return APIResult(status: 200, json: existing.snapshot)
                }
                let call = CallRecord(
                    callId: callId, callerUserId: caller.userId, callerDisplayName: caller.displayName,
                    callerHandle: caller.handle, calleeUserId: calleeUserId, video: video, createdAtMs: now,
                    expiresAtMs: now + ringSeconds * 1000)
                try tx.insertCall(call)
                try enqueueInvitations(tx, call: call, nowMs: now)
                return APIResult(status: 200, json: call.snapshot)
            }
        }
    }

    /// Who is calling: always the session's user, except under the `identity-from-body` defect.
    private func callerIdentity(session: BackendUser, body: JSONValue, in tx: StoreTransaction) throws -> BackendUser {
        guard defects.contains(.identityFromBody) else { return session }
        var identity = session
        let claimed = body["caller"]
        if let userId = claimed?["userId"]?.stringValue ?? body["callerUserId"]?.stringValue {
            identity =
                try user(id: userId, in: tx)
                ?? BackendUser(
                    userId: userId, displayName: userId, handle: "callx:\(userId)", bearerToken: "")
        }
        if let name = claimed?["displayName"]?.stringValue ?? body["displayName"]?.stringValue {
            identity.displayName = name
        }
        if let handle = claimed?["handle"]?.stringValue ?? body["handle"]?.stringValue { identity.handle = handle }
        return identity
    }

    // MARK: Answer

    /// Answers a ringing call from one of the callee's installations. Exactly one answer wins;
    /// every later answer gets 409 with the winner's snapshot.
    public func answer(user: BackendUser, callId: String, body: JSONValue, fingerprint: String) async -> APIResult {
        if defects.contains(.racyAnswer) {
            return await racyAnswer(user: user, callId: callId, body: body, fingerprint: fingerprint)
        }
        return run { tx, now in
            let request = try AnswerRequest(body)
            return try idempotent(
                tx, account: user.userId, operationId: request.operationId, fingerprint: fingerprint, nowMs: now
            ) {
                let call = try answerableCall(tx, user: user, callId: callId, request: request, nowMs: now)
                if let expected = request.expectedRevision, call.state == .ringing, expected != call.revision {
                    return .conflict(
                        "revision_mismatch", "the call is at revision \(call.revision)", snapshot: call.snapshot)
                }
                let transition = lifecycle.apply(.answer(installationId: request.installationId), to: call, nowMs: now)
                let stored = try persist(tx, transition, nowMs: now)
                return answerResult(transition, stored)
            }
        }
    }

    struct AnswerRequest {
        var operationId: String
        var installationId: String
        var expectedRevision: Int64?

        init(_ body: JSONValue) throws(APIError) {
            let fields = RequestBody(body)
            operationId = try fields.string("operationId")
            installationId = try fields.string("installationId", maxBytes: 128)
            expectedRevision = try fields.optionalRevision("expectedRevision")
        }
    }

    /// Loads the call and checks that `user` is its callee and answers from their own installation.
    private func answerableCall(
        _ tx: StoreTransaction, user: BackendUser, callId: String, request: AnswerRequest, nowMs: Int64
    ) throws -> CallRecord {
        guard let stored = try tx.call(callId) else { throw APIError.callNotFound }
        switch stored.party(of: user.userId) {
        case .callee: break
        case .caller: throw APIError(403, "not_the_callee", "only the callee can answer")
        case nil: if !defects.contains(.noMembershipCheck) { throw APIError.notParticipant }
        }
        guard try tx.installationOwner(request.installationId) == stored.calleeUserId else {
            throw APIError(403, "installation_not_callee", "installationId is not an installation of the callee")
        }
        return try expireIfDue(tx, stored, nowMs: nowMs)
    }

    private func answerResult(_ transition: CallTransition, _ call: CallRecord) -> APIResult {
        switch transition {
        case .changed, .unchanged:
            return APIResult(status: 200, json: call.snapshot)
        case .rejected(.alreadyAnswered, _):
            return .conflict("call_already_answered", "another installation answered first", snapshot: call.snapshot)
        case .rejected(.expired, _):
            return .conflict("call_expired", "the call stopped ringing before the answer", snapshot: call.snapshot)
        case .rejected:
            return .conflict("call_ended", "the call has ended", snapshot: call.snapshot)
        }
    }

    /// What the first step of a racy answer decided.
    private enum RacyCheck: Sendable {
        case finished(APIResult)
        case write(CallTransition, operationId: String)
    }

    /// The `racy-answer` defect: check in one transaction, yield, then write what the check
    /// decided in another, so answers that arrive together all see a ringing call and all "win".
    private func racyAnswer(user: BackendUser, callId: String, body: JSONValue, fingerprint: String) async -> APIResult
    {
        let check: RacyCheck
        do {
            let now = clock()
            check = try store.transaction { tx -> RacyCheck in
                let request = try AnswerRequest(body)
                if !defects.contains(.noIdempotency),
                    let record = try tx.idempotencyRecord(account: user.userId, operationId: request.operationId)
                {
                    return .finished(APIResult(status: record.status, body: record.body))
                }
                let call = try answerableCall(tx, user: user, callId: callId, request: request, nowMs: now)
                let transition = lifecycle.apply(.answer(installationId: request.installationId), to: call, nowMs: now)
                guard case .changed = transition else { return .finished(answerResult(transition, call)) }
                return .write(transition, operationId: request.operationId)
            }
        } catch let error as APIError {
            return error.result
        } catch {
            return APIError(500, "internal_error", "\(error)").result
        }
        guard case .write(let transition, let operationId) = check else {
            if case .finished(let result) = check { return result }
            return APIError(500, "internal_error", "unreachable").result
        }
        // The race window: the other answers run their check now, and all see the call ringing.
        await Task.yield()
        try? await Task.sleep(for: .milliseconds(2))
        return run { tx, now in
            let stored = try persist(tx, transition, nowMs: now)
            let result = answerResult(transition, stored)
            if !defects.contains(.noIdempotency) {
                try tx.saveIdempotencyRecord(
                    account: user.userId, operationId: operationId,
                    .init(fingerprint: fingerprint, status: result.status, body: result.body), nowMs: now)
            }
            return result
        }
    }

    // MARK: End

    /// Ends a call for one side with a reason from the closed set and returns the terminal
    /// snapshot. Ending an ended call changes nothing and returns it as it is.
    public func end(user: BackendUser, callId: String, body: JSONValue, fingerprint: String) -> APIResult {
        run { tx, now in
            let fields = RequestBody(body)
            let operationId = try fields.string("operationId")
            let reasonName = try fields.string("reason")
            guard let reason = EndReason(rawValue: reasonName) else {
                throw APIError(
                    400, "invalid_reason",
                    "reason must be one of " + EndReason.allCases.map(\.rawValue).joined(separator: ", "))
            }
            let installationId = try fields.optionalString("installationId", maxBytes: 128)
            return try idempotent(
                tx, account: user.userId, operationId: operationId, fingerprint: fingerprint, nowMs: now
            ) {
                guard let stored = try tx.call(callId) else { throw APIError.callNotFound }
                let party = try self.party(of: user, in: stored)
                if let installationId, try tx.installationOwner(installationId) != user.userId {
                    throw APIError(403, "installation_not_yours", "installationId is not one of your installations")
                }
                let call = try expireIfDue(tx, stored, nowMs: now)
                let transition = lifecycle.apply(
                    .end(by: party, reason: reason, installationId: installationId), to: call, nowMs: now)
                return APIResult(status: 200, json: try persist(tx, transition, nowMs: now).snapshot)
            }
        }
    }

    // MARK: Read

    /// The call's current snapshot, ended calls included, for its participants only.
    public func snapshot(user: BackendUser, callId: String) -> APIResult {
        run { tx, now in
            guard let stored = try tx.call(callId) else { throw APIError.callNotFound }
            _ = try party(of: user, in: stored)
            return APIResult(status: 200, json: try expireIfDue(tx, stored, nowMs: now).snapshot)
        }
    }

    // MARK: Media session

    /// Short-lived media credentials: for the caller once the call is accepted, and for the
    /// callee's winning installation (named by `installationId` in the body) only.
    public func mediaSession(user: BackendUser, callId: String, body: JSONValue) -> APIResult {
        run { tx, now in
            let installationId = try RequestBody(body).optionalString("installationId", maxBytes: 128)
            guard let stored = try tx.call(callId) else { throw APIError.callNotFound }
            let party = stored.party(of: user.userId)
            if party == nil && !defects.contains(.noMembershipCheck) { throw APIError.notParticipant }
            let call = try acceptedForMedia(tx, stored, nowMs: now)
            if party == .callee {
                guard let installationId, installationId == call.winningInstallationId else {
                    throw APIError(
                        403, "not_winning_installation", "only the installation that answered gets media credentials")
                }
            }
            let credentials = mediaCredentials(
                callId: call.callId, userId: user.userId, installationId: party == .callee ? installationId : nil,
                nowMs: now)
            return APIResult(status: 200, json: credentials)
        }
    }

    // MARK: Membership

    /// The user's side of the call; refuses non-participants (a defect lets them act as the callee).
    func party(of user: BackendUser, in call: CallRecord) throws(APIError) -> CallParty {
        if let party = call.party(of: user.userId) { return party }
        if defects.contains(.noMembershipCheck) { return .callee }
        throw APIError.notParticipant
    }
}
