import Conformance
import JSON
import PushMocks

/// One push with what the Callx rules judge it against: the scenario's context, what the pushes before it leave
/// (the first delivery it may repeat, an earlier message with its eventId), and its readings worked out once (the
/// FCM message's `data.callx`, the payloads the secret rules search).
struct CallxPushSubject: Sendable {
    var push: PushDocument
    var context: InvariantContext
    /// The first accepted invitation to the same device for the same call, when this accepted invitation repeats
    /// one (`CALLX-OUTBOX-4`).
    var earlierDelivery: DeliveryLedger.First?
    /// An earlier push or event that used this push's eventId for another message (`CALLX-INV-5`, `CALLX-EVT-3`).
    var eventIdClash: EventIdRegistry.Use?
    /// The FCM message and its `data.callx` as the FCM rules read them (nil for an APNs push).
    var fcm: FCMReading?
    /// The parts of the push that carry the app's payload, with their paths (`SecretScan.payloads`).
    var payloads: [(path: String, value: JSONValue)]
    /// The texts the known-secret rules search: the body as sent, then each payload part serialized.
    var searchedTexts: [String]

    init(
        _ push: PushDocument, context: InvariantContext, earlierDelivery: DeliveryLedger.First? = nil,
        eventIdClash: EventIdRegistry.Use? = nil
    ) {
        self.push = push
        self.context = context
        self.earlierDelivery = earlierDelivery
        self.eventIdClash = eventIdClash
        fcm = push.kind == .fcm ? FCMReading(push) : nil
        payloads = SecretScan.payloads(of: push)
        searchedTexts = [push.bodyText] + payloads.map { $0.value.serialized() }
    }

    /// The APNs invitation, when the push is one with a JSON object body (the rules of its headers and fields
    /// apply then).
    var apnsInvitation: JSONValue? {
        guard push.kind == .apns, let body = push.body, case .object = body, push.isInvitation else { return nil }
        return body
    }

    /// The device a push's token belongs to, by name.
    var deviceName: String? { context.device(token: push.deviceToken)?.name }
}

/// An FCM message read for the Callx rules: the message object, and `data.callx` decoded, or why it cannot be
/// judged (`CALLX-FCM-5`). The data is what the app receives (`FCMAppData`: `android.data` when set, else
/// `data`). A message whose data has no `callx` is not a Callx message and is not judged.
struct FCMReading: Sendable {
    /// What breaks `CALLX-FCM-5`, if anything.
    var problem: (field: String, expected: String, actual: String)?
    var message: JSONValue?
    /// The callx object the remaining rules judge; nil when they judge nothing.
    var callx: JSONValue?
    /// Where `callx` was read: `message.data.callx` or `message.android.data.callx`.
    var field = "message.data.callx"

    init(_ push: PushDocument) {
        guard let body = push.body else {
            problem = ("body", "a JSON message", push.bodyError ?? "no body")
            return
        }
        guard let message = body["message"], case .object = message else {
            problem = ("message", "an object", Describe.value(body["message"]))
            return
        }
        self.message = message
        let data = FCMAppData(message: message)
        guard let raw = data.value["callx"] else { return }
        field = data.path + ".callx"
        switch raw {
        case .string(let text):
            do {
                let callx = try JSONValue.parse(text)
                guard case .object = callx else {
                    problem = (field, "a string holding a JSON object", "a string holding a JSON \(callx.typeName)")
                    return
                }
                self.callx = callx
            } catch {
                problem = (field, "a string holding JSON", error.description)
            }
        case .object:
            // FCM data values are strings; judge the rest as if it had been one.
            problem = (field, "a string holding the JSON", "an object")
            callx = raw
        default:
            problem = (field, "a string holding the JSON", Describe.value(raw))
        }
    }

    /// The callx's `type`, when there is a callx to judge.
    var type: String? { callx?["type"]?.stringValue }
}

/// An invitation object with where it sits in its push (`callx`, `message.data.callx→`, or nothing for a bare
/// invitation) and the call it names, when the context knows it.
struct CallxInvitationSubject: Sendable {
    var invitation: JSONValue
    var path: String
    var call: CallTimeline?

    /// The reported path of `field`.
    func path(_ field: String) -> String {
        path.isEmpty ? field : path.hasSuffix("→") ? path + field : path + "." + field
    }
}

/// One event a feed returned, with what the events and pushes before it leave: an earlier message with its
/// eventId, and the revision of the call's previous event in the same feed.
struct CallxEventSubject: Sendable {
    var event: ObservedEvent
    var earlierUse: EventIdRegistry.Use?
    /// The previous event of the same call in the same feed, when this event has a call and a canonical revision.
    var previousRevision: (revision: String, index: Int)?

    var json: JSONValue { event.json }
}
