import Conformance
import JSON

/// What the engine knows about one scenario that the invariants need: which token is which device,
/// the expected VoIP topic, each call's timeline as the engine observed it, and secrets that must
/// never travel in a push.
public struct InvariantContext: Sendable {
    /// The scenario's virtual devices with their current and past tokens.
    public var devices: [InvariantDevice]
    /// The `apns-topic` VoIP pushes must carry (`<bundle ID>.voip`); nil skips the topic rule, except
    /// that the topic must still end in `.voip`.
    public var voipTopic: String?
    /// Calls by callId.
    public var calls: [String: CallTimeline]
    /// How long after the engine observed a call stop ringing an invitation may still arrive without
    /// counting as sent afterwards (it may have been in flight). Default 1000 ms.
    public var inFlightMarginMs: Int64
    /// How long after the stop an invitation the backend stamped (`issuedAtMs`) as sent no later than
    /// the stop may still arrive: a loaded machine can hold a sent push seconds in the HTTP/2 client.
    /// Default 15,000 ms.
    public var inFlightIssuedBoundMs: Int64 = InFlightInvitation.issuedBoundMs
    /// Media credential values the backend issued in this scenario (TURN usernames and passwords,
    /// tokens): none may appear in any push.
    public var mediaCredentials: [String]
    /// Provider secrets (the APNs `.p8` key, the service account's private key): none may appear in a push.
    public var providerSecrets: [String]
    /// Requirement levels (from the catalogue the engine loaded).
    public var levels: InvariantLevels
    /// The target's value maps, through which feed events were read back: a push's words are read through
    /// them too before the two are compared (`EventIdRegistry`). Empty for the reference design's words.
    public var values = ValueMaps()

    /// Creates a value from its parts.
    public init(
        devices: [InvariantDevice] = [], voipTopic: String? = nil, calls: [CallTimeline] = [],
        inFlightMarginMs: Int64 = 1000, mediaCredentials: [String] = [], providerSecrets: [String] = [],
        levels: InvariantLevels = InvariantLevels()
    ) {
        self.devices = devices
        self.voipTopic = voipTopic
        self.calls = Dictionary(calls.map { ($0.callId, $0) }, uniquingKeysWith: { _, last in last })
        self.inFlightMarginMs = inFlightMarginMs
        self.mediaCredentials = mediaCredentials
        self.providerSecrets = providerSecrets
        self.levels = levels
    }

    /// The device a push token belongs to (any token it ever had), if any.
    public func device(token: String?) -> InvariantDevice? {
        guard let token else { return nil }
        return devices.first { $0.tokens.contains(token) }
    }
}

/// A virtual device as the invariants see it.
///
/// A device that re-registers for another APNs environment during a scenario is best given as one
/// `InvariantDevice` per registration (same name, that registration's token and environment), so each
/// push is judged against the environment of the token it went to.
public struct InvariantDevice: Sendable, Equatable {
    /// The scenario's name for it, e.g. `b-phone`.
    public var name: String
    public var kind: VirtualDevice.Kind
    /// The APNs environment its VoIP token is registered for (nil for FCM).
    public var environment: VirtualDevice.Environment?
    /// Every token the device registered during the scenario.
    public var tokens: [String]

    /// Creates a value from its parts; an `apnsVoip` device defaults to production.
    public init(name: String, kind: VirtualDevice.Kind, environment: VirtualDevice.Environment? = nil, tokens: [String])
    {
        self.name = name
        self.kind = kind
        self.environment = kind.hasEnvironments ? (environment ?? .production) : environment
        self.tokens = tokens
    }

    /// The scenario's device with the tokens it registered.
    public init(_ device: VirtualDevice, tokens: [String]) {
        self.init(name: device.name, kind: device.kind, environment: device.environment, tokens: tokens)
    }
}

/// One call as the engine observed it: its expiry from a snapshot, and when the engine learned it
/// stopped ringing (the time the answer or end response arrived, or a snapshot showed it ended).
public struct CallTimeline: Sendable, Equatable {
    public var callId: String
    /// `createdAtMs` of a snapshot.
    public var createdAtMs: Int64?
    /// `expiresAtMs` of a snapshot: after it (plus the in-flight margin) no invitation may arrive.
    public var expiresAtMs: Int64?
    /// Whether the create request asked for a video call; nil when it did not say (then `video` is not
    /// judged: the seed's create body has no video field).
    public var video: Bool?
    /// When the engine saw the call answered (its clock, ms since the UNIX epoch).
    public var answeredObservedAtMs: Int64?
    /// When the engine saw the call ended (cancelled, declined, hung up or expired).
    public var endedObservedAtMs: Int64?
    /// Where the first end request for the call fell in `ArrivalOrder`, taken just before it left: a push the
    /// mocks read before that position arrived before the end was asked for, so it is no push "after the end"
    /// (CALLX-EXP-2, `AfterTheEnd`). Nil while no end request was sent.
    public var endRequestOrder: UInt64?

    /// Creates a value from its parts.
    public init(
        callId: String, createdAtMs: Int64? = nil, expiresAtMs: Int64? = nil, video: Bool? = nil,
        answeredObservedAtMs: Int64? = nil, endedObservedAtMs: Int64? = nil
    ) {
        self.callId = callId
        self.createdAtMs = createdAtMs
        self.expiresAtMs = expiresAtMs
        self.video = video
        self.answeredObservedAtMs = answeredObservedAtMs
        self.endedObservedAtMs = endedObservedAtMs
    }

    /// The earliest moment the backend is known to have stopped the call ringing, and why.
    public var stoppedRinging: (atMs: Int64, why: String)? {
        var candidates: [(Int64, String)] = []
        if let answeredObservedAtMs { candidates.append((answeredObservedAtMs, "answered")) }
        if let endedObservedAtMs { candidates.append((endedObservedAtMs, "ended")) }
        if let expiresAtMs { candidates.append((expiresAtMs, "expired")) }
        return candidates.min { $0.0 < $1.0 }.map { (atMs: $0.0, why: $0.1) }
    }
}

/// One entry of an event feed, as the engine read it.
public struct ObservedEvent: Sendable, Equatable {
    /// Whose feed it came from: a device name, or a user for a feed read without a device.
    public var feed: String
    /// The event as the feed returned it.
    public var json: JSONValue
    /// When the engine read it (ms since the UNIX epoch), if known.
    public var receivedAtMs: Int64?

    /// Creates a value from its parts.
    public init(feed: String, json: JSONValue, receivedAtMs: Int64? = nil) {
        self.feed = feed
        self.json = json
        self.receivedAtMs = receivedAtMs
    }
}
