import Conformance
import PushMocks

/// What the fake caller is to do: who calls whom, when it cancels or hangs up, when it gives up,
/// and which virtual devices of the callee take part.
public struct FakeCallPlan: Sendable {
    /// The account that plays user A.
    public var caller: TargetUser
    /// The account that is called.
    public var callee: TargetUser
    public var video = false
    /// Cancel (end with `callerCancelled`) if the call still rings this long after it was created.
    public var cancelAfter: Duration?
    /// Hang up (end with `remoteEnded`) this long after the call was answered. Nil: wait for the
    /// other side, or hang up `virtualHangupAfter` after a virtual device answered.
    public var hangupAfter: Duration?
    /// When a virtual device answered and `hangupAfter` is nil: hang up after this long.
    public var virtualHangupAfter: Duration = .seconds(2)
    /// Give up (end with `unanswered`) if the call still rings this long after it was created. Nil:
    /// the backend's `expiresAtMs` plus `expiryGrace` (a call still ringing then is a finding), or
    /// `defaultGiveUp` when the backend names no expiry.
    public var giveUpAfter: Duration?
    /// How long past `expiresAtMs` the backend may take to end an unanswered call.
    public var expiryGrace: Duration = .seconds(5)
    public var defaultGiveUp: Duration = .seconds(30)
    /// Virtual devices registered for the callee before the call.
    public var calleeDevices: [VirtualCallee] = []
    /// What one virtual device does when its invitation arrives.
    public var response: VirtualResponse?
    /// The caller's own installation, whose event feed is read.
    public var callerInstallationId: String
    /// A VoIP token registered for `callerInstallationId` before the call, as a real app's installation
    /// is made (a backend may refuse the feed of one it never saw); nil leaves it unregistered.
    public var callerInstallationToken: String?
    /// How often the caller's feed is read.
    public var pollInterval: Duration = .milliseconds(100)
    /// How long the caller keeps watching after the call ended (trailing pushes and events).
    public var settleTime: Duration = .milliseconds(1_500)
    /// Delete the tokens registered for the call (the virtual devices', the caller installation's) once it
    /// is over, so a real backend does not keep devices that no longer exist; false leaves them.
    public var removesDevicesAfterwards = true

    /// Gives the caller's installation a fresh VoIP token, registered before the call.
    public mutating func registerCallerInstallation() { callerInstallationToken = RandomText.hex(bytes: 32) }

    /// A plan for `caller` calling `callee` that only watches.
    public init(caller: TargetUser, callee: TargetUser, callerInstallationId: String) {
        self.caller = caller
        self.callee = callee
        self.callerInstallationId = callerInstallationId
    }
}

/// What a virtual device does with its invitation.
public struct VirtualResponse: Sendable, Equatable {
    public enum Action: String, Sendable { case answer, decline }

    public var action: Action
    /// The virtual device's name.
    public var device: String
    /// How long after its invitation arrived (or, when ringcheck cannot see pushes, after the call
    /// was created) it acts.
    public var after: Duration

    /// Creates a value from its parts.
    public init(action: Action, device: String, after: Duration) {
        self.action = action
        self.device = device
        self.after = after
    }
}
