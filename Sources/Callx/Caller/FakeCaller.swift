import Conformance
import Foundation
import HTTP
import JSON
import PushMocks

/// Plays user A against a backend: registers the callee's virtual devices (if any), creates a
/// call, follows it live (the caller's event feed, the call's snapshot, and the pushes ringcheck's
/// mocks receive when the backend sends them there), cancels, hangs up or gives up as planned, and
/// judges how the call went.
///
/// Everything it learns goes to `emit` as timeline entries, in the order it learned it.
public actor FakeCaller {
    let target: Target
    /// ringcheck's mocks when the backend sends its pushes to them; nil when they are not in play.
    let mocks: MockStack?
    let plan: FakeCallPlan
    let emit: @Sendable (CallTimelineEntry) -> Void
    let client: HTTPClient
    /// The call's ID, chosen here (a fresh UUID) before the call exists.
    public let callId: String

    var progress: CallProgress
    /// Where the timeline's clock starts (the run's start), on both clocks.
    var started = ContinuousClock.now
    var startedWallMs = FakeCaller.wallMs()
    /// When the create request was sent: the plan's times count from here.
    var createdAt = ContinuousClock.now
    var feedCursor: String?
    var feedWorks = true
    var seenEventIds: Set<String> = []
    var interrupted = false
    var answeredAt: ContinuousClock.Instant?
    var virtualAnswered = false
    var endRequested = false
    var endAttempts = 0
    var endOperationId = ""
    var consecutiveFailures = 0
    /// Set when the run cannot reach a verdict (the backend went away, our end was never taken).
    var stopReason: String?
    /// The tokens this run registered, oldest first, with what each registration's answer saved for its
    /// delete (`removeDevices`).
    var registered: [RegisteredDevice] = []

    /// A caller for `target` following `plan`; `emit` receives the timeline.
    public init(
        target: Target, mocks: MockStack?, plan: FakeCallPlan, emit: @escaping @Sendable (CallTimelineEntry) -> Void
    ) throws {
        self.target = target
        self.mocks = mocks
        self.plan = plan
        self.emit = emit
        let id = RandomText.uuid()
        callId = id
        progress = CallProgress(callId: id)
        client = try target.makeClient()
    }

    // MARK: Running

    /// Places the call and follows it to its end. `interruption` returns when the user asks to stop
    /// (Ctrl-C): a ringing call is then cancelled, an answered one hung up.
    public func run(interruption: (@Sendable () async -> Void)? = nil) async -> FakeCallResult {
        defer { client.shutdown() }
        started = .now
        startedWallMs = Self.wallMs()
        let result = await placeAndFollow(interruption: interruption)
        await removeDevices()
        return result
    }

    /// `run` between registering the devices and removing them.
    private func placeAndFollow(interruption: (@Sendable () async -> Void)?) async -> FakeCallResult {
        if let failure = await registerDevices() { return inconclusive(failure) }
        await primeFeed()
        let bookmark = mocks?.log.lastSequence ?? 0
        createdAt = .now
        if let failure = await createCall() { return inconclusive(failure) }
        if let interruption {
            // Not a child task: waiting for a signal cannot be cancelled, and the call must not wait for it.
            Task { [weak self] in
                await interruption()
                await self?.interrupt()
            }
        }
        await withTaskGroup(of: Void.self) { group in
            if mocks != nil { group.addTask { await self.watchPushes(after: bookmark) } }
            if plan.response != nil { group.addTask { await self.respond() } }
            await control()
            group.cancelAll()
        }
        var result = FakeCallResult.judge(progress, duration: elapsed, interrupted: interrupted)
        if let stopReason, result.outcome != .misbehaved {
            result.outcome = .inconclusive
            result.detail = stopReason
        }
        return result
    }

    func interrupt() {
        guard !interrupted else { return }
        interrupted = true
        note("interrupted: " + (progress.state == .ringing ? "cancelling the call" : "ending the call"))
    }

    /// Follows the call until it ended (or cannot be followed), acting on the plan, then watches a
    /// little longer for trailing pushes and events.
    private func control() async {
        var lastSnapshot = ContinuousClock.now
        while progress.state != .ended && stopReason == nil {
            await pollFeed()
            if !feedWorks || ContinuousClock.now - lastSnapshot >= .seconds(1) {
                await pollSnapshot()
                lastSnapshot = .now
            }
            guard progress.state != .ended else { break }
            await act()
            if progress.state == .ended || stopReason != nil { break }
            try? await Task.sleep(for: plan.pollInterval)
        }
        let settleUntil = ContinuousClock.now + plan.settleTime
        while ContinuousClock.now < settleUntil && stopReason == nil {
            try? await Task.sleep(for: plan.pollInterval)
            await pollFeed()
        }
        if stopReason == nil { await pollSnapshot() }
    }

    /// What the plan says to do now.
    private func act() async {
        if endRequested {
            // Our end was not taken (an error, or a snapshot still not ended): try again, a few times.
            guard endAttempts < 3 else {
                if progress.state != .ended {
                    stopReason = "the call did not end after \(endAttempts) end requests"
                }
                return
            }
            if let reason = progress.ourEndReason { await end(reason: reason, why: "retrying the end") }
            return
        }
        if interrupted {
            await end(
                reason: progress.state == .ringing ? "callerCancelled" : "remoteEnded", why: "interrupted")
            return
        }
        let elapsedNow = ContinuousClock.now - createdAt
        switch progress.state {
        case .ringing:
            if let cancel = plan.cancelAfter, elapsedNow >= cancel {
                await end(reason: "callerCancelled", why: "cancelling after \(Self.durationText(cancel))")
            } else if let giveUp = plan.giveUpAfter {
                if elapsedNow >= giveUp {
                    await end(reason: "unanswered", why: "giving up after \(Self.durationText(giveUp))")
                }
            } else if let expires = progress.expiresAtMs {
                let graceMs = Int64(plan.expiryGrace.components.seconds * 1000)
                // In Double: the backend's expiresAtMs may be anything, and Int64 overflow would trap.
                if Double(Self.wallMs()) > Double(expires) + Double(graceMs) {
                    let late = (Double(Self.wallMs()) - Double(expires)) / 1000
                    emitChange(
                        progress.addFinding(
                            "the call was still ringing \(String(format: "%.1f", late)) s after its expiresAtMs"))
                    await end(reason: "unanswered", why: "giving up: the backend did not end the call at its expiry")
                }
            } else if elapsedNow >= plan.defaultGiveUp {
                await end(reason: "unanswered", why: "giving up after \(Self.durationText(plan.defaultGiveUp))")
            }
        case .accepted:
            let hangup = plan.hangupAfter ?? (virtualAnswered ? plan.virtualHangupAfter : nil)
            if let hangup, let answeredAt, ContinuousClock.now - answeredAt >= hangup {
                await end(reason: "remoteEnded", why: "hanging up after \(Self.durationText(hangup)) of talk")
            }
        case .ended:
            break
        }
    }

    // MARK: Timeline

    var elapsed: Double { Self.seconds(ContinuousClock.now - started) }

    /// Emits a line stamped now, or at `atMs` (ringcheck's wall clock) for things that happened
    /// earlier than we learned of them (a push's arrival).
    func entry(
        _ kind: CallTimelineEntry.Kind, _ message: String, _ fields: [(key: String, value: JSONValue)] = [],
        at atMs: Int64? = nil
    ) {
        let t = atMs.map { Double($0 - startedWallMs) / 1000 } ?? elapsed
        emit(CallTimelineEntry(elapsed: t, kind: kind, message: message, fields: fields))
    }

    func note(_ message: String) { entry(.note, message) }

    /// Applies an observation and puts what changed on the timeline.
    func observe(_ observation: CallObservation) {
        for change in progress.observe(observation, nowMs: Self.wallMs()) { emitChange(change) }
    }

    func emitChange(_ change: CallChange) {
        switch change {
        case .answered(let installation, let afterMs):
            answeredAt = .now
            let device = plan.calleeDevices.first { $0.installationId == installation }.map { " (\($0.name))" } ?? ""
            let after = afterMs.map { String(format: " after %.2fs", Double($0) / 1000) } ?? ""
            var fields: [(key: String, value: JSONValue)] = [("installationId", .string(installation))]
            if let afterMs { fields.append(("afterMs", .int(afterMs))) }
            entry(.answered, "answered by installation \(installation)\(device)\(after)", fields)
        case .ended(let reason, let by):
            entry(
                .ended, "ended: \(reason) by \(by.rawValue)",
                [("reason", .string(reason)), ("by", .string(by.rawValue))])
        case .finding(let text):
            entry(.finding, "backend misbehaved: \(text)", [("finding", .string(text))])
        }
    }

    private func inconclusive(_ detail: String) -> FakeCallResult {
        FakeCallResult(
            outcome: .inconclusive, detail: detail, callId: callId, duration: elapsed, interrupted: interrupted)
    }

    static func wallMs() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }

    static func durationText(_ d: Duration) -> String {
        let s = seconds(d)
        return s == s.rounded() ? "\(Int(s))s" : String(format: "%.1fs", s)
    }
}
