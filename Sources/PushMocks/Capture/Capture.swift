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

    /// A value holding `apnsID` alone.
    ///
    /// The others left to start nil: passed nil through the initializer below, the optimizer built the
    /// value twice, copied one (six retains) and destroyed the other (six releases), for every capture.
    init(apnsID: String) { self.apnsID = apnsID }

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

    /// Whether the message goes to one app installation: a registration `token`, or the `fid` that
    /// firebase-admin 7.x sends instead (FCM judges both alike).
    public var addressesOneInstallation: Bool { kind == .token || kind == .fid }
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
    /// The data the app receives (`FCMAppData`): `android.data` when set, else `message.data` (string values only).
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
///
/// A value type whose fields live in one storage object, copied on write: a capture passes through
/// the mock, the log's lock and its store, and a copy of twenty-odd strings and arrays retained and
/// released each of them every time (about 5% of the APNs mock's CPU per push).
public struct Capture: Sendable {
    /// Position in the log, from 1; assigned when recorded.
    public var sequence: Int {
        get { storage.sequence }
        set {
            makeUnique()
            storage.sequence = newValue
        }
    }
    /// Where the listener's read of the request falls in `ArrivalOrder` (0: not read by a listener).
    public var arrivalOrder: UInt64 { storage.request.arrivalOrder }
    /// Where the mock's recording of it (just before its answer was written) falls in `ArrivalOrder`; 0
    /// until recorded.
    public var decidedOrder: UInt64 {
        get { storage.decidedOrder }
        set {
            makeUnique()
            storage.decidedOrder = newValue
        }
    }
    /// By when the client was already sending this request, in `ArrivalOrder`: the accept of the connection it
    /// opened to send it (the connection's first request), else the read of the request itself (0: not read by a
    /// listener).
    public var onItsWayOrder: UInt64 {
        let request = storage.request
        if request.opensConnection && request.connection.openedOrder > 0 { return request.connection.openedOrder }
        return request.arrivalOrder
    }
    /// Where the answer's bytes were written out in `ArrivalOrder` (`AnswerStamp`), for an answer made off the
    /// event loop or a refusal: 0 while unsent (or never sent), nil for an answer without a stamp (an acceptance
    /// made on the loop, which left right after `decidedOrder` with no read in between). The loop reads what
    /// already waits on its sockets before it writes a stamped answer, so a request the client sent before the
    /// answer could reach it comes before this position.
    public var sentOrder: UInt64? {
        storage.responseIsAPNsAcceptance ? nil : storage.response.sentStamp.map(\.order)
    }
    /// Where the client's acknowledgement of a PING the mock sent right after a refusal's answer came in, on the
    /// refusal's own HTTP/2 connection (`AnswerStamp.readOrder`): from then on the client had read the refusal.
    /// 0 where none came (an acceptance, HTTP/1.1, a client that never acknowledged).
    public var readOrder: UInt64 {
        storage.responseIsAPNsAcceptance ? 0 : storage.response.sentStamp?.readOrder ?? 0
    }
    /// Arrival of the complete request, ms since the UNIX epoch.
    public var arrivalMs: Int64 {
        get { storage.arrivalMs }
        set {
            makeUnique()
            storage.arrivalMs = newValue
        }
    }
    public var mock: MockProviderID {
        get { storage.mock }
        set {
            makeUnique()
            storage.mock = newValue
        }
    }
    /// The APNs environment (APNs captures only).
    public var environment: APNsEnvironment? {
        get { storage.environment }
        set {
            makeUnique()
            storage.environment = newValue
        }
    }
    /// `:authority` or `host`.
    public var authority: String? {
        get {
            if let set = storage.authority { return set }
            return storage.request.authorityOrHost
        }
        set {
            makeUnique()
            storage.authority = .some(newValue)
        }
    }
    /// The real provider host the request was addressed to (`api.push.apple.com`, …) when it came
    /// through impersonation or named one in `:authority`, SNI or its `CONNECT`; nil at the mock's own URL.
    public var addressedHost: ImpersonatedHost? {
        get {
            if let set = storage.addressedHost { return set }
            return ImpersonatedHost.addressed(by: storage.request)
        }
        set {
            makeUnique()
            storage.addressedHost = .some(newValue)
        }
    }
    /// The APNs device token from the path, or the FCM registration token (`message.token`).
    public var deviceToken: String? {
        get {
            if let token = storage.deviceToken { return token }
            return storage.deviceTokenSlice.map(String.init)
        }
        set {
            makeUnique()
            storage.deviceToken = newValue
            storage.deviceTokenSlice = nil
        }
    }

