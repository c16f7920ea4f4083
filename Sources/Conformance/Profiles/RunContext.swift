import HTTP
import PushMocks
import Reports

/// The part of a scenario run that a profile's steps, invariants and hooks use: the target, the mocks
/// and their captures, the scenario's users and devices, saved values, the clock, sending a request,
/// the timeline, and charging a requirement — and the profile's own state, typed
/// (`profileStates[MyProfile.self]`). The engine's run (`ScenarioRun`) is the only conformer; a step is
/// handed it as `isolated any RunContext`, so everything here is reached without `await`
/// (swift-nio's `ChannelHandlerContext`, Hummingbird's `RequestContext`).
///
/// ```swift
/// struct PingStep: ProfileStep, Equatable {
///     var user: String
///     var keyword: String { "ping" }
///
///     func perform(_ step: ScenarioStep, with context: isolated any RunContext) async throws {
///         let account = try context.user(user)
///         let request = PreparedRequest(
///             actor: user, method: "GET", path: "/ping", credentials: account.authHeaders)
///         let answer = await context.send(request)
///         context.pager.pings += 1  // the profile's own state (`ProfileRunState`)
///         if answer.status != 200 {
///             try context.fail(
///                 "PAGER-PING-1", check: "\(step.path) ping", expected: "200",
///                 actual: answer.status.map(String.init) ?? "no answer", evidence: [context.evidence(answer)])
///         }
///     }
/// }
/// ```
public protocol RunContext: Actor {
    // MARK: The run's world

    /// The backend under test, as the target file or the defaults describe it.
    var target: Target { get }
    /// The mock push providers: their captures, faults and tokens.
    var mocks: MockStack { get }
    /// The client every request of the run goes through.
    var client: HTTPClient { get }
    /// This run's tag (`r3-ab12cd`): what makes the names it invents its own.
    var runTag: String { get }
    /// The wall clock, in milliseconds since 1970.
    var nowMs: Int64 { get }

    // MARK: Users, devices, values and state

    /// Scenario user `name`'s account; throws `HarnessStop` when the scenario has none.
    func user(_ name: String) throws -> TargetUser
    /// Scenario device `name`; throws `HarnessStop` when the scenario has none.
    func device(_ name: String) throws -> DeviceIdentity
    /// The account, installation and report label an actor (`as: a`, `device: b-phone`) acts with.
    func identity(_ actor: StepActor) throws -> (
        label: String, user: TargetUser, installationId: String, isDevice: Bool
    )
    /// The values the scenario saved (`save:`), and the resolving of `$name.path` references.
    var resolver: ValueResolver { get set }
    /// Every profile's state of this run, typed by its profile (`ProfileRunState`).
    var profileStates: ProfileRunStates { get set }
    /// The scenario this run plays: its steps, users, devices and needs (`needs: [shortRing]`).
    var scenario: Scenario { get }
    /// Every scenario user's account, by name, signed in.
    var users: [String: TargetUser] { get }
    /// Every scenario device, by name.
    var devices: [String: DeviceIdentity] { get }
    /// The devices whose tokens the scenario made gone (a provider fault saying so, a granted delete).
    var goneTokenDevices: Set<String> { get }
    /// The calls the scenario made its own (`claimCall`): only their pushes are judged.
    var ownCalls: Set<String> { get }
    /// The calls any scenario of the run claimed so far, this one's included: a push carrying one of this
    /// scenario's calls and another scenario's is tied to neither (`PushView.carried`).
    var claimedCalls: Set<String> { get }
    /// The `ArrivalOrder` position taken as the scenario's last `restartBackend` step began (nil before
    /// any): a push the mocks read before it was not sent because of the restart.
    var backendRestartOrder: UInt64? { get }

    // MARK: The run's settings

    /// How long a wait that reads the backend again and again (a feed) sleeps between reads.
    var pollInterval: Duration { get }
    /// How long after the engine saw a call stop ringing a push about it may still arrive (in flight).
    var inFlightMarginMs: Int64 { get }
    /// The base64 lines of the private keys the mocks gave the backend (APNs key, service account):
    /// none may travel in a push.
    var providerSecrets: [String] { get }
    /// The suite's requirements, with their levels.
    var catalogue: RequirementCatalogue { get }

    // MARK: Talking to the backend

