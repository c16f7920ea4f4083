import JSON

/// The backend's operations on calls, registrations and events, each run as one transaction:
/// the change, its events, its outbox jobs and its idempotency record commit together.
///
/// Takes already-authenticated users and parsed JSON; `CallxAPI` does the HTTP around it.
public final class CallService: Sendable {
    public let store: CallStore
    public let users: UserDirectory
    public let configuration: ReferenceBackendConfiguration
    public let clock: MillisecondClock
    let lifecycle: CallLifecycle
    /// Rung after every committed change, so the push worker sends without waiting for a poll.
    public let outboxSignal = OutboxSignal()

    public init(
        store: CallStore, users: UserDirectory = .testUsers,
        configuration: ReferenceBackendConfiguration = ReferenceBackendConfiguration(),
        clock: @escaping MillisecondClock = SystemClock.milliseconds
    ) {
        self.store = store
        self.users = users
        self.configuration = configuration
        self.clock = clock
        self.lifecycle = CallLifecycle(defects: configuration.defects)
    }

    var defects: Set<CallxDefect> { configuration.defects }

    // MARK: Running operations

    /// Runs one operation in a transaction, turning refusals into results.
    func run(_ body: (StoreTransaction, Int64) throws -> APIResult) -> APIResult {
        let now = clock()
        do {
            let result = try store.transaction { tx in try body(tx, now) }
            outboxSignal.notify()
            return result
        } catch let error as APIError {
            return error.result
        } catch {
            return APIError(500, "internal_error", "\(error)").result
        }
    }

    /// Replays the stored outcome of (account, operationId) or runs `perform` and stores its
    /// outcome. The same operationId with another request fingerprint is a conflict.
    func idempotent(
        _ tx: StoreTransaction, account: String, operationId: String, fingerprint: String, nowMs: Int64,
        onReplay: (APIResult) throws -> Void = { _ in }, perform: () throws -> APIResult
    ) throws -> APIResult {
        if !defects.contains(.noIdempotency),
            let record = try tx.idempotencyRecord(account: account, operationId: operationId)
        {
            guard record.fingerprint == fingerprint || defects.contains(.idempotencyIgnoresPayload) else {
                throw APIError(
                    409, "idempotency_conflict", "operationId \(operationId) was already used with a different request")
            }
            let replay = APIResult(status: record.status, body: record.body)
            try onReplay(replay)
            return replay
        }
        let result = try perform()
        if !defects.contains(.noIdempotency) {
            try tx.saveIdempotencyRecord(
                account: account, operationId: operationId,
                .init(fingerprint: fingerprint, status: result.status, body: result.body), nowMs: nowMs)
        }
        return result
    }

    // MARK: Applying lifecycle results

    /// Ends the call as unanswered if it is ringing past its deadline; returns the call as it now is.
    func expireIfDue(_ tx: StoreTransaction, _ call: CallRecord, nowMs: Int64) throws -> CallRecord {
        guard let transition = lifecycle.expireIfDue(call, nowMs: nowMs) else { return call }
        return try persist(tx, transition, nowMs: nowMs)
    }

    /// Stores a transition with its events, stop signals and invitation cancellations.
    @discardableResult
    func persist(_ tx: StoreTransaction, _ transition: CallTransition, nowMs: Int64) throws -> CallRecord {
        switch transition {
        case .unchanged(let call), .rejected(_, let call):
            return call
        case .changed(let call, let events, let cancelInvitations):
            try tx.updateCall(call)
            for planned in events {
                let eventId = CallxMessages.newEventId()
                let body = CallxMessages.event(planned, call: call, eventId: eventId, occurredAtMs: nowMs)
                try tx.appendEvent(
                    eventId: eventId, callId: call.callId, audience: planned.audience, body: body,
                    retention: configuration.eventRetention, nowMs: nowMs)
                if planned.stopSignal && nowMs < call.expiresAtMs {
                    try enqueueStopSignals(tx, body: body, call: call, audience: planned.audience, nowMs: nowMs)
                }
            }
            if cancelInvitations && !defects.contains(.inviteAfterCancel) {
                // The defect keeps retrying what was already tried once the call has timed out,
                // also when the retry was not yet in flight at the deadline.
                let keepRetries = defects.contains(.retryAfterExpiry) && call.endReason == .unanswered
                try tx.cancelPendingInvitations(callId: call.callId, keepingRetries: keepRetries, nowMs: nowMs)
            }
            return call
        }
    }

    /// Queues the invitation to every device registered to the callee.
    func enqueueInvitations(_ tx: StoreTransaction, call: CallRecord, nowMs: Int64) throws {
        var registrations = try tx.registrations(ofUser: call.calleeUserId)
        if defects.contains(.inviteLastDeviceOnly),
            let last = registrations.max(by: { $0.updatedAtMs < $1.updatedAtMs })
        {
            registrations = [last]
        }
        // The defect sends every invitation twice, each copy with its own eventId.
        let copies = defects.contains(.duplicateInvite) ? 2 : 1
        for registration in registrations {
            for _ in 0..<copies {
                let payload = CallxMessages.invitation(
                    call: call, eventId: CallxMessages.newEventId(), issuedAtMs: nowMs)
                try tx.enqueuePush(
                    purpose: .invitation, callId: call.callId, registration: registration, payload: payload,
                    validUntilMs: call.expiresAtMs, nowMs: nowMs)
            }
        }
    }

    /// Queues a `call.ended` stop signal to the audience's Android devices (only invitations go as VoIP pushes).
    private func enqueueStopSignals(
        _ tx: StoreTransaction, body: JSONValue, call: CallRecord, audience: EventAudience, nowMs: Int64
    ) throws {
        for registration in try tx.registrations(ofUser: audience.userId)
        where audience.includes(installationId: registration.installationId) {
            guard registration.kind == .fcm || defects.contains(.voipStopSignal) else { continue }
            try tx.enqueuePush(
                purpose: .stopSignal, callId: call.callId, registration: registration,
                payload: defects.contains(.bareStopSignal) ? CallxMessages.bare(body) : body,
                validUntilMs: call.expiresAtMs, nowMs: nowMs)
        }
    }

    // MARK: Expiry

    /// Ends every ringing call past its deadline as unanswered; returns how many it ended.
    @discardableResult
    public func expireDueCalls() throws -> Int {
        let now = clock()
        let expired = try store.transaction { tx in
            var count = 0
            for callId in try tx.ringingCallsDue(nowMs: now) {
                guard let call = try tx.call(callId) else { continue }
                if let transition = lifecycle.expireIfDue(call, nowMs: now) {
                    try persist(tx, transition, nowMs: now)
                    count += 1
                }
            }
            return count
        }
        if expired > 0 { outboxSignal.notify() }
        return expired
    }

    // MARK: Housekeeping

    /// Deletes idempotency records and finished push jobs past their retention. Calls are kept
    /// forever, so no delayed create can ever make an ended call ring again.
    public func purgeHistory() throws {
        let now = clock()
        try store.transaction { tx in
            try tx.db.execute(
                "DELETE FROM idempotency_records WHERE created_at_ms < ?",
                [.integer(now - Int64(configuration.idempotencyRetentionSeconds) * 1000)])
            try tx.db.execute(
                "DELETE FROM push_jobs WHERE status NOT IN ('pending', 'sending') AND updated_at_ms < ?",
                [.integer(now - Int64(configuration.finishedPushRetentionSeconds) * 1000)])
        }
    }
}
