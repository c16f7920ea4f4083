import HTTP
import JSON
import Signing

extension APNsMock {
    /// The push types each topic suffix (after the bundle ID) is for.
    static let topicSuffixes: [String: Set<String>] = [
        "": ["alert", "background", "mdm"],
        ".voip": ["voip"],
        ".voip-ptt": ["pushtotalk"],
        ".complication": ["complication"],
        ".pushkit.fileprovider": ["fileprovider"],
        ".location-query": ["location"],
        ".push-type.liveactivity": ["liveactivity"],
    ]

    /// Judges a request in the order APNs does; throws the first rejection.
    ///
    /// `fields` are the request's headers the mock reads; `credential` (the provider token of
    /// `authorization`) comes from `respond`, which needs it for the capture.
    func validate(
        _ request: HTTPRequest, fields: borrowing APNsRequestHeaders, token: Substring?,
        credential: ProviderCredential?, nowMs: Int64, info: inout APNsPushInfo, tokenValid: inout Bool
    ) throws(APNsRejection) {
        try validateRequestLine(request, fields: fields, token: token)
        info.providerTokenKeyID = credential?.keyID
        try authenticate(fields, credential: credential, connection: request.connectionID, nowMs: nowMs)
        tokenValid = true
        try validatePush(request, fields: fields, info: &info)
        try validateDevice(token, pushType: info.effectivePushType, nowMs: nowMs)
    }

    /// The checks before the provider token's: method, path, header syntax, device token format.
    func validateRequestLine(
        _ request: HTTPRequest, fields: borrowing APNsRequestHeaders, token: Substring?
    ) throws(APNsRejection) {
        // MARK: Method and path
        guard request.method == "POST" else { throw APNsRejection(.methodNotAllowed, "method \(request.method)") }
        guard let token else { throw APNsRejection(.badPath, "the path must be /3/device/<token>") }
        guard !token.isEmpty else { throw APNsRejection(.missingDeviceToken, "no device token in the path") }
        // Read once, for the last check below: a well-formed token (hexadecimal) has no '/', so only another
        // needs the search. No '/' byte means no '/' character; with one, only non-ASCII text needs the
        // character search.
        let isWellFormed = Self.isWellFormedDeviceToken(token)
        if !isWellFormed {
            let text = String(token)
            guard !text.utf8.contains(UInt8(ascii: "/")) || !(text.isPlainASCII || text.contains("/")) else {
                throw APNsRejection(.badPath, "the path must be /3/device/<token>")
            }
        }

        // MARK: Header syntax
        if let id = fields.apnsID, !MockIDs.isUUID(id) {
            throw APNsRejection(.badMessageId, "apns-id is not a UUID")
        }
        // Pairwise: a request has a handful of fields, and hashing each name cost more.
        let all = request.headers.fields
        for i in all.indices where all[i].name != "cookie" {
            let length = all[i].name.utf8.count
            for j in 0..<i where all[j].name.utf8.count == length && all[j].name == all[i].name {
                throw APNsRejection(.duplicateHeaders, "header \(all[i].name) was sent more than once")
            }
        }
        guard isWellFormed else {
            throw APNsRejection(.badDeviceToken, "a device token is 64 to 200 hexadecimal digits")
        }
    }

    /// The checks after the provider token's that read the request alone: topic, push type, priority,
    /// expiration, collapse ID, payload. Fills `info` with what they read.
    func validatePush(_ request: HTTPRequest, fields: borrowing APNsRequestHeaders, info: inout APNsPushInfo)
        throws(APNsRejection)
    {
        let pushType = try validateTopic(fields: fields, info: &info)
        try validateDeliveryOptions(fields: fields, pushType: pushType, info: &info)
        try validatePayload(request, pushType: pushType)
    }

    // MARK: Topic and push type

