import JSON
import PushMocks
import Reports

/// What is specific to one seed system (Callx, DialStack, …): its step keywords, how a captured push
/// reads, its default push type, its invariants and its own per-run state (`RunState`). The engine knows
/// a profile only through this protocol and the `ProfileRegistry` it is given. A profile's steps and invariants
/// reach the run through `RunContext` (send, record, note, fail, values, users, devices, mocks,
/// captures, time, its own state), its one way in: no profile sees the engine's `ScenarioRun`.
///
/// ```swift
/// struct PagerProfile: Profile {
///     typealias RunState = PagerRunState   // a `ProfileRunState`
///     var name: String { "pager" }
///     var summary: String { "Pager backend: pages pushed over FCM" }
///     var stepKeywords: [String] { ["page"] }
///     var requestStepKeywords: [String] { [] }
///     var defaultPushType: String? { nil }
///
///     func decodeStep(_ keyword: String, _ node: YAMLNode, path: String, decoder: inout ScenarioDecoder)
///         -> (any ProfileStep)?
///     {
///         guard let f = decoder.d.mapping(node, path, known: ["user"], required: ["user"]),
///             let user = f["user"].flatMap({ decoder.d.string($0.value, path + ".user") })
///         else { return nil }
///         return PageStep(user: user)
///     }
///
///     func pushView(_ capture: Capture) -> PushView? { nil }
///
///     func invariantFailures(with context: isolated any RunContext) async -> [CheckFailure] {
///         context.note("pages sent: \(context.pager.pagesSent.count)")
///         return []
///     }
/// }
/// ```
/// and one line in the registration list the CLI hands the engine as a `ProfileRegistry`.
public protocol Profile: Sendable {
    /// What the profile keeps of one scenario run (`ProfileRunState`), in `RunContext.profileStates[Self.self]`;
    /// `NoRunState` when it keeps nothing.
    associatedtype RunState: ProfileRunState = NoRunState
    /// `callx`, `dialstack`, … (the `--profile` value, suite.yaml's `profile:`, a target file's `profile:`).
    var name: String { get }
    /// One line for help and reports.
    var summary: String { get }
    /// The default suite folder: `suites/<name>`.
    var suiteDirectory: String { get }
    /// Its suite as compiled into its module (`EmbeddedSuite`: the EmbedSuites plugin applied to the module
    /// writes `EmbeddedSuiteFiles.suite` from the module's `Suite/` folder), read as `builtin:<name>`. None by
    /// default: the profile's suite is then only read from disk (`--suite DIR`).
    var embeddedSuite: EmbeddedSuite { get }
    /// The step types this profile adds to the engine's generic steps, each with its keywords and its decoding
    /// (`DecodableStep`): `stepKeywords`, `requestStepKeywords` and `decodeStep` follow from them.
    var stepTypes: [any DecodableStep.Type] { get }
    /// Step keywords this profile adds to the engine's generic ones (those of `stepTypes`).
    var stepKeywords: [String] { get }
    /// Those of `stepKeywords` whose steps send one request and may run in a `race` (each such step
    /// gives its request through `ProfileStep.request(in:)`).
    var requestStepKeywords: [String] { get }
    /// Decodes one of its step keywords; `path` is the step's field (`steps[2].create`). Problems go to
    /// `decoder.d` with the node's mark and the field; nil when the step cannot be read. Names the step
    /// saves go to `decoder.stepSaves`.
    func decodeStep(_ keyword: String, _ node: YAMLNode, path: String, decoder: inout ScenarioDecoder)
        -> (any ProfileStep)?
    /// How a captured push reads for matching (`expectPush type:/call:/match:`), for the timeline and
    /// for "is it this scenario's push"; nil when the capture is not a push this profile understands.
    func pushView(_ capture: Capture) -> PushView?
    /// The type `expectPush` means when the scenario gives none (`call.invited` for callx); nil: any.
    var defaultPushType: String? { get }
    /// The profile's invariants over one finished scenario run (`context.judgedCaptures()` are the pushes
    /// of its devices for its own calls): failures charged to the profile's own requirement IDs. None by
    /// default.
    func invariantFailures(with context: isolated any RunContext) async -> [CheckFailure]
    /// Notes what an answer the backend gave says, for the profile's invariants and clean-up (Callx:
    /// the call's snapshot and the media credentials it issued). Called for every answer a step gets,
    /// after it is on the timeline. The default notes nothing.
    func observeResponse(_ exchange: Exchange, with context: isolated any RunContext)
    /// Pushes an `expectNoPush` charged to `requirement` about call `call` leaves out because the step's
    /// forbidden cause did not make them: they reached the mocks before what the requirement forbids pushes
    /// after (Callx: CALLX-EXP-2 leaves out those read before the call's end request left and those in flight
    /// at an expiry, CALLX-E2E-3 those read before the restart), or they are what the backend sends anyway
    /// (Callx: CALLX-OUTBOX-1 leaves out as many copies of the invitation to a token as a lone create of
    /// another call sent it). Judged by `ArrivalOrder` where the cause is a request ringcheck sent; a
    /// backend's own deadline has no such order. The default leaves out none.
    func pushesNotCausedBy(of requirement: String?, call: String?, with context: isolated any RunContext)
        -> @Sendable (Capture) -> Bool
    /// Registers scenario device `device` (one not marked `registered: false`) with the backend before
    /// the first step, as its app would at install; throws `HarnessStop` when the backend refuses. The
    /// default registers its token through the target's token registration
    /// (`RunContext.registerToken(ofDevice:)`, the request a `registerToken` step sends).
    func registerDevice(_ device: VirtualDevice, with context: isolated any RunContext) async throws
    /// The answer a step is judged by, from the one the backend gave to `request` (Callx: a create, answer
    /// or end whose mapped answer carries no snapshot is completed by a follow-up get). Called for every
    /// answer a step gets, after it is on the timeline. The default returns `exchange`.
    func completedAnswer(_ exchange: Exchange, to request: PreparedRequest, with context: isolated any RunContext)
        async -> Exchange
    /// Runs after the engine registered the scenario's devices, before the first step (Callx: registers
    /// the installations whose event feeds the scenario reads). Throws `HarnessStop` when the scenario
    /// cannot start. The default does nothing.
    func prepare(with context: isolated any RunContext) async throws
    /// Runs after a scenario on fixed accounts, once the engine deleted its devices' tokens: leaves the
    /// accounts as the next scenario needs them (Callx: ends the calls the scenario left unfinished).
    /// Never judged, not on the timeline. The default does nothing.
    func cleanUp(with context: isolated any RunContext) async
    /// Whether the reference design's token routes (`pushToken`: `registerToken`, `deleteToken`) are this
    /// profile's own API (Callx's): a target file of another profile that maps `registerToken` but not
    /// `deleteToken` has a token API of its own, and its clean-up guesses no delete route. False by default.
    var ownsReferenceTokenRoutes: Bool { get }

