import Callx
import Conformance
import Foundation
import JSON
import PushMocks
import Synchronization
import TestSupport
import Testing

/// The fake caller in-process, as `--target` uses it: against a backend whose pushes ringcheck may
/// not see, with the caller's own give-up time, and against a backend that is not there.
@Suite struct FakeCallerTests {
    /// Collects the timeline.
    final class Timeline: Sendable {
        let entries = Mutex<[CallTimelineEntry]>([])
        func add(_ e: CallTimelineEntry) { entries.withLock { $0.append(e) } }
        var kinds: [CallTimelineEntry.Kind] { entries.withLock { $0.map(\.kind) } }
        var messages: [String] { entries.withLock { $0.map(\.message) } }
    }

    static func plan(_ stack: EngineTestStack, run: Int) -> FakeCallPlan {
        let target = stack.engine.target
        return FakeCallPlan(
            caller: target.accounts("a", run)!, callee: target.accounts("b", run)!,
            callerInstallationId: "fake-caller-test-\(run)")
    }

    @Test func withoutMocksAVirtualPhoneAnswersAfterTheCreateAndTheCallerHangsUp() async throws {
        // A 20 s ring: the phone's answer 0.3 s in comes first even on a machine busy enough to starve it.
        let stack = try await EngineTestStack.start(runs: 3, ringSeconds: 20)
        var plan = Self.plan(stack, run: 1)
        plan.calleeDevices = VirtualCallee.pair(prefix: VirtualCallee.freshPrefix("t"))
        plan.response = VirtualResponse(action: .answer, device: "phone", after: .milliseconds(300))
        plan.hangupAfter = .milliseconds(300)
        plan.settleTime = .milliseconds(200)
        let timeline = Timeline()
        let caller = try FakeCaller(target: stack.engine.target, mocks: nil, plan: plan) { timeline.add($0) }
        let result = await caller.run()
        await stack.stop()
        #expect(result.outcome == .answered, "\(timeline.messages)")
        #expect(result.answeredBy == plan.calleeDevices[0].installationId)
        #expect(result.endReason == "remoteEnded")
        #expect(result.endedBy == .caller)
        // Without the mocks no push is on the timeline, yet the call is followed through the feed.
        #expect(!timeline.kinds.contains(.push))
        #expect(timeline.kinds.contains(.event))
        #expect((result.answeredAfterMs ?? 0) >= 300)
    }

    @Test func theCallersOwnGiveUpEndsTheCallAsUnanswered() async throws {
        // A 20 s ring: the caller's 0.8 s give-up comes first even on a machine busy enough to starve it.
        let stack = try await EngineTestStack.start(runs: 3, ringSeconds: 20)
        var plan = Self.plan(stack, run: 2)
        plan.giveUpAfter = .milliseconds(800)
        plan.settleTime = .milliseconds(200)
        let timeline = Timeline()
        let caller = try FakeCaller(target: stack.engine.target, mocks: stack.mocks, plan: plan) { timeline.add($0) }
        let result = await caller.run()
        await stack.stop()
        #expect(result.outcome == .unanswered, "\(timeline.messages)")
        #expect(result.endedBy == .caller)
        #expect(result.endReason == "unanswered")
        // Ended by the caller, not by the backend's 4 s expiry: the caller did not wait for the ring time.
        #expect(timeline.messages.contains { $0.hasPrefix("giving up after 0.8s") }, "\(timeline.messages)")
    }

