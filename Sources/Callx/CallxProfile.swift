import Conformance
import JSON
import PushMocks
import Reports

/// The Callx backend reference (`callx-backend-reference.txt`): calls created, answered and ended over
/// its API, invitations and signals pushed through APNs VoIP and FCM, an events feed.
public struct CallxProfile: Profile {
    public typealias RunState = CallxRunState

    public init() {}

    public var name: String { "callx" }
    /// Its suite, compiled into this module from `Suite/` (a link to `suites/<name>/`) by the EmbedSuites plugin.
    public var embeddedSuite: EmbeddedSuite { EmbeddedSuiteFiles.suite }
    public var summary: String { "Callx backend reference: call API, APNs VoIP and FCM invitations, events feed" }
    public var stepTypes: [any DecodableStep.Type] {
        [
            CreateCallStep.self, AnswerCallStep.self, EndCallStep.self, CallRequestStep.self, PollEventsStep.self,
            ExpectEventStep.self, ExpectNoEventStep.self, WaitUntilExpiryStep.self, OverflowEventsStep.self,
        ]
    }
    public var defaultPushType: String? { "call.invited" }

    /// The `callx` object (APNs `callx`, or FCM `data.callx` parsed from its string) of an APNs or FCM capture.
    public func pushView(_ capture: Capture) -> PushView? {
        guard capture.mock != .oauth else { return nil }
        let callx = PushMatchDocument.callx(capture)
        return PushView(
            key: "callx", document: callx ?? .null, type: callx?["type"]?.stringValue,
            callId: callx?["callId"]?.stringValue,
            summary: "\(callx?["type"]?.stringValue ?? "?") rev \(callx?["revision"]?.stringValue ?? "?")")
    }

    public func invariantFailures(with context: isolated any RunContext) async -> [CheckFailure] {
        context.callxInvariantFailures()
    }

    /// A call's snapshot (what the invariants and the clean-up know of the call) and the media
    /// credentials a 2xx answer issued (which no push may carry).
    public func observeResponse(_ exchange: Exchange, with context: isolated any RunContext) {
        guard let status = exchange.status else { return }
        if let json = exchange.json, let callId = json["callId"]?.stringValue, json["state"] != nil {
            context.callx.snapshots[callId] = json
            context.observeCall(json, isEvent: false)
        }
        if let media = exchange.media, (200..<300).contains(status) { context.observeMediaSession(media) }
    }

    /// CALLX-EXP-2's "after the end" starts when the call's end request left (`AfterTheEnd`); for a call that
    /// expired, an invitation in flight at the expiry is not after it (`AfterTheExpiry`); CALLX-E2E-3's
    /// "after the restart" starts when the restart began (`AfterTheRestart`); CALLX-OUTBOX-1's second invitation
    /// is one beyond the copies a lone create of the same backend sends (`LoneCreateBaseline`).
    public func pushesNotCausedBy(of requirement: String?, call: String?, with context: isolated any RunContext)
        -> @Sendable (Capture) -> Bool
    {
        let calls = context.callx.calls
        let beforeEnd = AfterTheEnd.arrivedBeforeEnd(requirement: requirement, call: call, calls: calls)
        let inFlight = AfterTheExpiry.inFlightAtExpiry(
            requirement: requirement, call: call, calls: calls, marginMs: context.inFlightMarginMs)
        let beforeRestart = AfterTheRestart.arrivedBeforeRestart(
            requirement: requirement, restartOrder: context.backendRestartOrder)
        let baseline = LoneCreateBaseline.copiesALoneCreateSends(
            requirement: requirement, call: call, log: context.mocks.log)
        return { c in beforeEnd(c) || inFlight(c) || beforeRestart(c) || baseline(c) }
    }

    /// Ends the calls the run left unfinished.
    public func cleanUp(with context: isolated any RunContext) async { await context.endUnfinishedCalls() }
}