    // MARK: The profile's part of a target file

    /// The top-level keys of a target file this profile owns (DialStack's `webhook`): the engine accepts
    /// them beside its own and hands them to `decodeTargetFile(_:into:decoder:)`. None by default.
    var targetFileKeys: [String] { get }
    /// Decodes the profile's keys of a target file (`section`, which holds those the file gives) into its
    /// own configuration, which `TargetFile.profileConfiguration` and `Target.profileConfiguration` carry.
    /// Called for every target file, whichever profile it runs (a key is read wherever it is given);
    /// `file.profile` says which. Problems go to `decoder.d` with the node's mark and the field; the profile
    /// may add to `file` what the engine keeps (a generated secret in `lifecycle.environment`, a capability).
    /// Nil (the default) when the file gives nothing for the profile.
    ///
    /// ```swift
    /// extension ProbeProfile {
    ///     var targetFileKeys: [String] { ["probeKey"] }
    ///     func decodeTargetFile(
    ///         _ section: TargetFileSection, into file: inout TargetFile, decoder: inout TargetFileDecoder
    ///     ) -> (any ProfileConfiguration)? {
    ///         guard let e = section["probeKey"] else { return nil }
    ///         return decoder.d.nonEmptyString(e.value, "probeKey").map { ProbeTargetConfiguration(apiKey: $0) }
    ///     }
    /// }
    /// ```
    func decodeTargetFile(_ section: TargetFileSection, into file: inout TargetFile, decoder: inout TargetFileDecoder)
        -> (any ProfileConfiguration)?
    /// The operations a target file's `operations:` may map for this profile beside the engine's token
    /// operations (Callx's `create`, `answer`, …): the engine accepts their keys, reads them with its
    /// operation decoder when the profile asks (`TargetFileDecoder.decodeMappedOperation`), and hands their
    /// entries to `decodeTargetFile(_:into:decoder:)` in `TargetFileSection.operations`. None by default.
    var targetFileOperations: [OperationSyntax] { get }
    /// The enumerations a target file's `values:` may rename for this profile beside the engine's `kind` and
    /// `apnsEnvironment` (Callx's `reason`, `state`), handed over in `TargetFileSection.values`. None by
    /// default.
    var targetFileValueNames: [String] { get }
    /// Whether a target file of this profile must list `users:` (false for a profile that signs in as no
    /// user and makes its IDs per run). True by default.
    var targetNeedsUsers: Bool { get }
    /// The commented lines `ringcheck init-target`'s template shows for the profile, after the `profile:`
    /// line (each ending in a newline). None by default.
    var targetFileTemplate: String { get }
    /// The capabilities the profile's scenarios may need beyond the engine's (`ProfileRegistry.knownCapabilities` is their
    /// union). None by default.
    var capabilities: [Capability] { get }
    /// Those of `capabilities` a target file may declare with a value (`{eventRetention: 40}`): the engine
    /// accepts that form for them and hands the value to `decodeTargetFile(_:into:decoder:)` in
    /// `TargetFileSection.capabilityValues`. None by default.
    var valuedCapabilities: [Capability] { get }
    /// Names a target file's `capabilities:` may list beyond `capabilities`, declarations no scenario needs
    /// (Callx's `answerByMediaRequest`, `videoCalls`). None by default.
    var targetFileCapabilities: [String] { get }