    /// With the defect the retry lands after the cancel and is a finding; without it the backend drops the
    /// retry and the call is simply cancelled.
    @Test(arguments: [true, false]) func anInvitationRetriedAfterTheCancelIsCaughtAsMisbehaviour(defect: Bool)
        async throws
    {
        // The phone's first attempt gets a 503 with Retry-After 4, so a retry lands well after the cancel,
        // past the caller's 1 s in-flight margin even when a starved machine answers the cancel 2 s late
        // (with Retry-After 2 it once landed 0.5 s after the caller learned of the end, and was taken for
        // a push in flight). A 20 s ring: the retry stays within the call's validity.
        let stack = try await EngineTestStack.start(
            defects: defect ? [.inviteAfterCancel] : [], runs: 4, ringSeconds: 20)
        var plan = Self.plan(stack, run: 3)
        // The phone alone: a tablet's first invitation, in flight when the cancel lands, reached the mock
        // more than the 1 s in-flight margin later on a loaded CI machine, and is not what this checks.
        plan.calleeDevices = Array(VirtualCallee.pair(prefix: VirtualCallee.freshPrefix("t")).prefix(1))
        plan.cancelAfter = .milliseconds(300)
        // Watch long enough for the retry (Retry-After 4 s) even on a busy machine: in a full test run beside
        // two busy loops, with 9 s the retry came after the caller had stopped watching, and with 25 s once
        // when three whole-suite runs shared this process. With the defect the watch waits for something
        // that comes, so it may be long; without it, nothing comes whatever the wait.
        plan.settleTime = defect ? .seconds(90) : .milliseconds(25_000)
        _ = try stack.mocks.faults.install(
            FaultPlan(
                mock: .apns, deviceToken: plan.calleeDevices[0].token, times: 1,
                respond: FaultResponse(status: 503, reason: "ServiceUnavailable"), retryAfter: 4))
        let timeline = Timeline()
        let caller = try FakeCaller(target: stack.engine.target, mocks: stack.mocks, plan: plan) { timeline.add($0) }
        let result = await caller.run()
        await stack.stop()
        #expect(result.invitationsRejected == 1)
        #expect(
            timeline.messages.contains {
                $0.hasPrefix("APNs sandbox rejected invitation to phone: ServiceUnavailable (503)")
            })
        if defect {
            #expect(result.outcome == .misbehaved, "\(timeline.messages)")
            #expect(result.findings.contains { $0.contains("an invitation reached phone") }, "\(result.findings)")
        } else {
            #expect(result.outcome == .cancelled, "\(timeline.messages)")
            #expect(result.invitationsAccepted == 0)
        }
    }

    /// The tokens a call registered are deleted once it is over (unless kept): a second call to the same
    /// callee then rings only the device registered for it, not the first call's.
    @Test(arguments: [true, false]) func theCallsDevicesAreRemovedOnceItIsOverUnlessKept(remove: Bool) async throws {
        let stack = try await EngineTestStack.start(runs: 2, ringSeconds: 20)
        var first = Self.plan(stack, run: remove ? 0 : 1)
        first.calleeDevices = VirtualCallee.pair(prefix: VirtualCallee.freshPrefix("t"))
        first.registerCallerInstallation()
        first.cancelAfter = .milliseconds(300)
        first.settleTime = .milliseconds(200)
        first.removesDevicesAfterwards = remove
        let timeline = Timeline()
        let result = await
            (try FakeCaller(target: stack.engine.target, mocks: stack.mocks, plan: first) {
                timeline.add($0)
            }).run()
        #expect(result.outcome == .cancelled, "\(timeline.messages)")
        let removed = timeline.messages.filter { $0.hasPrefix("removed virtual ") }
        #expect(removed.count == (remove ? 3 : 0), "\(timeline.messages)")
        if remove {
            // Newest first: the callee's devices, then the caller's installation.
            #expect(removed.first?.hasPrefix("removed virtual tablet of \(first.callee.userId): DELETE ") == true)
            #expect(removed.last?.hasPrefix("removed virtual installation of \(first.caller.userId)") == true)
            #expect(!timeline.messages.contains { $0.hasPrefix("could not remove") })
        }

        // A second call to the same callee with one new device: once its invitation is in (and a moment
        // more), the first call's devices have had theirs too if the backend still holds their tokens.
        var second = Self.plan(stack, run: remove ? 0 : 1)
        let witness = VirtualCallee.pair(prefix: VirtualCallee.freshPrefix("w"))[0]
        second.calleeDevices = [witness]
        second.giveUpAfter = .seconds(120)
        second.settleTime = .milliseconds(200)
        let bookmark = stack.mocks.log.lastSequence
        let oldTokens = Set(first.calleeDevices.map(\.token))
        let (stop, stopNow) = AsyncStream<Void>.makeStream()
        let secondCaller = try FakeCaller(target: stack.engine.target, mocks: stack.mocks, plan: second) { _ in }
        let call = Task { await secondCaller.run(interruption: { for await _ in stop {} }) }
        let arrived = await stack.mocks.log.waitFor(
            { $0.sequence > bookmark && $0.deviceToken == witness.token }, timeout: .seconds(120))
        #expect(arrived != nil, "the second call's invitation never reached its device")
        // The second call's own pushes only: the first call's stop signals may still come in late.
        let secondCall = await secondCaller.callId
        let toOld = await stack.mocks.log.waitFor(
            count: 2,
            matching: {
                $0.sequence > bookmark && oldTokens.contains($0.deviceToken ?? "")
                    && String(decoding: $0.body, as: UTF8.self).contains(secondCall)
            },
            timeout: remove ? .seconds(2) : .seconds(120))
        stopNow.finish()
        _ = await call.value
        await stack.stop()
        #expect(toOld.count == (remove ? 0 : 2), "pushes to the first call's devices: \(toOld.count)")
    }

    @Test func anUnreachableBackendIsInconclusive() async throws {
        // A port bound for the whole test but not listening: connections are refused, and no server of
        // a test running alongside can take it (a port released first could be handed to one).
        let closed = try MockStackOccupiedPort(listening: false)
        defer { withExtendedLifetime(closed) {} }
        let url = "http://127.0.0.1:\(closed.port)"
        let target = Target(
            name: "nothing", baseURL: url, accounts: { name, _ in TargetUser(userId: name, bearerToken: "t") },
            capabilities: [], appId: "com.example")
        let plan = FakeCallPlan(
            caller: TargetUser(userId: "a", bearerToken: "t"), callee: TargetUser(userId: "b", bearerToken: "t"),
            callerInstallationId: "x")
        let timeline = Timeline()
        let result = await (try FakeCaller(target: target, mocks: nil, plan: plan) { timeline.add($0) }).run()
        #expect(result.outcome == .inconclusive)
        #expect(result.detail.contains("could not be reached"), "\(result.detail)")
        #expect(!timeline.kinds.contains(.created))
    }
}
