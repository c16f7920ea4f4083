/// Who receives one event: the devices of one user, optionally narrowed to one installation or
/// excluding one installation.
public struct EventAudience: Sendable, Equatable {
    public var userId: String
    /// Only this installation hears it.
    public var onlyInstallationId: String?
    /// Every installation but this one hears it.
    public var exceptInstallationId: String?

    public init(userId: String, only: String? = nil, except: String? = nil) {
        self.userId = userId
        self.onlyInstallationId = only
        self.exceptInstallationId = except
    }

    /// Whether installation `id` of this user is in the audience.
    public func includes(installationId id: String) -> Bool {
        if let onlyInstallationId, onlyInstallationId != id { return false }
        if let exceptInstallationId, exceptInstallationId == id { return false }
        return true
    }
}

/// An event the lifecycle decided to deliver; the store gives it an eventId and a cursor.
public struct PlannedEvent: Sendable, Equatable {
    public enum Kind: String, Sendable, Equatable {
        case accepted = "call.accepted"
        case ended = "call.ended"
    }

    public var kind: Kind
    public var audience: EventAudience
    public var reason: EndReason?
    public var answeredByInstallationId: String?
    /// Also send it as an Android stop signal (FCM, normal priority) to the audience's FCM
    /// devices: only for calls that stop ringing, so a killed app stops ringing too.
    public var stopSignal: Bool
}

/// A request to change a call.
public enum CallCommand: Sendable, Equatable {
    /// Installation `installationId` of the callee answers.
    case answer(installationId: String)
    /// One side ends the call; `installationId` names the device that did, when known.
    case end(by: CallParty, reason: EndReason, installationId: String?)
    /// The ring deadline passed.
    case expire
}

/// Why a command changed nothing.
public enum CallRejection: Sendable, Equatable {
    /// Answered by another installation (or answered at all when answering was attempted late).
    case alreadyAnswered
    /// The call has ended.
    case ended
    /// The call is past its ring deadline (and has been ended as unanswered).
    case expired
    /// Nothing to do (expire on a call that is not ringing or not yet due).
    case notDue
}

/// The result of applying a command.
public enum CallTransition: Sendable, Equatable {
    /// The call changed: store `call` (revision already incremented), deliver `events`, and
    /// cancel unsent invitations when `cancelInvitations`.
    case changed(call: CallRecord, events: [PlannedEvent], cancelInvitations: Bool)
    /// Nothing changed and the request succeeds (a repeated answer by the winner, an end on an
    /// ended call).
    case unchanged(CallRecord)
    /// Nothing changed and the request is refused.
    case rejected(CallRejection, CallRecord)
}

/// The call lifecycle and answer arbitration as a pure state machine: ringing → accepted →
/// ended, or ringing → ended. No I/O; the store applies the result in one transaction.
public struct CallLifecycle: Sendable {
    public var defects: Set<CallxDefect>

    public init(defects: Set<CallxDefect> = []) { self.defects = defects }

    /// Applies `command` to `call` at time `nowMs`.
    public func apply(_ command: CallCommand, to call: CallRecord, nowMs: Int64) -> CallTransition {
        switch command {
        case .answer(let installationId): return answer(call, installationId: installationId, nowMs: nowMs)
        case .end(let party, let reason, let installationId):
            return end(call, by: party, reason: reason, installationId: installationId, nowMs: nowMs)
        case .expire: return expire(call, nowMs: nowMs)
        }
    }

    /// The expiry transition when the call is ringing past its deadline, else nil.
    public func expireIfDue(_ call: CallRecord, nowMs: Int64) -> CallTransition? {
        let transition = expire(call, nowMs: nowMs)
        if case .changed = transition { return transition }
        return nil
    }

    // MARK: Transitions