    /// The topic and the push type it allows (the header's, else the one APNs infers); returns the push type.
    func validateTopic(fields: borrowing APNsRequestHeaders, info: inout APNsPushInfo) throws(APNsRejection)
        -> String
    {
        guard let topic = fields.topic, !topic.isEmpty else {
            throw APNsRejection(.missingTopic, "token-based pushes need apns-topic")
        }
        info.topic = topic
        let judged = judge(topic: topic)
        guard judged.isValid else {
            throw APNsRejection(.badTopic, "apns-topic is not a valid topic")
        }
        guard let allowedTypes = judged.allowed else {
            throw APNsRejection(
                .topicDisallowed, "the key may push to \(credentials.bundleID) and its suffixed topics, not \(topic)")
        }
        let pushType: String
        if let raw = fields.pushType {
            guard Self.isPushType(raw) else {
                throw APNsRejection(.invalidPushType, "apns-push-type \(raw) is not a push type")
            }
            pushType = raw
        } else {
            // Without the header APNs infers the type; a .voip topic means a VoIP push.
            pushType = allowedTypes.contains("alert") ? "alert" : allowedTypes[0]
        }
        info.pushType = fields.pushType
        info.effectivePushType = pushType
        guard allowedTypes.contains(pushType) else {
            let bundle = credentials.bundleID  // read here only: reading it for every push retained it
            let expected = Self.topicSuffixes.first { $0.value.contains(pushType) }.map { bundle + $0.key } ?? bundle
            throw APNsRejection(
                .deviceTokenNotForTopic, "a \(pushType) push needs topic \(expected), not \(topic)")
        }
        return pushType
    }

    // MARK: Priority, expiration, collapse ID

    /// The delivery options' headers: priority (never 10 for a background push), expiration, collapse ID.
    func validateDeliveryOptions(fields: borrowing APNsRequestHeaders, pushType: String, info: inout APNsPushInfo)
        throws(APNsRejection)
    {
        switch fields.priority {
        case .absent: break
        case .malformed: throw APNsRejection(.badPriority, "apns-priority must be 10, 5 or 1")
        case .value(let p): info.priority = Int(p)
        }
        if pushType == "background" && (info.priority ?? 5) == 10 {
            throw APNsRejection(.badPriority, "background pushes must not use priority 10")
        }
        switch fields.expiration {
        case .absent: break
        case .malformed: throw APNsRejection(.badExpirationDate, "apns-expiration must be UNIX seconds")
        case .value(let seconds): info.expiration = seconds
        }
        if let collapse = fields.collapseID {
            info.collapseID = collapse
            guard collapse.utf8.count <= 64 else {
                throw APNsRejection(.badCollapseId, "apns-collapse-id is \(collapse.utf8.count) bytes; at most 64")
            }
        }
    }

    // MARK: Payload

    /// The body: present, within the push type's size limit, and a JSON dictionary.
    func validatePayload(_ request: HTTPRequest, pushType: String) throws(APNsRejection) {
        let body = request.body  // read once: each read retained and released it
        guard !body.isEmpty else { throw APNsRejection(.payloadEmpty, "the body is empty") }
        let limit = pushType == "voip" ? Self.voipPayloadLimit : Self.payloadLimit
        guard body.count <= limit else {
            throw APNsRejection(.payloadTooLarge, "the payload is \(body.count) bytes; at most \(limit)")
        }
        // A scan without building values settles the usual case; the parser explains any rejection.
        //
        // Apple documents no reason for a body that is not a JSON dictionary, and clients decode `reason`
        // into a closed list (some crash on a string outside it), so the answer must come from that list.
        // None was found said of malformed JSON by Apple or by client-library reports; the closest is
        // `PayloadEmpty` (400, "the message payload is empty"): APNs finds no dictionary to deliver, the
        // same 400 a client treats as its own permanent error, never a retry.
        if !JSONValue.isObjectDocument(body) {
            let json: JSONValue
            do {
                json = try JSONValue.parse(body)
            } catch {
                throw APNsRejection(.payloadEmpty, "the payload is not JSON (no dictionary to deliver): \(error)")
            }
            guard case .object = json else {
                throw APNsRejection(
                    .payloadEmpty, "the payload is a JSON \(json.typeName), not the dictionary APNs delivers")
            }
        }
    }

