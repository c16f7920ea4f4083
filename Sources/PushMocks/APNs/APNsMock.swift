import Glibc
import HTTP
import JSON
import Synchronization

/// A mock APNs provider API (one per environment): `POST /3/device/<token>` judged the way real APNs
/// judges it, every request recorded in the `CaptureLog`.
///
/// It verifies provider tokens against `MockCredentials`, caches verified tokens, enforces the one-hour
/// age and the 20-minute refresh rule (per connection, see `ProviderTokenBook`), checks topics, push types, priorities, expirations, collapse IDs,
/// duplicate headers and payload size, and consults the `DeviceRegistry` and `FaultPlans`.
///
/// APNs allows one stream per connection until a request with a valid provider token arrives: the
/// server starts APNs connections with SETTINGS_MAX_CONCURRENT_STREAMS=1, and the mock lifts it to
/// 1000 with the first valid-token request of each HTTP/2 connection: with its answer when it answers
/// at once, on its arrival when a fault plan may hold the answer back (`directiveOnArrival`).
public final class APNsMock: HTTPImmediateHandler {
    /// The payload limit of every push type but VoIP.
    public static let payloadLimit = 4096
    /// The payload limit of VoIP pushes.
    public static let voipPayloadLimit = 5120
    /// What the mock raises SETTINGS_MAX_CONCURRENT_STREAMS to once a connection has a valid token.
    public static let authenticatedMaxConcurrentStreams: UInt32 = 1000
    /// The capture reason of an HTTP/1.x request, which APNs does not answer (no Apple reason: the
    /// client gets none).
    public static let http1RefusedReason = "HTTP1NotSupported"
    /// The push types APNs knows.
    public static let pushTypes: Set<String> = [
        "alert", "background", "location", "voip", "complication", "fileprovider", "mdm", "liveactivity", "pushtotalk",
    ]

    struct State {
        var tokens = ProviderTokenBook()
        var authenticatedConnections: Set<UInt64> = []
        /// The connection found in `authenticatedConnections` last: a connection's requests come in runs.
        var lastAuthenticatedConnection: UInt64?
        var signatureChecks = 0
        /// The provider tokens of `authorization` values seen recently, by value: clients reuse one
        /// token for many pushes, and extracting it and decoding its header for every push cost more
        /// than the rest of the push.
        var credentials: [String: ProviderCredential] = [:]
        /// The credential found last, checked before hashing the value: clients rarely switch tokens.
        var lastCredential: (authorization: String, credential: ProviderCredential)?
    }

    /// The provider token of an `authorization` value and what a capture shows of it, derived once per value.
    ///
    /// A class: every push of a client reads the same one, and a struct of four strings and a list was
    /// copied out of the cache and released again field by field.
    final class ProviderCredential: Sendable {
        /// `bearerToken` of the value.
        let jwt: String
        /// `Redaction.peekKeyID` of the token.
        let keyID: String?
        /// `Redaction.jwtPlaceholder` of the token.
        let placeholder: String
        /// The token as a capture secret, in a list every capture of a push with it shares.
        let secrets: [CaptureSecret]

        init(jwt: String, keyID: String?, placeholder: String, secrets: [CaptureSecret]) {
            self.jwt = jwt
            self.keyID = keyID
            self.placeholder = placeholder
            self.secrets = secrets
        }
    }

    /// The most credentials kept; the cache starts over beyond it.
    static let credentialLimit = 1000

    public let environment: APNsEnvironment
    /// What the mock trusts.
    public let credentials: MockCredentials
    /// Where every request is recorded.
    public let log: CaptureLog
    /// The fault plans consulted on every request.
    public let faults: FaultPlans?
    /// Device tokens known to be unregistered or bound to an environment.
    public let registry: DeviceRegistry?
    /// The time source for token checks and timestamps.
    public let clock: MockClock
    let state = Mutex(State())
    /// The topic judged last (see `judge(topic:)`).
    let lastTopic = Mutex<(topic: String, judgement: TopicJudgement)?>(nil)

    /// What `judge(topic:)` found.
    struct TopicJudgement {
        /// At most 255 bytes of printable ASCII.
        var isValid: Bool
        /// The push types the topic may carry, sorted; nil when it is not this bundle's. A list: the types
        /// are short strings (stored inline), and comparing with each of the one to three cost less than
        /// hashing once for a set.
        var allowed: [String]?
    }

