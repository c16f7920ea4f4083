import Callx
import Conformance
import Foundation
import Reports
import Testing

/// `HistoryChecker` over hand-built histories: each rule holds on a clean history and names the call
/// on one with exactly that defect.
@Suite struct HistoryCheckerTests {
    /// Callx's catalogue's levels, as a load run charges at them.
    static let levels = (try? RequirementCatalogue.embeddedLevels(of: CallxProfile())) ?? [:]
    static let feedA = "a-caller"
    static let phone = "b-phone"
    static let tablet = "b-tablet"

    static func call(_ id: String = "c1", expiresAtMs: Int64? = 100_000) -> LoadCall {
        LoadCall(callId: id, script: "race", callerFeed: feedA, calleeFeeds: [phone, tablet], expiresAtMs: expiresAtMs)
    }

    static func op(
        _ kind: LoadOperation.Kind, _ callId: String = "c1", from installation: String? = nil, opId: String? = nil,
        retry: Bool = false, at t: Int64, status: Int? = 200, error: String? = nil, state: String? = nil,
        winner: String? = nil
    ) -> LoadOperation {
        LoadOperation(
            kind: kind, callId: callId, installationId: installation, operationId: opId, isRetry: retry, invokeMs: t,
            completeMs: t + 5, status: status, error: error, state: state, winner: winner)
    }

    static func event(
        _ id: String, _ type: String, rev: Int64, callId: String = "c1", by: String? = nil, reason: String? = nil
    ) -> FeedEntry {
        .event(FeedEvent(eventId: id, callId: callId, type: type, revision: rev, answeredBy: by, reason: reason))
    }

    static func invite(_ seq: Int, to device: String, eventId: String, issued: Int64?, arrival: Int64) -> LoadPush {
        LoadPush(
            sequence: seq, callId: "c1", device: device, type: "call.invited", eventId: eventId, revision: 1,
            issuedAtMs: issued, arrivalMs: arrival)
    }

    /// A race won by the phone, the tablet refused, the caller hanging up; a create retried with its outcome.
    static var clean: LoadHistory {
        LoadHistory(
            calls: [call()],
            operations: [
                op(.create, opId: "o1", at: 1_000, state: "ringing"),
                op(.create, opId: "o1", retry: true, at: 1_010, state: "ringing"),
                op(.answer, from: phone, opId: "o2", at: 1_200, state: "accepted", winner: phone),
                op(
                    .answer, from: tablet, opId: "o3", at: 1_201, status: 409, error: "call_already_answered",
                    state: "accepted", winner: phone),
                op(.end, opId: "o4", at: 1_500, state: "ended"),
            ],
            pushes: [
                invite(1, to: phone, eventId: "e1", issued: 1_002, arrival: 1_004),
                invite(2, to: tablet, eventId: "e2", issued: 1_002, arrival: 1_005),
                // Sent just before the answer landed: in flight, not after the end.
                invite(3, to: "b-ipad", eventId: "e3", issued: 1_203, arrival: 1_900),
            ],
            feeds: [
                feedA: [event("v1", "call.accepted", rev: 2, by: phone), event("v2", "call.ended", rev: 3)],
                tablet: [event("v3", "call.ended", rev: 2, reason: "answeredElsewhere")],
            ])
    }

    @Test func aCleanHistoryHasNoViolations() {
        #expect(HistoryChecker.check(Self.clean, levels: Self.levels) == [])
    }

    @Test func twoWinnersAreOneViolationNamingTheCallAndBothInstallations() {
        var h = Self.clean
        h.operations[3] = Self.op(
            .answer, from: Self.tablet, opId: "o3", at: 1_201, state: "accepted", winner: Self.tablet)
        let v = HistoryChecker.check(h, levels: Self.levels)
        #expect(v.map(\.rule) == [.oneWinner])
        #expect(v.first?.callId == "c1")
        #expect(v.first?.requirement == "CALLX-ARB-1")
        #expect(v.first?.message.contains(Self.phone) == true && v.first?.message.contains(Self.tablet) == true)
    }

