import Conformance
import JSON

/// What `ringcheck trigger onesignal` makes a running kit server do: one operation (a push to a user, a broadcast,
/// a VoIP push) through its route under `baseURL`, with `devices` subscribed devices for the user on ringcheck's
/// mock OneSignal, so that the request the kit makes can be seen and its `delivered` judged.
///
/// ```swift
/// var plan = OneSignalTriggerPlan(baseURL: "http://127.0.0.1:8080", operation: .voip)
/// plan.options = ["ttl": 30]
/// ```
public struct OneSignalTriggerPlan: Sendable {
    /// The kit's operations, as `--send` names them.
    public enum Operation: String, Sendable, CaseIterable {
        case user, broadcast, voip

        var kind: OneSignalOperation.Kind {
            switch self {
            case .user: return .pushToUser
            case .broadcast: return .pushBroadcast
            case .voip: return .voipPush
            }
        }
    }

    /// The kit server's base URL; the operation's route (`/push/user`, …) is under it.
    public var baseURL: String
    public var operation: Operation
    /// The OneSignal External ID pushed to (a push to a user, a VoIP push).
    public var externalId: String
    public var title = "ringcheck"
    public var body = "A push from ringcheck trigger"
    /// The operation's `data` (ringcheck adds its marker).
    public var data: JSONValue = .object([])
    /// The seed's `PushOptions`, as given.
    public var options: JSONValue?
    /// Subscribed devices of the External ID (of a fresh one, for a broadcast) on the mock, in the operation's
    /// app: 0 makes the request reach nobody, so the kit must answer `delivered: false`.
    public var devices = 1
    /// How long to wait for the kit's request after its answer.
    public var settle: Duration = .seconds(3)

    /// A plan for `operation` to a fresh External ID (a UUID, as the seed's kit uses the account's).
    public init(baseURL: String, operation: Operation) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.operation = operation
        externalId = RandomText.uuid()
    }
}