    /// A mock judging requests against `credentials`, recording into `log`; `faults` and `registry` are optional.
    public init(
        environment: APNsEnvironment, credentials: MockCredentials, log: CaptureLog, faults: FaultPlans? = nil,
        registry: DeviceRegistry? = nil, clock: MockClock = .system
    ) {
        self.environment = environment
        self.credentials = credentials
        self.log = log
        self.faults = faults
        self.registry = registry
        self.clock = clock
    }

    /// How many provider-token signatures the mock has verified (a cached token is verified once).
    public var providerTokenVerifications: Int { state.withLock { $0.signatureChecks } }

    /// How many verified provider tokens are cached.
    public var cachedProviderTokens: Int { state.withLock { $0.tokens.cachedCount } }

    // MARK: Handling

    /// Judges and answers one request, recording it in the capture log.
    public func handle(_ request: HTTPRequest) async -> HTTPResponse {
        let now = clock()
        let token = deviceTokenSlice(inTarget: request.target)
        let fault = request.version == .http2 ? faults?.next(mock: .apns, deviceToken: token.map(String.init)) : nil
        await fault?.delay()
        return respond(to: request, token: token, nowMs: now, fault: fault, offLoop: true)
    }

    /// Answers on the server's event loop while no fault plan is live (no plan can delay the answer
    /// then), saving the two thread hand-offs of `handle`; nil hands the request to `handle`.
    public func respondImmediately(to request: HTTPRequest) -> HTTPResponse? {
        // Read through the optional, not bound: binding `faults` retained and released it per push.
        if faults?.hasLivePlans == true { return nil }
        // The server read the wall clock when the request arrived, a moment ago: reading it again per
        // request cost about 1% of the mock's time.
        let now = clock.isSystem && request.arrivalMs > 0 ? request.arrivalMs : clock()
        return respond(to: request, token: deviceTokenSlice(inTarget: request.target), nowMs: now, fault: nil)
    }

    /// APNs lifts a connection's stream limit once a request with a valid provider token *arrives*, not
    /// once it is answered: a push that a fault plan holds back (latency) or refuses (a 503) lifts it
    /// too, so the client's other pushes on that connection do not queue behind a slow answer.
    /// (`respondImmediately` returned nil: a fault plan is live and the answer may come late.)
    public func directiveOnArrival(of request: HTTPRequest) -> ConnectionDirective? {
        guard request.version == .http2, !isAuthenticated(request.connectionID) else { return nil }
        let fields = APNsRequestHeaders(request.headers)
        let credential = providerCredential(of: fields)
        do throws(APNsRejection) {
            try authenticate(fields, credential: credential, connection: request.connectionID, nowMs: clock())
        } catch {
            return nil
        }
        return markAuthenticated(request.connectionID)
            ? .setMaxConcurrentStreams(Self.authenticatedMaxConcurrentStreams) : nil
    }

    /// Records the streams the listener refused on connection `id` (a second stream before a valid provider token,
    /// as real APNs refuses it) in the capture log, for the device evidence of a push that never came.
    public func streamsRefused(_ count: Int, connectionID id: UInt64) {
        log.recordRefusal(
            StreamRefusal(
                mock: .apns, environment: environment, connectionID: id, count: count, atMs: clock(),
                tokenAccepted: isAuthenticated(id)))
    }

    /// Whether connection `id` has sent a request with a valid provider token.
    func isAuthenticated(_ id: UInt64) -> Bool {
        state.withLock { $0.lastAuthenticatedConnection == id || $0.authenticatedConnections.contains(id) }
    }

    /// Notes that connection `id` sent a valid provider token; true the first time (its limit is lifted then).
    func markAuthenticated(_ id: UInt64) -> Bool {
        state.withLock { state -> Bool in
            if state.lastAuthenticatedConnection == id { return false }
            state.lastAuthenticatedConnection = id
            return state.authenticatedConnections.insert(id).inserted
        }
    }

