/// The callx profile's part of a target file: how the backend's API differs from the reference design
/// (`operations:`, `installation:`, `values:`, `numbers:`, and `answerByMediaRequest`, which reshapes
/// them), how it pages and keeps its events feed, how a call asks for a short ring, and whether it places
/// video calls. Old files keep their top-level keys and their `capabilities:` forms (`{eventRetention: N}`,
/// `{shortRing: FIELD}`, `videoCalls`), which this profile decodes. Its mapping builds on the engine's token
/// API (`TargetFile.tokenAPI`: `operations.registerToken`/`deleteToken`, `values.kind`/`apnsEnvironment`,
/// `installation:`), which any profile's file has without Callx.
struct CallxTargetConfiguration: ProfileConfiguration {
    /// How canonical requests and answers map to the target's API; nil when it speaks the reference design.
    var mapping: TargetMapping? = nil
    /// The reference design's call routes: the canonical requests the profile builds.
    var routes = TargetRoutes()
    /// The events feed page size the engine asks for while draining (`limit`), to exercise paging.
    var eventPageLimit: Int? = nil
    /// How many events the backend keeps per feed (`{eventRetention: N}`).
    var eventRetention: Int? = nil
    /// The create body member through which a call asks for a short ring (`{shortRing: FIELD}`).
    var shortRingField: String? = nil
    /// Whether the backend places video calls (`videoCalls`; the embedded reference does).
    var supportsVideo = true

    var apiMapping: (any TargetAPIMapping)? { CallxAPIMapping(mapping: mapping) }
}

extension Capability {
    /// The call's ring time is short enough to wait for expiry within a run.
    public static let shortRing = Capability(rawValue: "shortRing")
    /// The backend can be made to forget old events, so a cursor falls behind its retention.
    public static let eventRetention = Capability(rawValue: "eventRetention")
    /// The backend sends Android push signals (call.accepted / call.ended over FCM).
    public static let pushSignals = Capability(rawValue: "pushSignals")
    /// The backend issues media sessions.
    public static let mediaSession = Capability(rawValue: "mediaSession")
    /// Answering is an operation of its own, not a side effect of asking for media (a target file
    /// declaring `answerByMediaRequest` lacks it).
    public static let answerEndpoint = Capability(rawValue: "answerEndpoint")
    /// The backend honours operationId idempotency keys on create, answer and end.
    public static let idempotency = Capability(rawValue: "idempotency")
    /// The backend places video calls (a target file's declaration; the embedded backend has it).
    public static let videoCalls = Capability(rawValue: "videoCalls")
}

extension Target {
    /// How long a call rings when a `shortRing` scenario asks through `shortRingField`.
    public static let shortRingSeconds = 4

    /// A Callx target built in code (the embedded reference): its events feed's page size and retention.
    /// The `eventRetention` capability follows the retention: a target that keeps no declared number of
    /// events lacks it.
    public init(
        name: String, baseURL: String, accounts: @escaping @Sendable (_ name: String, _ run: Int) -> TargetUser?,
        routes: TargetRoutes = TargetRoutes(), capabilities: Set<Capability>, appId: String,
        eventPageLimit: Int?, eventRetention: Int?
    ) {
        self.init(name: name, baseURL: baseURL, accounts: accounts, capabilities: capabilities, appId: appId)
        self.routes = routes
        self.eventPageLimit = eventPageLimit
        self.eventRetention = eventRetention
    }

    /// The reference design's call routes: the canonical requests the profile builds.
    public var routes: TargetRoutes {
        get { callx.routes }
        set { callx.routes = newValue }
    }
    /// How canonical requests and responses map to this target's API; nil when it speaks the reference design.
    public var mapping: TargetMapping? {
        get { callx.mapping }
        set { callx.mapping = newValue }
    }

