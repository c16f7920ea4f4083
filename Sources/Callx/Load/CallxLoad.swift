import Conformance

/// Callx's load mode (`ProfileLoad`): calls from callers to callees' 2-3 virtual devices
/// (`CallxLoadWorkload`), with `--short-ring` for the calls that should expire.
///
/// ```swift
/// let workload = try CallxLoad().workload(
///     LoadSetup(target: target, mocks: mocks, callers: [a], callees: [b], options: ["short-ring": "5"]))
/// ```
public struct CallxLoad: ProfileLoad {
    /// The embedded reference's callers (`load-a0`, `load-a1`) and callees (`load-b0`…`load-b2`).
    public var embeddedCallers: [String] { ["load-a0", "load-a1"] }
    public var embeddedCallees: [String] { ["load-b0", "load-b1", "load-b2"] }
    /// A target file's user a calls user b (and c, when declared).
    public var targetUserNeeds: TargetUserNeeds {
        .users(["a", "b"], why: "load --profile callx: user a calls user b (and c, when declared)")
    }
    /// `--short-ring S`: how long the calls that should expire ring.
    public var options: [String] { ["short-ring"] }
    /// Its paragraph of `load --help`.
    public var helpSection: String {
        """
        callx: many calls at once: creates, invitations to each callee's 2-3 virtual devices (APNs VoIP and
        FCM, on ringcheck's mocks), racing answers from several devices, cancels, declines, expiries (a short
        ring), hang-ups, and retried creates and answers with the same operationId. Every captured push is
        checked against the profile's invariants as in 'run', and the whole run's history (each request with
        the times it was sent and answered, each push, each feed's events) against: one winner per answered
        call, a retry's outcome equal to its original's, revisions increasing per call in each feed, every
        event once per feed and none lost without a gap, at most one invitation per device and call, none
        whose send began after the call stopped ringing. The embedded reference's callers are load-a0 and
        load-a1, its callees load-b0..load-b2; with --target, user a calls user b (and c, when the file
        declares it), through the file's mapping as 'run' does.
        """
    }

    /// Creates Callx's load mode.
    public init() {}

    public func workload(_ setup: LoadSetup) throws -> any LoadWorkload {
        let shortRing = setup.options["short-ring"].flatMap { Int($0) } ?? CallxLoadSettings().shortRingSeconds
        return try CallxLoadWorkload(
            target: setup.target, mocks: setup.mocks, settings: CallxLoadSettings(shortRingSeconds: shortRing),
            callers: setup.callers, callees: setup.callees)
    }
}

extension CallxProfile {
    /// Its load mode: `CallxLoad`.
    public var load: (any ProfileLoad)? { CallxLoad() }
}
