import HTTP
import JSON

/// Whether a mock accepted a request, and if not, why.
public enum CaptureOutcome: Sendable, Equatable {
    /// The mock accepted the push (or issued the token).
    case accepted
    /// The mock rejected the request; `reason` is the APNs reason, FCM error code or OAuth error.
    case rejected(reason: String)

    /// True for `.accepted`.
    public var isAccepted: Bool { self == .accepted }

    /// The rejection reason, nil when accepted.
    public var reason: String? {
        if case .rejected(let reason) = self { return reason }
        return nil
    }
}

/// A value a capture holds that must not appear in rendered output unless secrets are revealed,
/// with what to show instead.
public struct CaptureSecret: Sendable, Equatable {
    public var value: String
    public var replacement: String

    /// Creates a value from its parts.
    public init(value: String, replacement: String) {
        self.value = value
        self.replacement = replacement
    }
}

/// What the APNs mock understood of a push (nil fields were absent or unreadable).
public struct APNsPushInfo: Sendable, Equatable {
    /// `apns-push-type` as sent; nil when absent.
    public var pushType: String?
    /// The push type APNs acts on: the header, or inferred from the topic when absent (`.voip` → `voip`).
    public var effectivePushType: String?
    public var topic: String?
    public var priority: Int?
    /// `apns-expiration` in UNIX seconds.
    public var expiration: Int64?
    public var collapseID: String?
    /// The `apns-id` the response carried.
    public var apnsID: String
    /// The `kid` of the provider token, when one was sent and decoded.
    public var providerTokenKeyID: String?

    /// Creates a value from its parts.
    public init(
        pushType: String? = nil, topic: String? = nil, priority: Int? = nil, expiration: Int64? = nil,
        collapseID: String? = nil, apnsID: String = "", providerTokenKeyID: String? = nil,
        effectivePushType: String? = nil
    ) {
        self.pushType = pushType
        self.effectivePushType = effectivePushType
        self.topic = topic
        self.priority = priority
        self.expiration = expiration
        self.collapseID = collapseID
        self.apnsID = apnsID
        self.providerTokenKeyID = providerTokenKeyID
    }
}

/// Who an FCM message was addressed to.
public struct FCMTarget: Sendable, Equatable, Hashable {
    /// Which target field was set.
    public enum Kind: String, Sendable, Codable { case token, topic, condition, fid }

    public var kind: Kind
    public var value: String

    /// Creates a value from its parts.
    public init(kind: Kind, value: String) {
        self.kind = kind
        self.value = value
    }
}

/// The normalised fields of an FCM message, for checks that should not care how a backend spelled them.
public struct FCMMessageInfo: Sendable, Equatable {
    /// The project in the request path.
    public var project: String
    public var target: FCMTarget?
    /// `android.priority` upper-cased (`HIGH`, `NORMAL`), nil when absent.
    public var priority: String?
    /// `android.ttl` in seconds, nil when absent.
    public var ttlSeconds: Double?
    /// True when `message.notification` or `android.notification` is present (such a message does not
    /// wake the app's service).
    public var hasNotification: Bool
    /// `message.data` (string values only).
    public var data: [String: String]
    public var validateOnly: Bool

    /// Creates a value from its parts.
    public init(
        project: String, target: FCMTarget? = nil, priority: String? = nil, ttlSeconds: Double? = nil,
        hasNotification: Bool = false, data: [String: String] = [:], validateOnly: Bool = false
    ) {
        self.project = project
        self.target = target
        self.priority = priority
        self.ttlSeconds = ttlSeconds
        self.hasNotification = hasNotification
        self.data = data
        self.validateOnly = validateOnly
    }
}