    /// Sets `deviceToken` to `token`, kept as a slice (of the request's target, for the APNs mock): a
    /// string of its own cost every push an allocation, and a free when the full log dropped it.
    mutating func setDeviceToken(_ token: Substring) {
        makeUnique()
        storage.deviceToken = nil
        storage.deviceTokenSlice = token
    }
    /// The FCM target of any kind (FCM captures only).
    public var fcmTarget: FCMTarget? {
        get { storage.fcmTarget }
        set {
            makeUnique()
            storage.fcmTarget = newValue
        }
    }
    public var method: String {
        get { storage.request.method }
        set {
            makeUnique()
            storage.request.method = newValue
        }
    }
    /// Path and query as sent.
    public var target: String {
        get { storage.request.target }
        set {
            makeUnique()
            storage.request.target = newValue
        }
    }
    public var headers: HTTPHeaders {
        get { storage.request.headers }
        set {
            makeUnique()
            storage.request.headers = newValue
        }
    }
    public var body: [UInt8] {
        get { storage.request.body }
        set {
            makeUnique()
            storage.request.body = newValue
        }
    }
    /// The body parsed as JSON, when it was JSON.
    public var json: JSONValue? {
        get {
            switch storage.jsonSource {
            case .value(let value): return value
            case .body: return body.isEmpty || body.count > Self.maxParsedBody ? nil : try? JSONValue.parse(body)
            }
        }
        set {
            makeUnique()
            storage.jsonSource = .value(newValue)
        }
    }
    /// Where `json` comes from: a value set by the mock, or the body, parsed when read.
    var jsonSource: JSONSource {
        get { storage.jsonSource }
        set {
            makeUnique()
            storage.jsonSource = newValue
        }
    }
    /// The largest body `json` is parsed from.
    static let maxParsedBody = 1 << 20

    enum JSONSource {
        case value(JSONValue?)
        /// Parsed from `body` when read: a mock serving thousands of pushes a second keeps the bytes
        /// (which it must) and builds the tree only for whoever looks.
        case body
    }
    /// What the mock answered. When `response.directive` is `.resetWithoutResponse` the client never saw it.
    public var response: HTTPResponse {
        get {
            guard storage.responseIsAPNsAcceptance else { return storage.response }
            var headers = HTTPHeaders()
            headers.addLowercased("apns-id", storage.apns.apnsID)
            return HTTPResponse(status: 200, headers: headers, directive: storage.response.directive)
        }
        set {
            makeUnique()
            storage.response = newValue
            storage.responseIsAPNsAcceptance = false
        }
    }

    /// Sets `response` to APNs' answer to an accepted push: 200 with `apns-id` (the one in `apns`) alone,
    /// and `directive`. Kept as that fact, not as the answer's header list: a list of its own in every
    /// capture cost an allocation, and a free when the full log dropped it.
    mutating func setAPNsAcceptance(directive: ConnectionDirective) {
        makeUnique()
        if storage.response.headers.isEmpty && storage.response.body.isEmpty {
            // In place: a new answer released the empty lists of the one it replaced.
            storage.response.status = 200
            storage.response.directive = directive
        } else {
            storage.response = HTTPResponse(status: 200, directive: directive)
        }
        storage.responseIsAPNsAcceptance = true
    }
    public var outcome: CaptureOutcome {
        get { storage.outcome }
        set {
            makeUnique()
            storage.outcome = newValue
        }
    }
    /// Why the mock decided as it did, in words (e.g. which JWT claim was wrong); nil when accepted.
    public var detail: String? {
        get { storage.detail }
        set {
            makeUnique()
            storage.detail = newValue
        }
    }
    /// The fault plan applied to this request, if any.
    public var fault: AppliedFault? {
        get { storage.fault?.value }
        set {
            makeUnique()
            storage.fault = newValue.map(CaptureBox.init)
        }
    }
    public var connectionID: UInt64 {
        get { storage.request.connectionID }
        set {
            makeUnique()
            storage.request.connection.id = newValue
        }
    }
    public var streamID: Int32? {
        get { storage.request.streamID }
        set {
            makeUnique()
            storage.request.streamID = newValue
        }
    }
    public var httpVersion: HTTPVersion {
        get { storage.request.version }
        set {
            makeUnique()
            storage.request.version = newValue
        }
    }
    /// What the APNs mock understood (APNs captures only).
    public var apns: APNsPushInfo? {
        get { storage.hasAPNs ? storage.apns : nil }
        set {
            makeUnique()
            storage.hasAPNs = newValue != nil
            storage.apns = newValue ?? APNsPushInfo()
        }
    }

