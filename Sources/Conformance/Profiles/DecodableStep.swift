/// A step type a profile adds, with its keywords and its decoding in one place: the profile lists its step types
/// (`Profile.stepTypes`), and its step keywords, its request keywords and its `decodeStep` follow from that list.
///
/// ```swift
/// struct PingStep: DecodableStep, Equatable {
///     static let keywords = ["ping"]
///     var device: String
///
///     static func decode(_ keyword: String, _ node: YAMLNode, path: String, decoder: inout ScenarioDecoder)
///         -> PingStep?
///     {
///         guard let f = decoder.d.mapping(node, path, known: ["device"], required: ["device"]),
///             let device = f["device"].flatMap({ decoder.device($0.value, path + ".device") })
///         else { return nil }
///         return PingStep(device: device)
///     }
///
///     func perform(_ step: ScenarioStep, with context: isolated any RunContext) async throws {
///         context.note("ping \(device)")
///     }
/// }
///
/// struct PingProfile: Profile {
///     var stepTypes: [any DecodableStep.Type] { [PingStep.self] }
///     …
/// }
/// ```
public protocol DecodableStep: ProfileStep {
    /// The keywords scenario files write for steps of this type (one; a family such as `pushToUser`,
    /// `pushBroadcast`, `voipPush` shares one type).
    static var keywords: [String] { get }
    /// Whether its steps send one request and may run in a `race` (they give it through `request(with:)`).
    static var isRequest: Bool { get }
    /// Decodes one step written with `keyword` (one of `keywords`); `path` is the step's field
    /// (`steps[2].webhook`). Problems go to `decoder.d` with the node's mark and the field; nil when the step
    /// cannot be read. Names the step saves go to `decoder.stepSaves`.
    static func decode(_ keyword: String, _ node: YAMLNode, path: String, decoder: inout ScenarioDecoder) -> Self?
    /// How much longer than the engine's time limit a scenario may run on `target` because of this step: the
    /// answer time beyond the usual the target allows it (a DialStack webhook's `webhook.answerTimeout`); 0 for most.
    func answerAllowanceMs(on target: Target) -> Int
}

extension DecodableStep {
    public static var isRequest: Bool { false }

    public func answerAllowanceMs(on target: Target) -> Int { 0 }

    /// The keyword of a type with one.
    public var keyword: String { Self.keywords[0] }
}

extension Profile {
    /// The keywords of `stepTypes`.
    public var stepKeywords: [String] { stepTypes.flatMap { $0.keywords } }

    /// The keywords of `stepTypes` whose steps are requests.
    public var requestStepKeywords: [String] { stepTypes.filter { $0.isRequest }.flatMap { $0.keywords } }

    /// Decodes `keyword` with the step type that declares it.
    public func decodeStep(_ keyword: String, _ node: YAMLNode, path: String, decoder: inout ScenarioDecoder)
        -> (any ProfileStep)?
    {
        guard let type = stepTypes.first(where: { $0.keywords.contains(keyword) }) else { return nil }
        return type.decode(keyword, node, path: path, decoder: &decoder)
    }
}