    /// The last check: what the `DeviceRegistry` knows of `token` now.
    func validateDevice(_ token: Substring?, pushType: String?, nowMs: Int64) throws(APNsRejection) {
        // The token becomes a string of its own only when some device is registered.
        // Read through the optional, not bound: binding `registry` retained and released it per push.
        if let token, registry?.isEmpty == false, let device = registry?.device(String(token)) {
            if let env = device.environment, env != environment {
                throw APNsRejection(.badDeviceToken, "the token belongs to the \(env.rawValue) environment")
            }
            switch device.status {
            case .active: break
            case .unregistered:
                throw APNsRejection(
                    .unregistered, "the token is unregistered", timestampMs: device.sinceMs > 0 ? device.sinceMs : nowMs
                )
            case .expired: throw APNsRejection(.expiredToken, "the token has expired")
            case .foreignSender: throw APNsRejection(.deviceTokenNotForTopic, "the token belongs to another app")
            }
            switch (device.tokenKind, pushType) {
            case (.voip, let type?) where type != "voip":
                throw APNsRejection(
                    .deviceTokenNotForTopic, "the token is a PushKit (VoIP) token: a \(type) push cannot reach it")
            case (.alert, "voip"):
                throw APNsRejection(
                    .deviceTokenNotForTopic, "the token was issued for alerts, not VoIP: a voip push cannot reach it")
            default: break
            }
        }
    }

