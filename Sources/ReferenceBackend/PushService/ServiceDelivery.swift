import HTTP
import JSON

/// One push of a notification to one device, as the durable queue keeps it: the provider request,
/// built when the notification was accepted, and where it stands.
struct ServiceDelivery: Sendable, Equatable {
    /// Which token the push uses.
    enum Channel: String, Sendable {
        /// APNs, the PushKit VoIP token.
        case voip
        /// APNs, the alert token (alert and background pushes).
        case apns
        case fcm

        /// How `PushOutcome.classify` reads the provider's answer.
        var kind: PushKind { self == .fcm ? .fcm : .apnsVoip }
    }

    enum State: String, Sendable {
        case pending, successful, failed, errored
    }

    var id: Int64
    var notificationId: String
    var deviceId: String
    var channel: Channel
    var request: PushRequest
    var state: State
    var attempts: Int
    /// When retrying stops making sense (a call's ring ended); nil retries up to the policy's attempts.
    var giveUpAtMs: Int64?
}

/// A delivery to queue with a notification: the request to send, or an outcome already known.
struct PlannedDelivery: Sendable {
    var deviceId: String
    var channel: ServiceDelivery.Channel
    /// Nil when nothing can be sent (an iOS device without a voipToken for a call).
    var request: PushRequest?
    /// The state when there is no request (`failed`, or `successful` under a defect).
    var settledState: ServiceDelivery.State
    var reason: String?
    var giveUpAtMs: Int64?
}

/// A notification's delivery counts, as `GET /notifications/{id}` reports them.
struct DeliveryCounts: Sendable, Equatable {
    var successful = 0
    var failed = 0
    var errored = 0
    var remaining = 0
}

extension PushRequest.Destination {
    /// How the queue stores the destination.
    var stored: String {
        switch self {
        case .apns(let environment): return "apns-" + environment.rawValue
        case .fcm: return "fcm"
        }
    }

    init?(stored: String) {
        switch stored {
        case "apns-production": self = .apns(.production)
        case "apns-sandbox": self = .apns(.sandbox)
        case "fcm": self = .fcm
        default: return nil
        }
    }
}

extension HTTPHeaders {
    /// The headers as a JSON array of `[name, value]` pairs (order kept), for the queue.
    var storedJSON: String {
        JSONValue.array(fields.map { .array([.string($0.name), .string($0.value)]) }).serialized()
    }

    init(storedJSON text: String) {
        self.init()
        for pair in (try? JSONValue.parse(Array(text.utf8)))?.arrayValue ?? [] {
            if let name = pair[0]?.stringValue, let value = pair[1]?.stringValue { add(name, value) }
        }
    }
}