    // MARK: Judging captures alone

    /// Its judge of captured pushes for `ringcheck check-payload --profile <name>` (`CapturedPushJudge`: its
    /// push rules over captures read back from JSON); nil (the default) when it has none.
    var capturedPushJudge: (any CapturedPushJudge.Type)? { get }
    /// Its check of a whole push document for `ringcheck check-payload` (`PayloadDocumentJudge`: an APNs body, an
    /// FCM message, an invitation, captures, with `--kind`); nil (the default) when it has none. The command
    /// prefers it to `capturedPushJudge`.
    var payloadDocumentJudge: (any PayloadDocumentJudge.Type)? { get }

    // MARK: Load mode

    /// What it brings to `ringcheck load` (`ProfileLoad`: its workload, its embedded load users, its
    /// words and options); nil (the default) when it has no load mode.
    var load: (any ProfileLoad)? { get }

    // MARK: Trigger

    /// Its part of `ringcheck trigger <name>` (`TriggerProfileOptions`: its own options, its plan, its trigger);
    /// nil (the default) when `trigger` does not know it.
    var triggerOptions: (any TriggerProfileOptions.Type)? { get }
}

extension Profile {
    public var suiteDirectory: String { "suites/\(name)" }
    public var embeddedSuite: EmbeddedSuite { EmbeddedSuite() }
    public var stepTypes: [any DecodableStep.Type] { [] }
    public func invariantFailures(with context: isolated any RunContext) async -> [CheckFailure] { [] }
    public func observeResponse(_ exchange: Exchange, with context: isolated any RunContext) {}
    public func pushesNotCausedBy(of requirement: String?, call: String?, with context: isolated any RunContext)
        -> @Sendable (Capture) -> Bool
    { { _ in false } }
    public func completedAnswer(
        _ exchange: Exchange, to request: PreparedRequest, with context: isolated any RunContext
    ) async -> Exchange { exchange }
    public func prepare(with context: isolated any RunContext) async throws {}
    public func cleanUp(with context: isolated any RunContext) async {}
    public var ownsReferenceTokenRoutes: Bool { false }
    public var targetFileKeys: [String] { [] }
    public func decodeTargetFile(
        _ section: TargetFileSection, into file: inout TargetFile, decoder: inout TargetFileDecoder
    ) -> (any ProfileConfiguration)? { nil }
    public var targetFileOperations: [OperationSyntax] { [] }
    public var targetFileValueNames: [String] { [] }
    public var targetNeedsUsers: Bool { true }
    public var targetFileTemplate: String { "" }
    public var capabilities: [Capability] { [] }
    public var valuedCapabilities: [Capability] { [] }
    public var targetFileCapabilities: [String] { [] }
    public var capturedPushJudge: (any CapturedPushJudge.Type)? { nil }
    public var payloadDocumentJudge: (any PayloadDocumentJudge.Type)? { nil }
    public var load: (any ProfileLoad)? { nil }
    public var triggerOptions: (any TriggerProfileOptions.Type)? { nil }
    public func registerDevice(_ device: VirtualDevice, with context: isolated any RunContext) async throws {
        try await context.registerToken(ofDevice: device.name)
    }
}