    /// Calls `body` with `apns` (made empty first when nil) to change in place: setting a changed
    /// copy retained and released each of its strings.
    mutating func updateAPNs<R, E: Error>(_ body: (inout APNsPushInfo) throws(E) -> R) throws(E) -> R {
        makeUnique()
        storage.hasAPNs = true
        return try body(&storage.apns)
    }

    /// The normalised FCM message (FCM captures whose body could be read).
    public var fcm: FCMMessageInfo? {
        get { storage.fcm?.value }
        set {
            makeUnique()
            storage.fcm = newValue.map(CaptureBox.init)
        }
    }
    /// The OAuth client (`iss` of the assertion) when known (OAuth captures only).
    public var oauthClient: String? {
        get { storage.oauthClient }
        set {
            makeUnique()
            storage.oauthClient = newValue
        }
    }
    /// Values to redact when rendering.
    public var secrets: [CaptureSecret] {
        get {
            guard storage.deviceTokenIsSecret, let token = deviceToken, !token.isEmpty else {
                return storage.secrets
            }
            return [CaptureSecret(value: token, replacement: Redaction.shortToken(token))] + storage.secrets
        }
        set {
            makeUnique()
            storage.secrets = newValue
            storage.deviceTokenIsSecret = false
        }
    }

    /// Sets `secrets` to the device token (when there is one, shown shortened) and `others`.
    ///
    /// The token's entry is made when `secrets` is read, and `others` (the provider token's, the same
    /// for a client's every push) is kept as given, shared: a mock recording a push to a new device
    /// builds no list and no short form of the token for it, which cost about 2% of the APNs mock's
    /// CPU per push. The entry follows `deviceToken` if that changes later.
    mutating func setSecrets(deviceToken: Bool, others: [CaptureSecret]) {
        makeUnique()
        storage.secrets = others
        storage.deviceTokenIsSecret = deviceToken
    }

    private var storage: Storage

