import Testing

@testable import ReferenceBackend

@Suite struct CallLifecycleTests {
    let lifecycle = CallLifecycle()
    let ringing = CallRecord(
        callId: "c1", callerUserId: "user-a", callerDisplayName: "Alex", callerHandle: "callx:user-a",
        calleeUserId: "user-b", createdAtMs: 1_000, expiresAtMs: 31_000)

    @Test func answerWhileRingingWins() {
        guard
            case .changed(let call, let events, let cancel) = lifecycle.apply(
                .answer(installationId: "b1"), to: ringing, nowMs: 2_000)
        else { Issue.record("no change"); return }
        #expect(call.state == .accepted)
        #expect(call.winningInstallationId == "b1")
        #expect(call.revision == 2)
        #expect(cancel)
        #expect(
            events == [
                PlannedEvent(
                    kind: .accepted, audience: EventAudience(userId: "user-a"), reason: nil,
                    answeredByInstallationId: "b1", stopSignal: false),
                PlannedEvent(
                    kind: .ended, audience: EventAudience(userId: "user-b", except: "b1"), reason: .answeredElsewhere,
                    answeredByInstallationId: nil, stopSignal: true),
            ])
    }

    @Test func laterAnswersAreRejectedButTheWinnerMayRepeat() {
        guard
            case .changed(let accepted, _, _) = lifecycle.apply(
                .answer(installationId: "b1"), to: ringing, nowMs: 2_000)
        else { Issue.record("no change"); return }
        #expect(
            lifecycle.apply(.answer(installationId: "b2"), to: accepted, nowMs: 3_000)
                == .rejected(.alreadyAnswered, accepted))
        #expect(lifecycle.apply(.answer(installationId: "b1"), to: accepted, nowMs: 3_000) == .unchanged(accepted))
    }

    @Test func answerAfterDeadlineIsRejected() {
        #expect(
            lifecycle.apply(.answer(installationId: "b1"), to: ringing, nowMs: 31_000) == .rejected(.expired, ringing))
    }

    @Test func expiryEndsRingingCallsUnansweredForBothSides() {
        #expect(lifecycle.expireIfDue(ringing, nowMs: 30_999) == nil)
        guard case .changed(let call, let events, _) = lifecycle.expireIfDue(ringing, nowMs: 31_000) else {
            Issue.record("not expired"); return
        }
        #expect(call.state == .ended)
        #expect(call.endReason == .unanswered)
        #expect(call.endedAtMs == 31_000)
        #expect(Set(events.map(\.audience.userId)) == ["user-a", "user-b"])
        #expect(events.allSatisfy { $0.reason == .unanswered && $0.kind == .ended })
    }

    @Test func whoHearsWhatWhenACallEnds() {
        func events(_ command: CallCommand, on call: CallRecord) -> [PlannedEvent] {
            guard case .changed(_, let events, _) = lifecycle.apply(command, to: call, nowMs: 5_000) else { return [] }
            return events
        }
        // Caller cancels while ringing: every callee device hears callerCancelled.
        #expect(
            events(.end(by: .caller, reason: .callerCancelled, installationId: nil), on: ringing).map {
                [$0.audience.userId, $0.reason?.rawValue ?? ""]
            } == [["user-b", "callerCancelled"]])
        // Callee declines on b1: the caller hears declined, the other callee devices declinedElsewhere.
        let declined = events(.end(by: .callee, reason: .declined, installationId: "b1"), on: ringing)
        #expect(declined.map(\.reason) == [.declined, .declinedElsewhere])
        #expect(declined[1].audience == EventAudience(userId: "user-b", except: "b1"))
        // After an answer, a hang-up reaches the other party only, as remoteEnded.
        var accepted = ringing
        accepted.state = .accepted
        accepted.winningInstallationId = "b1"
        #expect(
            events(.end(by: .caller, reason: .localHangup, installationId: nil), on: accepted)
                == [
                    PlannedEvent(
                        kind: .ended, audience: EventAudience(userId: "user-b", only: "b1"), reason: .remoteEnded,
                        answeredByInstallationId: nil, stopSignal: false)
                ])
        #expect(
            events(.end(by: .callee, reason: .localHangup, installationId: "b1"), on: accepted).map(\.audience)
                == [EventAudience(userId: "user-a")])
    }

    @Test func endingAnEndedCallChangesNothing() {
        var ended = ringing
        ended.state = .ended
        ended.endReason = .callerCancelled
        #expect(
            lifecycle.apply(.end(by: .callee, reason: .declined, installationId: nil), to: ended, nowMs: 9_000)
                == .unchanged(ended))
        #expect(lifecycle.apply(.answer(installationId: "b1"), to: ended, nowMs: 9_000) == .rejected(.ended, ended))
    }

    @Test func everyChangeIncrementsTheRevision() {
        guard
            case .changed(let accepted, _, _) = lifecycle.apply(
                .answer(installationId: "b1"), to: ringing, nowMs: 2_000),
            case .changed(let ended, _, _) = lifecycle.apply(
                .end(by: .caller, reason: .localHangup, installationId: nil), to: accepted, nowMs: 3_000)
        else { Issue.record("no change"); return }
        #expect([ringing.revision, accepted.revision, ended.revision] == [1, 2, 3])
    }
}