    @Test func aSecondCallAcceptedEventNamingAnotherWinnerIsOneViolation() {
        var h = Self.clean
        h.feeds[Self.feedA]?.append(Self.event("v9", "call.accepted", rev: 4, by: Self.tablet))
        #expect(HistoryChecker.check(h, levels: Self.levels).map(\.rule) == [.oneWinner])
    }

    @Test func aRetriedCreateThatGetsAConflictBreaksIdempotency() {
        var h = Self.clean
        h.operations[1] = Self.op(.create, opId: "o1", retry: true, at: 1_010, status: 409, error: "call_exists")
        let v = HistoryChecker.check(h, levels: Self.levels)
        #expect(v.map(\.rule) == [.retryOutcome])
        #expect(v.first?.requirement == "CALLX-IDEM-1")
        #expect(v.first?.message.contains("409 call_exists") == true)
    }

    @Test func aRetryOfARequestThatGotNoAnswerIsNotJudged() {
        var h = Self.clean
        h.operations[0].status = nil
        h.operations[1] = Self.op(.create, opId: "o1", retry: true, at: 1_010, status: 409, error: "call_exists")
        #expect(HistoryChecker.check(h, levels: Self.levels) == [])
    }

    @Test func aSecondInvitationWithAnotherEventIdToOneDeviceIsOneViolation() {
        var h = Self.clean
        h.pushes.append(Self.invite(4, to: Self.phone, eventId: "e4", issued: 1_011, arrival: 1_013))
        h.pushes.append(Self.invite(5, to: Self.phone, eventId: "e5", issued: 1_012, arrival: 1_014))
        let v = HistoryChecker.check(h, levels: Self.levels)
        #expect(v.map(\.rule) == [.oneInvitation])
        #expect(v.first?.requirement == "CALLX-OUTBOX-4")
    }

    @Test func aRepeatWithTheSameEventIdOrARejectedPushIsNoSecondInvitation() {
        var h = Self.clean
        h.pushes.append(Self.invite(4, to: Self.phone, eventId: "e1", issued: 1_011, arrival: 1_013))
        var rejected = Self.invite(5, to: Self.tablet, eventId: "e9", issued: 1_012, arrival: 1_014)
        rejected.accepted = false
        h.pushes.append(rejected)
        #expect(HistoryChecker.check(h, levels: Self.levels) == [])
    }

    @Test func anInvitationWhoseSendBeganAfterTheEndPlusTheMarginIsLate() {
        var h = Self.clean
        // The answer completed at 1_205: a send that began at 2_206 started after the end was known.
        h.pushes[2] = Self.invite(3, to: "b-ipad", eventId: "e3", issued: 2_206, arrival: 2_210)
        let v = HistoryChecker.check(h, levels: Self.levels)
        #expect(v.map(\.rule) == [.invitationAfterEnd])
        #expect(v.first?.requirement == "CALLX-EXP-2")
        // Within the margin it could have been in flight.
        h.pushes[2] = Self.invite(3, to: "b-ipad", eventId: "e3", issued: 2_205, arrival: 9_000)
        #expect(HistoryChecker.check(h, levels: Self.levels) == [])
    }

    @Test func anInvitationWithoutIssuedAtIsJudgedByItsArrival() {
        var h = Self.clean
        h.pushes[2] = Self.invite(3, to: "b-ipad", eventId: "e3", issued: nil, arrival: 2_500)
        #expect(HistoryChecker.check(h, levels: Self.levels).map(\.rule) == [.invitationAfterEnd])
    }

    @Test func anInvitationAfterTheCallExpiredIsLate() {
        var h = Self.clean
        h.calls["c1"]?.expiresAtMs = 1_100
        h.operations.removeSubrange(2...)
        h.feeds = [:]
        h.feedsDrained = false
        h.pushes[2] = Self.invite(3, to: "b-ipad", eventId: "e3", issued: 2_200, arrival: 2_210)
        #expect(HistoryChecker.check(h, levels: Self.levels).map(\.rule) == [.invitationAfterEnd])
    }