    /// The events feed page size the engine asks for while draining (`limit`), to exercise paging.
    public var eventPageLimit: Int? {
        get { callx.eventPageLimit }
        set { callx.eventPageLimit = newValue }
    }
    /// How many events the backend keeps per feed; setting it gives or takes the `eventRetention` capability.
    public var eventRetention: Int? {
        get { callx.eventRetention }
        set {
            callx.eventRetention = newValue
            if newValue == nil { capabilities.remove(.eventRetention) } else { capabilities.insert(.eventRetention) }
        }
    }
    /// A create body member through which a scenario that waits for expiry (`needs: [shortRing]`) asks
    /// for a short ring of `Target.shortRingSeconds` (the embedded reference backend's `ringSeconds`). A
    /// target with it rings long by default, so calls that are not about expiry never expire before
    /// their answer on a busy machine; nil when the target's own ring is short (its `shortRing`).
    public var shortRingField: String? {
        get { callx.shortRingField }
        set { callx.shortRingField = newValue }
    }
    /// Whether the backend places video calls (a target file declares the `videoCalls` capability);
    /// scenarios that create a video call are not applicable without it.
    public var supportsVideo: Bool {
        get { callx.supportsVideo }
        set { callx.supportsVideo = newValue }
    }

    private var callx: CallxTargetConfiguration {
        get { profileConfiguration[CallxTargetConfiguration.self] ?? CallxTargetConfiguration() }
        set { profileConfiguration[CallxTargetConfiguration.self] = newValue }
    }
}

extension TargetFile {
    /// How the file maps canonical requests and answers to the backend's API (`operations:`, `installation:`,
    /// `values:`, `numbers:`).
    public var mapping: TargetMapping {
        get { profileConfiguration[CallxTargetConfiguration.self]?.mapping ?? TargetMapping() }
        set {
            var callx = profileConfiguration[CallxTargetConfiguration.self] ?? CallxTargetConfiguration()
            callx.mapping = newValue
            profileConfiguration[CallxTargetConfiguration.self] = callx
        }
    }
    /// How many events the backend keeps per feed, when it declares `{eventRetention: N}`.
    public var eventRetention: Int? { profileConfiguration[CallxTargetConfiguration.self]?.eventRetention }
    /// The create body member through which a call asks for a short ring, from `{shortRing: FIELD}`:
    /// the backend rings long by default and only the scenarios that wait for expiry ask for a short one.
    public var shortRingField: String? { profileConfiguration[CallxTargetConfiguration.self]?.shortRingField }
    /// The events page size the engine asks for while draining (`eventPageLimit:`).
    public var eventPageLimit: Int? { profileConfiguration[CallxTargetConfiguration.self]?.eventPageLimit }
}

extension CallxProfile {
    /// `numbers:` and `eventPageLimit:` (its call operations and call enumerations come in the engine's
    /// `operations:` and `values:`).
    public var targetFileKeys: [String] { ["numbers", "eventPageLimit"] }

    /// Its call operations (create, answer, end, get, mediaSession, events).
    public var targetFileOperations: [OperationSyntax] { TargetOperation.callOperations.map(\.syntax) }

    /// `values.reason` and `values.state`.
    public var targetFileValueNames: [String] { TargetFileDecoder.callValues.keys.sorted() }

    public var capabilities: [Capability] {
        [.shortRing, .eventRetention, .pushSignals, .mediaSession, .answerEndpoint, .idempotency]
    }

    /// `{eventRetention: N}` and `{shortRing: FIELD}`.
    public var valuedCapabilities: [Capability] { [.eventRetention, .shortRing] }

    public var targetFileCapabilities: [String] { ["answerByMediaRequest", Capability.videoCalls.rawValue] }

    /// The mapping, the feed's page size and retention, the short-ring field and video calls. A plain
    /// `eventRetention` (no number) gives the target no retention, so it lacks the capability.
    public func decodeTargetFile(
        _ section: TargetFileSection, into file: inout TargetFile, decoder: inout TargetFileDecoder
    ) -> (any ProfileConfiguration)? {
        var configuration = CallxTargetConfiguration()
        configuration.mapping = decoder.decodeMapping(section, into: &file)
        configuration.eventPageLimit = section["eventPageLimit"].flatMap {
            decoder.d.int($0.value, "eventPageLimit", min: 1)
        }
        if let given = section.capabilityValues[Capability.eventRetention.rawValue] {
            configuration.eventRetention = decoder.d.int(given.value, given.path, min: 1)
        }
        if configuration.eventRetention == nil { file.capabilities.remove(.eventRetention) }
        if let given = section.capabilityValues[Capability.shortRing.rawValue] {
            configuration.shortRingField = decoder.d.nonEmptyString(given.value, given.path)
        }
        configuration.supportsVideo = file.capabilities.contains(.videoCalls)
        return configuration
    }
}