    /// Judges `request` (whose path holds `token`) under `fault`, records it and returns the answer. `offLoop`:
    /// answered off the event loop, so the answer carries an `AnswerStamp` the connection marks when it leaves
    /// (as a refusal's always does).
    func respond(
        to request: HTTPRequest, token: Substring?, nowMs now: Int64, fault: AppliedFault?, offLoop: Bool = false
    ) -> HTTPResponse {
        let arrivalMs = request.arrivalMs > 0 ? request.arrivalMs : now
        if request.version != .http2 {
            var capture = Capture(request: request, mock: .apns, arrivalMs: arrivalMs)
            capture.environment = environment
            if let token, !token.isEmpty { capture.setDeviceToken(token) }
            return refuseHTTP1(request, capture: &capture)
        }
        let fields = APNsRequestHeaders(request.headers)
        let credential = providerCredential(of: fields)
        let apnsID: String
        if let sent = fields.apnsID, MockIDs.isUUID(sent) {
            apnsID = sent
        } else {
            apnsID = MockIDs.uuid()
        }
        // What the capture shows of the push (`apns`, left empty but for the apns-id when a fault
        // answers) is filled in place in the capture, as each copy retains and releases its strings.
        var capture = Capture(
            apnsPush: request, arrivalMs: arrivalMs, environment: environment, deviceToken: token,
            secrets: credential?.secrets ?? [], apnsID: apnsID)

        if fault != nil { capture.fault = fault }
        let answered = answer(
            request, fields: fields, token: token, credential: credential, apnsID: apnsID, nowMs: now, fault: fault,
            capture: &capture)
        var response = answered.response
        finish(
            &response, to: request, tokenValid: answered.tokenValid, fault: fault, offLoop: offLoop, capture: &capture)
        _ = log.append(taking: &capture)
        return response
    }

    /// The answer to an HTTP/2 push: what `fault` says (a reset, or its status and reason), else the push judged
    /// as APNs judges it (`validate`). Sets the capture's outcome; `tokenValid`: its provider token held.
    func answer(
        _ request: HTTPRequest, fields: borrowing APNsRequestHeaders, token: Substring?,
        credential: ProviderCredential?,
        apnsID: String, nowMs now: Int64, fault: AppliedFault?, capture: inout Capture
    ) -> (response: HTTPResponse, tokenValid: Bool) {
        var tokenValid = false
        if fault?.plan.connection == .reset {
            capture.outcome = .rejected(reason: "ConnectionReset")
            capture.detail = "fault \(fault?.planID ?? ""): connection reset without a response"
            return (HTTPResponse(status: 0, directive: .resetWithoutResponse), tokenValid)
        }
        if let respond = fault?.plan.respond {
            let reason =
                respond.reason ?? APNsReason.typical(forStatus: respond.status ?? APNsReason.internalServerError.status)
            let status = respond.status ?? APNsReason(rawValue: reason)?.status ?? 500
            capture.outcome = .rejected(reason: reason)
            capture.detail = respond.message ?? "fault \(fault?.planID ?? "")"
            return (Self.errorResponse(status: status, reason: reason, apnsID: apnsID, timestampMs: now), tokenValid)
        }
        do throws(APNsRejection) {
            try capture.updateAPNs { info throws(APNsRejection) in
                try validate(
                    request, fields: fields, token: token, credential: credential, nowMs: now, info: &info,
                    tokenValid: &tokenValid)
            }
            var headers = HTTPHeaders()
            headers.addLowercased("apns-id", apnsID)
            var response = HTTPResponse(status: 200, headers: headers)
            if environment == .sandbox { response.headers.addLowercased("apns-unique-id", MockIDs.lowercaseUUID()) }
            capture.outcome = .accepted
            return (response, tokenValid)
        } catch {
            capture.outcome = .rejected(reason: error.reason.rawValue)
            capture.detail = error.detail
            let response = Self.errorResponse(
                status: error.reason.status, reason: error.reason.rawValue, apnsID: apnsID,
                timestampMs: error.timestampMs ?? now)
            return (response, tokenValid)
        }
    }