    /// Copies the storage first when another capture shares it, before a change. (Changes go to
    /// `storage` itself after this, not through a getter handing it out, which retained and released it
    /// for each: a dozen changes per push.)
    private mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) { storage = Storage(copying: storage) }
    }

    /// A capture of `request` with no response yet.
    public init(request: HTTPRequest, mock: MockProviderID, arrivalMs: Int64) {
        storage = Storage(request: request, mock: mock, arrivalMs: arrivalMs)
    }

    /// A capture of an APNs push as the APNs mock starts one: `deviceToken` (when not empty) kept as
    /// `setDeviceToken` keeps it, the secrets `setSecrets(deviceToken: true, others: secrets)` sets,
    /// `json` parsed from the body when read, and `apns` holding `apnsID` alone.
    ///
    /// Given at once: setting each afterwards released the default it replaced, a call apiece per push.
    init(
        apnsPush request: HTTPRequest, arrivalMs: Int64, environment: APNsEnvironment, deviceToken: Substring?,
        secrets: [CaptureSecret], apnsID: String
    ) {
        storage = Storage(
            request: request, mock: .apns, arrivalMs: arrivalMs, environment: environment,
            deviceTokenSlice: deviceToken?.isEmpty == false ? deviceToken : nil, secrets: secrets,
            deviceTokenIsSecret: true, jsonSource: .body, apnsID: apnsID)
    }

    /// What `CaptureLog.append(taking:)` leaves behind: one shared, empty capture.
    static let placeholder = Capture(request: HTTPRequest(method: "", target: ""), mock: .apns, arrivalMs: 0)

    /// The path without the query.
    public var path: String { pathOf(target) }

    /// False when the mock reset the connection instead of answering. (The directive is read where it is
    /// kept: `response` rebuilds an accepted push's answer when read.)
    public var responseSent: Bool { storage.response.directive != .resetWithoutResponse }

    // @unchecked Sendable: a storage object is mutated only after `makeUnique`, that is while one
    // capture alone holds it; shared storage is never written.
    private final class Storage: @unchecked Sendable {
        var sequence: Int
        var decidedOrder: UInt64 = 0
        var arrivalMs: Int64
        var mock: MockProviderID
        var environment: APNsEnvironment?
        /// The request as received (its head shared with it): method, target, headers, body,
        /// connection, stream and HTTP version are read from it.
        var request: HTTPRequest
        /// `authority` and `addressedHost` once set; until then derived from `request` when read.
        var authority: String??
        var addressedHost: ImpersonatedHost??
        /// `deviceToken` when set as a string; `deviceTokenSlice` when set as a slice.
        var deviceToken: String?
        var deviceTokenSlice: Substring?
        var fcmTarget: FCMTarget?
        /// The answer; when `responseIsAPNsAcceptance`, its status, headers and body are made when read.
        var response: HTTPResponse
        var responseIsAPNsAcceptance: Bool
        var outcome: CaptureOutcome
        var detail: String?
        /// Out of line, as `fcm` is: rarely set, and large (every capture's storage is allocated whole).
        var fault: CaptureBox<AppliedFault>?
        /// In line, unlike `fault` and `fcm`: most captures are APNs pushes, and a box of its own cost
        /// each one an allocation, and a free when the full log drops it. Not optional (`hasAPNs` says
        /// whether it is set), so it is changed in place: changing an optional's value copied it.
        var apns: APNsPushInfo
        var hasAPNs: Bool
        var fcm: CaptureBox<FCMMessageInfo>?
        var oauthClient: String?
        /// The secrets but the device token's (see `setSecrets`).
        var secrets: [CaptureSecret]
        /// Whether `deviceToken` is a secret too.
        var deviceTokenIsSecret: Bool
        var jsonSource: JSONSource

        /// Optional fields not named here start nil, implicitly: assigning nil to them again released the
        /// nil they held (a call each, for every capture).
        init(
            request: HTTPRequest, mock: MockProviderID, arrivalMs: Int64, environment: APNsEnvironment? = nil,
            deviceTokenSlice: Substring? = nil, secrets: [CaptureSecret] = [], deviceTokenIsSecret: Bool = false,
            jsonSource: JSONSource = .value(nil), apnsID: String? = nil
        ) {
            sequence = 0
            self.arrivalMs = arrivalMs
            self.mock = mock
            self.environment = environment
            self.request = request
            self.deviceTokenSlice = deviceTokenSlice
            response = HTTPResponse(status: 0)
            responseIsAPNsAcceptance = false
            outcome = .rejected(reason: "unanswered")
            apns = APNsPushInfo(apnsID: apnsID ?? "")
            hasAPNs = apnsID != nil
            self.secrets = secrets
            self.deviceTokenIsSecret = deviceTokenIsSecret
            self.jsonSource = jsonSource
        }

        init(copying other: Storage) {
            sequence = other.sequence
            decidedOrder = other.decidedOrder
            arrivalMs = other.arrivalMs
            mock = other.mock
            environment = other.environment
            request = other.request
            authority = other.authority
            addressedHost = other.addressedHost
            deviceToken = other.deviceToken
            deviceTokenSlice = other.deviceTokenSlice
            fcmTarget = other.fcmTarget
            response = other.response
            responseIsAPNsAcceptance = other.responseIsAPNsAcceptance
            outcome = other.outcome
            detail = other.detail
            fault = other.fault
            apns = other.apns
            hasAPNs = other.hasAPNs
            fcm = other.fcm
            oauthClient = other.oauthClient
            secrets = other.secrets
            deviceTokenIsSecret = other.deviceTokenIsSecret
            jsonSource = other.jsonSource
        }
    }
}

/// An immutable value out of line; a new box replaces it on every change, so copies share it safely.
final class CaptureBox<Value: Sendable>: Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
