import Conformance
import Signing

/// What the DialStack load driver does with one webhook, in a fixed rotation so every mix is reproducible:
/// mostly wake-ups, some delivered twice, and events that must wake nobody.
public enum DialStackLoadScript: String, Sendable, Equatable, CaseIterable, Codable {
    /// A signed `call.mobile_push_wakeup`: every device of its user is pushed once.
    case wakeUp = "wake-up"
    /// A wake-up delivered again (same event id, signed anew) once its pushes arrived: no device rings again.
    case redelivery
    /// A signed `call.incoming` or `call.ringing`: answered 2xx, nobody woken.
    case otherType = "other-type"
    /// A wake-up signed wrongly (wrong secret, stale, garbage, none): answered 401, nobody woken.
    case badSignature = "bad-signature"

    /// The rotation: wake-ups most often, as DialStack sends them.
    static let rotation: [DialStackLoadScript] = [
        .wakeUp, .redelivery, .wakeUp, .otherType, .wakeUp, .badSignature, .wakeUp, .redelivery, .otherType,
        .badSignature,
    ]

    /// The script of webhook number `index`.
    public static func script(for index: Int) -> DialStackLoadScript { rotation[index % rotation.count] }

    /// The event type of webhook `index` under this script.
    func eventType(_ index: Int) -> String {
        guard self == .otherType else { return DialStackEvent.wakeUpType }
        let others = DialStackEvent.types.filter { $0 != DialStackEvent.wakeUpType }
        return others[(index / Self.rotation.count) % others.count]
    }

    /// How webhook `index` is signed under this script: the bad ones rotate through four ways a receiver
    /// must refuse.
    func signature(_ index: Int) -> WebhookSignatureVariant {
        guard self == .badSignature else { return .valid }
        let bad: [WebhookSignatureVariant] = [.wrongSecret, .stale(seconds: 3_600), .garbage, .none]
        return bad[(index / Self.rotation.count) % bad.count]
    }
}