    /// Finishes `response` before it is recorded and sent: the fault's directive (a GOAWAY after it), the
    /// connection's lifted stream limit once its token held, the answer's stamp; the capture keeps the answer.
    func finish(
        _ response: inout HTTPResponse, to request: HTTPRequest, tokenValid: Bool, fault: AppliedFault?,
        offLoop: Bool, capture: inout Capture
    ) {
        var faultSetDirective = false
        if let fault {
            let reason = capture.outcome.reason ?? APNsReason.shutdown.rawValue
            let debug = JSONValue.object([("reason", .string(reason))]).serialized()
            faultSetDirective = fault.finish(&response, goawayDebug: debug)
        }
        if tokenValid && !faultSetDirective && request.version == .http2 && markAuthenticated(request.connectionID) {
            response.directive = .setMaxConcurrentStreams(Self.authenticatedMaxConcurrentStreams)
        }
        // A refusal answered on the loop is stamped too: the dead-token rule asks what was on its way before it
        // left, and the loop reads what waits on its sockets before writing a stamped answer
        // (`DeadTokenRefusal`). Acceptances on the loop go without (an allocation per push).
        // A refusal also asks its HTTP/2 client to say when it had read it (`AnswerStamp.awaitingRead`).
        if offLoop || !capture.outcome.isAccepted {
            response.sentStamp = AnswerStamp(awaitingRead: !capture.outcome.isAccepted)
        }
        if capture.outcome.isAccepted && environment != .sandbox && fault == nil {
            capture.setAPNsAcceptance(directive: response.directive)
        } else {
            capture.response = response
        }
    }

    /// The answer to an HTTP/1.1 request: APNs speaks HTTP/2 only and never answers one, so the client sees
    /// its connection dropped without a response (here reset). Recorded as refused, never as delivered;
    /// fault plans are not consulted.
    func refuseHTTP1(_ request: HTTPRequest, capture: inout Capture) -> HTTPResponse {
        let response = HTTPResponse(status: 0, directive: .resetWithoutResponse)
        capture.outcome = .rejected(reason: Self.http1RefusedReason)
        capture.detail =
            "an HTTP/1.1 request: APNs speaks HTTP/2 only (ALPN h2, or the HTTP/2 preface without ALPN) and drops "
            + "the connection without an answer"
        capture.setSecrets(
            deviceToken: true, others: request.headers["authorization"].flatMap(providerCredential)?.secrets ?? [])
        capture.response = response
        _ = log.append(taking: &capture)
        return response
    }

    /// An APNs error answer: `{"reason": …}` (410 adds `"timestamp"`), always with `apns-id`.
    static func errorResponse(status: Int, reason: String, apnsID: String, timestampMs: Int64) -> HTTPResponse {
        var members: [(key: String, value: JSONValue)] = [("reason", .string(reason))]
        if status == 410 { members.append(("timestamp", .int(timestampMs))) }
        var headers = HTTPHeaders()
        headers.add("apns-id", apnsID)
        headers.add("content-type", "application/json")
        return HTTPResponse(status: status, headers: headers, body: JSONValue.object(members).bytes())
    }

    /// The device token in the path of request target `target` (see `deviceToken(inPath:)`).
    func deviceToken(inTarget target: String) -> String? { deviceTokenSlice(inTarget: target).map(String.init) }

    /// `deviceToken(inTarget:)` as a slice of `target` (sharing its storage): a push records its token,
    /// and a string of its own cost each push an allocation, and a free when the full log drops it.
    func deviceTokenSlice(inTarget target: String) -> Substring? {
        // Plain ASCII, as targets are: one pass over the bytes finds the query and the prefix, where
        // splitting off the path and checking it apart scanned a new target three times per push.
        var copy = target
        let prefix: StaticString = "/3/device/"
        let plain: Range<Int>?? = copy.withUTF8 { bytes in
            var end = bytes.count
            for (i, b) in bytes.enumerated() {
                if (b < 0x20 && b != 0x09) || b >= 0x7F { return .none }
                if b == UInt8(ascii: "?") && end == bytes.count { end = i }
            }
            let path = UnsafeBufferPointer(rebasing: bytes[..<end])
            let n = prefix.utf8CodeUnitCount
            if path.count == n - 1 && memcmp(path.baseAddress!, prefix.utf8Start, n - 1) == 0 {
                return .some(end..<end)
            }
            guard path.count >= n, memcmp(path.baseAddress!, prefix.utf8Start, n) == 0 else { return .some(nil) }
            return .some(n..<end)
        }
        if let plain {
            // ASCII: byte offsets are character boundaries.
            guard let plain else { return nil }
            let utf8 = copy.utf8
            let start = utf8.index(utf8.startIndex, offsetBy: plain.lowerBound)
            let end = utf8.index(utf8.startIndex, offsetBy: plain.upperBound)
            return copy[start..<end]
        }
        return Self.deviceToken(inPath: pathOf(target)).map { $0[...] }
    }