/// A step a profile adds (`create`, `sendWebhook`, …): decoded by its profile, run by the engine.
public protocol ProfileStep: Sendable {
    /// The step's keyword in scenario files.
    var keyword: String { get }
    /// Runs the step on the run's actor, through the part of the run a step may use (`RunContext`).
    /// Throws `HarnessStop` for set-up failures; records check failures with `context.fail`.
    func perform(_ step: ScenarioStep, with context: isolated any RunContext) async throws
    /// For a request step (one of the profile's `requestStepKeywords`): the request it sends and its
    /// options, so that a `race` can release it together with others; nil (the default) otherwise.
    func request(with context: isolated any RunContext) throws -> (PreparedRequest, RequestOptions)?
    /// The steps it holds (a step that nests others); none by default.
    var nestedSteps: [ScenarioStep] { get }
    /// How long the step waits whatever the backend does, in milliseconds (a fixed wait, an
    /// observation window): what `Scenario.expectedDurationMs` adds up to schedule the longest
    /// scenarios first. 0 by default (a step that ends on the event it waits for).
    var expectedWaitMs: Int { get }
    /// The users whose own event feed the step reads (a device reads through its own installation): the
    /// engine registers those users' installations before the first step, as an app registers its push
    /// token before it reads its feed. None by default.
    var feedReaders: [String] { get }
    /// Why the step cannot run against `target` (Callx's video `create` against a target without
    /// `videoCalls`: "creates a video call, and …"), after the step's path in the scenario's reason for
    /// being not applicable; nil (the default) when it can.
    func notApplicableReason(on target: Target) -> String?
    /// Equality, for `Step: Equatable` (the default compares with `other as? Self` for an Equatable type).
    func isEqual(to other: any ProfileStep) -> Bool
    /// What the step does, as `ringcheck explain` says it before the step's fields ("Places a call"); nil (the
    /// default): "Runs the '<keyword>' step".
    var explanation: String? { get }
}

extension ProfileStep {
    public func request(with context: isolated any RunContext) throws -> (PreparedRequest, RequestOptions)? { nil }
    public var explanation: String? { nil }
    public var nestedSteps: [ScenarioStep] { [] }
    public var expectedWaitMs: Int { 0 }
    public var feedReaders: [String] { [] }
    public func notApplicableReason(on target: Target) -> String? { nil }
}

extension ProfileStep where Self: Equatable {
    public func isEqual(to other: any ProfileStep) -> Bool { (other as? Self) == self }
}

/// A profile step inside `Step` (a box, so that `Step` stays Equatable).
public struct AnyProfileStep: Sendable, Equatable, CustomStringConvertible {
    public let base: any ProfileStep

    public init(_ base: any ProfileStep) { self.base = base }

    public static func == (lhs: AnyProfileStep, rhs: AnyProfileStep) -> Bool { lhs.base.isEqual(to: rhs.base) }

    public var description: String { "\(base)" }
}

/// How a profile reads one captured push.
public struct PushView: Sendable, Equatable {
    /// The key of the profile's part of the match document (`callx`).
    public var key: String
    /// The profile's part of the match document (`callx`: the invitation object; `.null` when absent).
    public var document: JSONValue
    /// The push's type (`call.invited`, `call.mobile_push_wakeup`), when it has one.
    public var type: String?
    /// The call it belongs to, when it names one. A push that names a call is judged (invariants,
    /// timeline) only when the scenario made that call its own (`RunContext.claimCall`; Callx's
    /// `create` does); a push that names none is always judged.
    public var callId: String?
    /// For a profile that ties a push to its call by content (DialStack: the call ID as a string under any key),
    /// every string value the push carries; nil (the default) ties it by `callId` alone. When set, the push
    /// belongs to the one claimed call whose ID it carries (`calls(among:)`), whatever `callId` says.
    public var carried: Set<String>?
    /// A few words for the timeline and evidence: `call.invited rev 3`.
    public var summary: String

    public init(
        key: String, document: JSONValue, type: String?, callId: String?, carried: Set<String>? = nil,
        summary: String
    ) {
        self.key = key
        self.document = document
        self.type = type
        self.callId = callId
        self.carried = carried
        self.summary = summary
    }

    /// The calls among `claimed` the push belongs to: by content (`carried`) when the profile gives it, else the
    /// one it names (`callId`, whether claimed or not). More than one: the push is unattributable to any of them.
    ///
    /// ```swift
    /// let view = PushView(key: "dialstack", document: body, type: nil, callId: nil, carried: ["call_1"], summary: "")
    /// view.calls(among: ["call_1", "call_2"])  // ["call_1"]
    /// ```
    public func calls(among claimed: (String) -> Bool) -> Set<String> {
        guard let carried else { return callId.map { [$0] } ?? [] }
        return carried.filter(claimed)
    }
}
