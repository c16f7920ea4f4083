import Conformance
import JSON

/// One `POST /notifications` ringcheck sent in a scenario run, as the invariants and counts need it.
struct PushServiceNotification: Sendable, Equatable {
    static let incomingType = "incoming_call"
    static let endedType = "call_ended"
    /// The `data` member ringcheck adds to every notification it sends, so that each push names the request it
    /// answers (the service must carry `data` to the device).
    static let markerKey = "ringcheck_ref"

    /// The marker's value (`<run tag>-n<k>`).
    var marker: String
    /// The body as the seed names its members (before a target's field renames).
    var body: JSONValue
    /// Wall-clock milliseconds just before the request left.
    var sentAtMs: Int64
    var status: Int?
    /// The answer's `id`, when it gave a non-empty one.
    var id: String?
    /// The scenario devices the request targets (of its `include_aliases.external_id`), with the request valid.
    var devices: [String]
    /// The scenario users the request targets (`notify`'s `to`), removed devices' users included.
    var users: [String] = []
    /// The name the step saved the answer under (what `getNotification` names).
    var save: String?
    /// Wall-clock milliseconds when the answer came back: the service accepted the request (and a call began to
    /// ring) no later than this. Nil: read as `sentAtMs`.
    var answeredAtMs: Int64? = nil

    var call: JSONValue? { body["call"]?.objectValue == nil ? nil : body["call"] }
    var action: String? { call?["action"]?.stringValue }
    var isCall: Bool { call != nil }
    /// The call's `id` as given ("" or absent: to be generated).
    var givenCallId: String? { call?["id"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 } }
    var accepted: Bool { status.map { (200..<300).contains($0) } ?? false }
    /// An incoming call's ring length, the request's `call.timeout` in seconds ("giây đổ chuông"), when it gave one a
    /// ring can have (1 s to a day: beyond, no judgement rests on it).
    var ringSeconds: Int64? {
        guard action == "incoming", let seconds = call?["timeout"]?.int64Value else { return nil }
        return Self.usableRing(seconds)
    }
    /// The earliest the call's ring can have ended: the service received the request after it left.
    var earliestRingEndMs: Int64? { ringSeconds.map { sentAtMs + $0 * 1000 } }

    /// `seconds` when a ring can last that long, else nil (and no overflow when it is multiplied into milliseconds).
    static func usableRing(_ seconds: Int64) -> Int64? { (1...86_400).contains(seconds) ? seconds : nil }
    /// `headings.en` / `contents.en` (or the first language given).
    var heading: String? { Self.text(body["headings"]) }
    var content: String? { Self.text(body["contents"]) }
    var hasText: Bool { heading != nil || content != nil }

    static func text(_ v: JSONValue?) -> String? {
        guard let members = v?.objectValue else { return nil }
        return (members.first { $0.key == "en" } ?? members.first)?.value.stringValue
    }
}

/// A scenario device as the push service knows it: an iOS device's alert token and VoIP token, an Android device's
/// FCM token, the service's device ID, and when ringcheck removed it.
struct PushServiceDevice: Sendable, Equatable {
    enum Platform: String, Sendable { case ios, android }

    var name: String
    var user: String
    var platform: Platform
    /// The APNs alert token (iOS) or the FCM token (Android); nil for an iOS device registered with a VoIP token only.
    var token: String?
    var voipToken: String?
    var sandbox: Bool
    /// The service's `id` for it.
    var serviceId: String?
    var removedAtMs: Int64?

    var tokens: [String] { [token, voipToken].compactMap { $0 } }
}

/// What the push-service profile keeps of one scenario run (`PushServiceProfile.RunState`).
public struct PushServiceRunState: ProfileRunState {
    public init() {}

    var devices: [String: PushServiceDevice] = [:]
    var notifications: [PushServiceNotification] = []
}

extension RunContext {
    /// The push-service profile's state of this run.
    var pushService: PushServiceRunState {
        get { profileStates[PushServiceProfile.self] }
        _modify { yield &profileStates[PushServiceProfile.self] }
    }

    /// The external ID a scenario user registers its devices under: fresh for every run, so runs never share one.
    func pushServiceExternalId(_ user: String) -> String { "\(runTag)-\(user)" }
}