/// One request a mock received, accepted or rejected, with the response it produced.
///
/// Raw values (device tokens, JWTs, access tokens) are kept as received for assertions; rendering
/// through `json(revealSecrets:)` redacts them by default.
public struct Capture: Sendable {
    /// Position in the log, from 1; assigned when recorded.
    public var sequence: Int
    /// Arrival of the complete request, ms since the UNIX epoch.
    public var arrivalMs: Int64
    public var mock: MockKind
    /// The APNs environment (APNs captures only).
    public var environment: APNsEnvironment?
    /// `:authority` or `host`.
    public var authority: String?
    /// The real provider host the request was addressed to (`api.push.apple.com`, …) when it came
    /// through impersonation or named one in `:authority`, SNI or its `CONNECT`; nil at the mock's own URL.
    public var addressedHost: ImpersonatedHost?
    /// The APNs device token from the path, or the FCM registration token (`message.token`).
    public var deviceToken: String?
    /// The FCM target of any kind (FCM captures only).
    public var fcmTarget: FCMTarget?
    public var method: String
    /// Path and query as sent.
    public var target: String
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// The body parsed as JSON, when it was JSON.
    public var json: JSONValue? {
        get {
            switch jsonSource {
            case .value(let value): return value
            case .body: return body.isEmpty || body.count > Self.maxParsedBody ? nil : try? JSONValue.parse(body)
            }
        }
        set { jsonSource = .value(newValue) }
    }
    /// Where `json` comes from: a value set by the mock, or the body, parsed when read.
    var jsonSource = JSONSource.value(nil)
    /// The largest body `json` is parsed from.
    static let maxParsedBody = 1 << 20

    enum JSONSource {
        case value(JSONValue?)
        /// Parsed from `body` when read: a mock serving thousands of pushes a second keeps the bytes
        /// (which it must) and builds the tree only for whoever looks.
        case body
    }
    /// What the mock answered. When `response.directive` is `.resetWithoutResponse` the client never saw it.
    public var response: HTTPResponse
    public var outcome: CaptureOutcome
    /// Why the mock decided as it did, in words (e.g. which JWT claim was wrong); nil when accepted.
    public var detail: String?
    /// The fault plan applied to this request, if any.
    public var fault: AppliedFault? {
        get { faultBox?.value }
        set { faultBox = newValue.map(CaptureBox.init) }
    }
    /// `fault` out of line: rarely set, and large; a capture is copied a few times per request.
    private var faultBox: CaptureBox<AppliedFault>?
    public var connectionID: UInt64
    public var streamID: Int32?
    public var httpVersion: HTTPVersion
    /// What the APNs mock understood (APNs captures only).
    public var apns: APNsPushInfo?
    /// The normalised FCM message (FCM captures whose body could be read).
    public var fcm: FCMMessageInfo? {
        get { fcmBox?.value }
        set { fcmBox = newValue.map(CaptureBox.init) }
    }
    /// `fcm` out of line, as `fault` is: nil in every APNs capture.
    private var fcmBox: CaptureBox<FCMMessageInfo>?
    /// The OAuth client (`iss` of the assertion) when known (OAuth captures only).
    public var oauthClient: String?
    /// Values to redact when rendering.
    public var secrets: [CaptureSecret]

    /// A capture of `request` with no response yet.
    public init(request: HTTPRequest, mock: MockKind, arrivalMs: Int64) {
        sequence = 0
        self.arrivalMs = arrivalMs
        self.mock = mock
        environment = nil
        authority = request.authority ?? request.headers["host"]
        addressedHost = ImpersonatedHost.addressed(by: request)
        deviceToken = nil
        fcmTarget = nil
        method = request.method
        target = request.target
        headers = request.headers
        body = request.body
        response = HTTPResponse(status: 0)
        outcome = .rejected(reason: "unanswered")
        detail = nil
        faultBox = nil
        connectionID = request.connection.id
        streamID = request.streamID
        httpVersion = request.version
        apns = nil
        fcmBox = nil
        oauthClient = nil
        secrets = []
    }

    /// The path without the query.
    public var path: String { pathOf(target) }

    /// False when the mock reset the connection instead of answering.
    public var responseSent: Bool { response.directive != .resetWithoutResponse }
}

/// An immutable value out of line; a new box replaces it on every change, so copies share it safely.
final class CaptureBox<Value: Sendable>: Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