    private func answer(_ call: CallRecord, installationId: String, nowMs: Int64) -> CallTransition {
        switch call.state {
        case .ringing:
            guard nowMs < call.expiresAtMs else { return .rejected(.expired, call) }
            var next = bumped(call)
            next.state = .accepted
            next.winningInstallationId = installationId
            return .changed(
                call: next, events: acceptedEvents(next, winner: installationId), cancelInvitations: true)
        case .accepted:
            if call.winningInstallationId == installationId { return .unchanged(call) }
            if defects.contains(.lateAnswerWins) {
                var next = bumped(call)
                next.winningInstallationId = installationId
                return .changed(
                    call: next, events: acceptedEvents(next, winner: installationId), cancelInvitations: true)
            }
            return .rejected(.alreadyAnswered, call)
        case .ended:
            return .rejected(call.endReason == .unanswered ? .expired : .ended, call)
        }
    }

    private func acceptedEvents(_ call: CallRecord, winner: String) -> [PlannedEvent] {
        [
            PlannedEvent(
                kind: .accepted, audience: EventAudience(userId: call.callerUserId), reason: nil,
                answeredByInstallationId: winner, stopSignal: false),
            PlannedEvent(
                kind: .ended, audience: EventAudience(userId: call.calleeUserId, except: winner),
                reason: .answeredElsewhere, answeredByInstallationId: nil, stopSignal: true),
        ]
    }

    private func end(
        _ call: CallRecord, by party: CallParty, reason: EndReason, installationId: String?, nowMs: Int64
    ) -> CallTransition {
        var next = bumped(call)
        next.state = .ended
        next.endedAtMs = nowMs
        next.endReason = defects.contains(.endReasonNotStored) ? .remoteEnded : reason
        next.endedBy = party
        let caller = call.callerUserId
        let callee = call.calleeUserId
        switch (call.state, party) {
        case (.ended, _):
            return .unchanged(call)
        case (.ringing, _) where reason == .unanswered:
            // A device's own ring timeout: the same as expiry for both sides.
            return .changed(call: next, events: unansweredEvents(call), cancelInvitations: true)
        case (.ringing, .caller):
            return .changed(
                call: next,
                events: [ended(callee, reason: .callerCancelled, stopSignal: true)],
                cancelInvitations: true)
        case (.ringing, .callee):
            return .changed(
                call: next,
                events: [
                    ended(caller, reason: reason == .busy ? .busy : .declined),
                    ended(callee, except: installationId, reason: .declinedElsewhere, stopSignal: true),
                ],
                cancelInvitations: true)
        case (.accepted, .caller):
            return .changed(
                call: next, events: [ended(callee, only: call.winningInstallationId, reason: .remoteEnded)],
                cancelInvitations: false)
        case (.accepted, .callee):
            return .changed(call: next, events: [ended(caller, reason: .remoteEnded)], cancelInvitations: false)
        }
    }

    private func expire(_ call: CallRecord, nowMs: Int64) -> CallTransition {
        guard call.state == .ringing, nowMs >= call.expiresAtMs else { return .rejected(.notDue, call) }
        var next = bumped(call)
        next.state = .ended
        next.endedAtMs = call.expiresAtMs
        next.endReason = .unanswered
        next.endedBy = nil
        return .changed(call: next, events: unansweredEvents(call), cancelInvitations: true)
    }

    private func unansweredEvents(_ call: CallRecord) -> [PlannedEvent] {
        [
            ended(call.callerUserId, reason: .unanswered),
            ended(call.calleeUserId, reason: .unanswered, stopSignal: true),
        ]
    }

    // MARK: Helpers

    private func bumped(_ call: CallRecord) -> CallRecord {
        var next = call
        if !defects.contains(.revisionNotIncremented) { next.revision += 1 }
        return next
    }

    private func ended(
        _ userId: String, only: String? = nil, except: String? = nil, reason: EndReason, stopSignal: Bool = false
    ) -> PlannedEvent {
        PlannedEvent(
            kind: .ended, audience: EventAudience(userId: userId, only: only, except: except), reason: reason,
            answeredByInstallationId: nil, stopSignal: stopSignal)
    }
}