    @Test func aDecreasingRevisionInOneFeedIsOutOfOrder() {
        var h = Self.clean
        h.feeds[Self.feedA] = [
            Self.event("v2", "call.ended", rev: 3), Self.event("v1", "call.accepted", rev: 2, by: Self.phone),
        ]
        let v = HistoryChecker.check(h, levels: Self.levels)
        #expect(v.map(\.rule) == [.revisionOrder])
        #expect(v.first?.requirement == "CALLX-EVT-3")
    }

    @Test func anEventReturnedTwiceWithoutAGapIsADuplicateAndAfterAGapItIsNot() {
        var h = Self.clean
        h.feeds[Self.feedA]?.append(Self.event("v1", "call.accepted", rev: 2, by: Self.phone))
        #expect(HistoryChecker.check(h, levels: Self.levels).map(\.rule) == [.eventOnce])
        h.feeds[Self.feedA]?.insert(.gap(atMs: 1_600), at: 2)
        #expect(HistoryChecker.check(h, levels: Self.levels) == [])
    }

    @Test func anAcceptedEventMissingFromTheCallersFeedWithoutAGapIsSilentLoss() {
        var h = Self.clean
        h.feeds[Self.feedA] = [Self.event("v2", "call.ended", rev: 3)]
        let v = HistoryChecker.check(h, levels: Self.levels)
        #expect(v.map(\.rule) == [.eventDelivered])
        #expect(v.first?.requirement == "CALLX-EVT-7")
        // A feed that said it lost events, or one not read to its end, is not judged for it.
        h.feeds[Self.feedA]?.insert(.gap(atMs: 1_600), at: 0)
        #expect(HistoryChecker.check(h, levels: Self.levels) == [])
        h.feeds[Self.feedA]?.removeFirst()
        h.feedsDrained = false
        #expect(HistoryChecker.check(h, levels: Self.levels) == [])
    }

    @Test func aCancelledCallMustReachEveryCalleeFeed() {
        var h = LoadHistory(
            calls: [Self.call()],
            operations: [
                Self.op(.create, opId: "o1", at: 1_000, state: "ringing"),
                Self.op(.end, opId: "o2", at: 1_100, state: "ended"),
            ],
            feeds: [Self.phone: [Self.event("v1", "call.ended", rev: 2, reason: "callerCancelled")]])
        let v = HistoryChecker.check(h, levels: Self.levels)
        #expect(v.map(\.rule) == [.eventDelivered])
        #expect(v.first?.message.contains(Self.tablet) == true)
        h.feeds[Self.tablet] = [Self.event("v2", "call.ended", rev: 2, reason: "callerCancelled")]
        #expect(HistoryChecker.check(h, levels: Self.levels) == [])
    }

    /// A history rule charges its requirement at the level Callx's catalogue gives it, not one of its own: the
    /// shipped catalogue's levels (unchanged: MUST for one winner, SHOULD for a repeated event), and another
    /// catalogue's when it levels them otherwise.
    @Test func aHistoryRulesLevelFollowsTheCatalogue() {
        var twoWinners = Self.clean
        twoWinners.operations[3] = Self.op(
            .answer, from: Self.tablet, opId: "o3", at: 1_201, state: "accepted", winner: Self.tablet)
        var repeated = Self.clean
        repeated.feeds[Self.feedA]?.append(Self.event("v1", "call.accepted", rev: 2, by: Self.phone))
        let shipped =
            HistoryChecker.check(twoWinners, levels: Self.levels) + HistoryChecker.check(repeated, levels: Self.levels)
        #expect(shipped.map(\.requirement) == ["CALLX-ARB-1", "CALLX-EVT-6"])
        #expect(shipped.map(\.level) == [.must, .should])
        let swapped: [String: RequirementLevel] = ["CALLX-ARB-1": .should, "CALLX-EVT-6": .must]
        let other = HistoryChecker.check(twoWinners, levels: swapped) + HistoryChecker.check(repeated, levels: swapped)
        #expect(other.map(\.level) == [.should, .must])
        // Every requirement a history rule charges is in the shipped catalogue, at the level the rules once set.
        let charged: [String: RequirementLevel] = [
            "CALLX-ARB-1": .must, "CALLX-IDEM-1": .must, "CALLX-IDEM-2": .must, "CALLX-IDEM-3": .must,
            "CALLX-EVT-3": .should, "CALLX-EVT-6": .should, "CALLX-EVT-7": .must, "CALLX-OUTBOX-4": .must,
            "CALLX-EXP-2": .must,
        ]
        for (id, level) in charged { #expect(Self.levels[id] == level, "\(id)") }
    }
}

/// `/proc/<pid>/stat` and `status` as the load figures read them.
@Suite struct ProcessUsageTests {
    @Test func cpuTimeAndResidentMemoryComeFromTheirFields() throws {
        // A command name with a space, as the kernel allows: fields count from the last parenthesis.
        let stat = "4242 (ring check) S 1 4242 4242 0 -1 4194304 900 0 0 0 250 50 0 0 20 0 5 0 100 1000 2000"
        let status = "Name:\tring check\nVmPeak:\t  90000 kB\nVmRSS:\t   45678 kB\nThreads:\t5\n"
        let usage = try #require(ProcessUsage.parse(stat: stat, status: status, ticksPerSecond: 100))
        #expect(usage.cpuSeconds == 3.0)
        #expect(usage.rssKiB == 45678)
        #expect(ProcessUsage.parse(stat: "garbage", status: status, ticksPerSecond: 100) == nil)
    }