    /// Whether `topic` is a valid topic (at most 255 bytes of printable ASCII) and, if so, the push types
    /// it may carry for this mock's bundle; remembers the last topic, which a client sends again and
    /// again (the same string, as the server reuses header strings).
    func judge(topic: String) -> TopicJudgement {
        if let known = lastTopic.withLock({ last in last?.topic == topic ? last?.judgement : nil }) { return known }
        let isValid = topic.utf8.count <= 255 && topic.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F })
        let allowed = isValid ? Self.allowedPushTypes(topic: topic, bundle: credentials.bundleID) : nil
        let judgement = TopicJudgement(isValid: isValid, allowed: allowed.map { $0.sorted() })
        lastTopic.withLock { $0 = (topic, judgement) }
        return judgement
    }

    /// The push types `topic` may carry when the key belongs to `bundle`; nil when the topic is not
    /// the bundle ID or the bundle ID with a known suffix.
    static func allowedPushTypes(topic: String, bundle: String) -> Set<String>? {
        if topic.isPlainASCII && bundle.isPlainASCII {
            // Bytes compare as characters do here, without building `bundle + "."` or counting characters.
            let utf8 = topic.utf8
            guard utf8.starts(with: bundle.utf8) else { return nil }
            let suffix = topic[utf8.index(utf8.startIndex, offsetBy: bundle.utf8.count)...]
            guard suffix.isEmpty || suffix.utf8.first == UInt8(ascii: ".") else { return nil }
            return topicSuffixes[String(suffix)]
        }
        guard topic == bundle || topic.hasPrefix(bundle + ".") else { return nil }
        return topicSuffixes[String(topic.dropFirst(bundle.count))]
    }

    /// `pushTypes.contains(type)` without hashing: the names are short (stored inline in the string),
    /// so comparing with each costs less than hashing once.
    static func isPushType(_ type: String) -> Bool { pushTypeList.contains(type) }

    /// `pushTypes` as a list, VoIP first.
    private static let pushTypeList = ["voip"] + pushTypes.subtracting(["voip"]).sorted()

    /// Even-length hexadecimal of 64 to 200 digits (32-byte tokens today; APNs allows longer ones).
    static func isWellFormedDeviceToken(_ token: String) -> Bool { isWellFormedDeviceToken(token[...]) }

    /// `isWellFormedDeviceToken` of a slice.
    static func isWellFormedDeviceToken(_ token: Substring) -> Bool {
        // Read in place (a copy to call `withUTF8` on retained and released the target).
        token.utf8.withContiguousStorageIfAvailable(isWellFormedDeviceToken(bytes:))
            ?? Array(token.utf8).withUnsafeBufferPointer(isWellFormedDeviceToken(bytes:))
    }

    private static func isWellFormedDeviceToken(bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = bytes.count
        guard n >= 64 && n <= 200 && n % 2 == 0 else { return false }
        // Looked up and summed without a branch per byte: in random hex, digits and letters alternate
        // by chance, and a branch on which it was mispredicted about every other byte (2% of a push).
        return nonHexDigit.withUnsafeBufferPointer { table in
            var bad: UInt8 = 0
            for b in bytes { bad |= table[Int(b)] }
            return bad == 0
        }
    }

    /// 1 at each byte value that is not a hexadecimal digit, 0 at the digits.
    private static let nonHexDigit: [UInt8] = (0...255).map { MockIDs.isHexDigit(UInt8($0)) ? 0 : 1 }

    // MARK: Provider tokens

    /// Checks the provider token of a request on `connection` (the refresh rule counts per connection):
    /// `credential` is that of `fields.authorization`, nil when it has none.
    func authenticate(
        _ fields: borrowing APNsRequestHeaders, credential: ProviderCredential?, connection: UInt64, nowMs: Int64
    ) throws(APNsRejection) {
        guard let jwt = credential?.jwt else {
            // A value with a bearer token is not blank; only other values need the scan.
            let blank =
                fields.authorization?.utf8.allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") } ?? true
            if blank { throw APNsRejection(.missingProviderToken, "no authorization header") }
            throw APNsRejection(.invalidProviderToken, "authorization must be 'bearer <provider token>'")
        }
        let decision: ProviderTokenBook.Decision
        if let known = state.withLock({ $0.tokens.check(token: jwt, connection: connection, nowMs: nowMs) }) {
            decision = known
        } else {
            let verified = try verifyProviderToken(jwt, nowMs: nowMs)
            decision = state.withLock {
                $0.tokens.admit(token: jwt, verified: verified, connection: connection, nowMs: nowMs)
            }
        }
        switch decision {
        case .accepted: return
        case .expired: throw APNsRejection(.expiredProviderToken, "the provider token's iat is more than an hour old")
        case .tooManyUpdates:
            throw APNsRejection(
                .tooManyProviderTokenUpdates,
                "this connection changed its provider token less than 20 minutes after its previous change")
        }
    }

    /// Decodes and verifies a provider token the mock has not seen: ES256, the mock's `kid` and team,
    /// a numeric `iat` not in the future, a valid raw r‖s signature.
    func verifyProviderToken(_ token: String, nowMs: Int64) throws(APNsRejection) -> VerifiedProviderToken {
        let jwt: JWT
        do {
            jwt = try JWT.decode(token)
        } catch {
            throw APNsRejection(.invalidProviderToken, error.message)
        }
        guard jwt.algorithm == "ES256" else {
            throw APNsRejection(.invalidProviderToken, "alg is \(jwt.algorithm ?? "absent"); APNs needs ES256")
        }
        guard let kid = jwt.keyID, kid == credentials.apnsKeyID else {
            throw APNsRejection(
                .invalidProviderToken, "kid \(jwt.keyID ?? "absent") is not the key ID \(credentials.apnsKeyID)")
        }
        guard let iss = jwt.stringClaim("iss"), iss == credentials.apnsTeamID else {
            throw APNsRejection(
                .invalidProviderToken,
                "iss \(jwt.stringClaim("iss") ?? "absent") is not the team ID \(credentials.apnsTeamID)")
        }
        guard let iat = jwt.numericDate("iat") else {
            throw APNsRejection(.invalidProviderToken, "iat is absent or not a number")
        }
        guard iat * 1000 <= Double(nowMs) + 300_000 else {
            throw APNsRejection(.invalidProviderToken, "iat lies in the future")
        }
        do {
            try jwt.verifySignature(with: credentials.apnsPublicKey)
        } catch {
            throw APNsRejection(.invalidProviderToken, error.message)
        }
        state.withLock { $0.signatureChecks += 1 }
        return VerifiedProviderToken(keyID: kid, teamID: iss, issuedAt: iat)
    }
}