    /// The token in `/3/device/<token>`: nil when the path has another shape, empty when the token is missing.
    static func deviceToken(inPath path: String) -> String? {
        let prefix = "/3/device/"
        if path == "/3/device" { return "" }
        if path.isPlainASCII {
            let utf8 = path.utf8
            let hasPrefix =
                utf8.withContiguousStorageIfAvailable { $0.starts(with: prefix.utf8) } ?? utf8.starts(with: prefix.utf8)
            guard hasPrefix else { return nil }
            return String(path[utf8.index(utf8.startIndex, offsetBy: prefix.utf8.count)...])
        }
        guard path.hasPrefix(prefix) else { return nil }
        return String(path.dropFirst(prefix.count))
    }

    /// The credential of `authorization: bearer <token>` (scheme in any case), or nil.
    static func bearerToken(_ value: String?) -> String? {
        guard let value else { return nil }
        guard value.isPlainASCII else { return bearerToken(characters: value) }
        let utf8 = value.utf8
        let space = UInt8(ascii: " ")
        let tab = UInt8(ascii: "\t")
        var i = utf8.firstIndex { $0 != space && $0 != tab } ?? utf8.endIndex
        guard utf8.distance(from: i, to: utf8.endIndex) > 7 else { return nil }
        for expected in "bearer ".utf8 {
            // ASCII letters lower-case by setting bit 5; a space stays a space, a tab does not match.
            let b = utf8[i]
            guard b == expected || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z") && b | 0x20 == expected) else {
                return nil
            }
            i = utf8.index(after: i)
        }
        while i < utf8.endIndex && utf8[i] == space { i = utf8.index(after: i) }
        var end = i
        while end < utf8.endIndex && utf8[end] != space && utf8[end] != tab { end = utf8.index(after: end) }
        return i == end ? nil : String(value[i..<end])
    }

    /// `bearerToken` for values that are not plain ASCII, by `Character`.
    private static func bearerToken(characters value: String) -> String? {
        let trimmed = value.drop { $0 == " " || $0 == "\t" }
        guard trimmed.count > 7, trimmed.prefix(7).lowercased() == "bearer " else { return nil }
        let token = trimmed.dropFirst(7).drop { $0 == " " }.prefix { $0 != " " && $0 != "\t" }
        return token.isEmpty ? nil : String(token)
    }

    /// `providerCredential` of the `authorization` field of `fields`, nil without one.
    func providerCredential(of fields: borrowing APNsRequestHeaders) -> ProviderCredential? {
        guard let authorization = fields.authorization else { return nil }
        return providerCredential(authorization)
    }

    /// The provider token in an `authorization` value, from the cache when the value was seen before;
    /// nil when the value is not `bearer <token>`.
    func providerCredential(_ authorization: String) -> ProviderCredential? {
        let known = state.withLock { state -> ProviderCredential? in
            if let last = state.lastCredential, last.authorization == authorization { return last.credential }
            guard let found = state.credentials[authorization] else { return nil }
            state.lastCredential = (authorization, found)
            return found
        }
        if let known { return known }
        guard let jwt = Self.bearerToken(authorization) else { return nil }
        let keyID = Redaction.peekKeyID(jwt)
        let placeholder = Redaction.jwtPlaceholder(keyID: keyID)
        let credential = ProviderCredential(
            jwt: jwt, keyID: keyID, placeholder: placeholder,
            secrets: [CaptureSecret(value: jwt, replacement: placeholder)])
        state.withLock { state in
            if state.credentials.count >= Self.credentialLimit { state.credentials.removeAll() }
            state.credentials[authorization] = credential
        }
        return credential
    }
}