    @Test func thisProcessCanBeRead() throws {
        let usage = try #require(ProcessUsage.read(pid: getpid()))
        #expect(usage.rssKiB > 0)
    }
}

extension HistoryCheckerTests {
    @Test func aRepeatOfAnInvitationIsJudgedByItsArrivalNotItsSendTime() {
        var h = Self.clean
        // e3's first send began before the answer completed (1_205) and arrived long after: in flight.
        h.pushes[2] = Self.invite(3, to: "b-ipad", eventId: "e3", issued: 1_203, arrival: 9_000)
        #expect(HistoryChecker.check(h, levels: Self.levels) == [])
        #expect(HistoryChecker.inFlightInvitations(h) == [3])
        // The same message sent again and arriving after the end plus the margin was not in flight.
        h.pushes.append(Self.invite(4, to: "b-ipad", eventId: "e3", issued: 1_203, arrival: 2_300))
        let v = HistoryChecker.check(h, levels: Self.levels)
        #expect(v.map(\.rule) == [.invitationAfterEnd])
        #expect(v.first?.message.contains("a repeat") == true)
        #expect(HistoryChecker.inFlightInvitations(h) == [3])
    }

    /// A backend clock ahead of ours stamps `issuedAtMs` after the arrival: the arrival, in time, is what
    /// counts, or a conforming backend would be judged late.
    @Test func anIssuedAtMsLaterThanTheArrivalDoesNotMakeAnInvitationLate() {
        var h = Self.clean
        h.pushes[2] = Self.invite(3, to: "b-ipad", eventId: "e3", issued: 6_000, arrival: 1_100)
        #expect(HistoryChecker.check(h, levels: Self.levels) == [])
        #expect(HistoryChecker.inFlightInvitations(h).isEmpty)
    }

    /// Built before the call stopped ringing but arriving more than `inFlightIssuedBoundMs` after it: stuck,
    /// not in flight, and judged by its arrival (as the suite judges CALLX-EXP-2).
    @Test func anInvitationStuckPastTheBoundIsJudgedByItsArrival() {
        var h = Self.clean
        h.pushes[2] = Self.invite(3, to: "b-ipad", eventId: "e3", issued: 1_203, arrival: 1_205 + 15_000)
        #expect(HistoryChecker.check(h, levels: Self.levels) == [])
        h.pushes[2] = Self.invite(3, to: "b-ipad", eventId: "e3", issued: 1_203, arrival: 1_205 + 15_001)
        let v = HistoryChecker.check(h, levels: Self.levels)
        #expect(v.map(\.rule) == [.invitationAfterEnd])
        #expect(v.first?.message.contains("it arrived at 16206") == true, "\(v)")
        #expect(HistoryChecker.inFlightInvitations(h).isEmpty)
    }
}