    /// Sends `request` (through the target's mapping), puts it and its answer on the timeline, and
    /// returns the answer.
    func send(_ request: PreparedRequest) async -> Exchange
    /// Judges an answer by a request step's options (`expect:`, `save:`), charging its requirements.
    func judge(_ exchange: Exchange, _ options: RequestOptions, step: ScenarioStep, inRace: Bool) throws
    /// The exchange as evidence, credentials redacted.
    func evidence(_ exchange: Exchange) -> EvidenceItem
    /// Sends `request` (through the target's mapping) and returns the answer, putting neither on the
    /// timeline and showing the answer to no profile hook: for a read a wait repeats (a feed's pages),
    /// which the caller records with `recordResponse` when it matters.
    func sendUnrecorded(_ request: PreparedRequest) async -> Exchange
    /// Puts an answer on the timeline and shows it to the profile (`Profile.observeResponse`).
    func recordResponse(_ exchange: Exchange)
    /// Sends `request` as clean-up: not on the timeline, never judged. Nil on a 2xx answer, else what came
    /// back (`404`, `no answer`).
    @discardableResult
    func quietlySend(_ request: PreparedRequest) async -> String?
    /// Registers scenario device `name`'s first token through the target's token registration, as its
    /// user (what `Profile.registerDevice` does by default); throws `HarnessStop` when the backend refuses.
    func registerToken(ofDevice name: String) async throws
    /// Registers `token` (of a `kind` device) for scenario user `name`'s own installation, the one it acts
    /// from when no device acts: tracked and deleted at clean-up like a device's token, but no scenario
    /// device, so no step or invariant judges its pushes. The answer; nil when the user has no account
    /// or its installation is already registered.
    func registerInstallation(ofUser name: String, kind: VirtualDevice.Kind, token: String) async -> Exchange?

    // MARK: Pushes

    /// Every push captured for `device` so far.
    func captures(for device: DeviceIdentity) -> [Capture]
    /// The scenario device a captured push went to, if any.
    func device(for capture: Capture) -> DeviceIdentity?
    /// The pushes the invariants judge: the devices' captures, without those of calls the scenario does not own.
    func judgedCaptures() -> [Capture]
    /// Makes call `id` the scenario's own: the pushes that name it are judged.
    func claimCall(_ id: String)
    /// Puts every judged push not yet there on the timeline, at its arrival (the engine does so after the
    /// steps; a profile whose invariants claim calls first does so after claiming).
    func recordJudgedPushes()
    /// Gives scenario device `name` one more token (the mocks accept it; a push to it is the device's).
    func addToken(_ token: String, toDevice name: String) throws
    /// Says what device `name`'s `token` was issued for, when it is not the channel's kind (push-service: an
    /// iOS device's first token is its alert token, its PushKit token comes second); nil: any push type.
    func setTokenKind(_ kind: DeviceRegistry.TokenKind?, ofToken token: String, device name: String) throws

    // MARK: The timeline and the verdict

    /// Puts an item on the run's timeline.
    func record(_ kind: TimelineItem.Kind, _ actor: String, _ summary: String, _ detail: String?)
    /// Puts a note of ringcheck's on the timeline.
    func note(_ text: String)
    /// Charges a failed check to `requirement`; a check that names none stops the scenario (`HarnessStop`).
    func fail(
        _ requirement: String?, check: String, expected: String, actual: String, evidence: [EvidenceItem]
    ) throws
    /// The level (MUST, SHOULD, …) the catalogue gives `requirement`.
    func level(_ requirement: String?) -> RequirementLevel
}

extension RunContext {
    /// Puts an item without detail on the run's timeline.
    public func record(_ kind: TimelineItem.Kind, _ actor: String, _ summary: String) {
        record(kind, actor, summary, nil)
    }

    /// Charges a failed check without evidence to `requirement`.
    public func fail(_ requirement: String?, check: String, expected: String, actual: String) throws {
        try fail(requirement, check: check, expected: expected, actual: actual, evidence: [])
    }

    /// Sends a request step's request and judges the answer by its options.
    @discardableResult
    public func sendAndJudge(_ request: PreparedRequest, _ options: RequestOptions, step: ScenarioStep) async throws
        -> Exchange
    {
        let exchange = await send(request)
        try judge(exchange, options, step: step, inRace: false)
        return exchange
    }
}
