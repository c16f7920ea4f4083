import JSON
import PushMocks

/// One step of a scenario and where it is written.
public struct ScenarioStep: Sendable, Equatable {
    public var step: Step
    /// Where in the file: `steps[2]`, `steps[4].race[1]`.
    public var path: String
    public var mark: YAMLMark

    public init(_ step: Step, path: String, mark: YAMLMark) {
        self.step = step
        self.path = path
        self.mark = mark
    }
}

/// What a step does. Values are `JSONValue`s in which a string `$name.path` refers to a saved value
/// (see `ValueReference`).
public enum Step: Sendable, Equatable {
    case registerToken(RegisterTokenStep)
    case deleteToken(DeleteTokenStep)
    case request(RawRequestStep)
    case expectPush(ExpectPushStep)
    case expectNoPush(ExpectNoPushStep)
    case race(RaceStep)
    case expectNotLogged(ExpectNotLoggedStep)
    case fault(FaultStep)
    case save([String: JSONValue])
    /// Restarts the backend through the target's restart hook (needs the `restart` capability).
    case restartBackend
    /// Lets time pass (`wait: 5s`), so that what arrives late is captured before the invariants judge
    /// the scenario; it judges nothing itself.
    case wait(ScenarioDuration)
    /// A step the suite's profile adds (decoded and run by the profile).
    case profile(AnyProfileStep)

    /// The step's keyword in scenario files.
    public var kind: String {
        switch self {
        case .registerToken: return "registerToken"
        case .deleteToken: return "deleteToken"
        case .request: return "request"
        case .expectPush: return "expectPush"
        case .expectNoPush: return "expectNoPush"
        case .race: return "race"
        case .expectNotLogged: return "expectNotLogged"
        case .fault: return "fault"
        case .save: return "save"
        case .restartBackend: return "restartBackend"
        case .wait: return "wait"
        case .profile(let p): return p.base.keyword
        }
    }

    /// Every generic step keyword (a profile adds its own: `Profile.stepKeywords`).
    public static let kinds = [
        "registerToken", "deleteToken", "request", "expectPush", "expectNoPush", "race", "fault", "save",
        "restartBackend", "expectNotLogged", "wait",
    ]

    /// Keywords of generic steps that send one request and may run inside a `race` (a profile adds its
    /// own: `Profile.requestStepKeywords`).
    public static let requestKinds = ["registerToken", "deleteToken", "request"]

    /// The profile step this step is, when it is one of type `T`.
    public func profileStep<T: ProfileStep>(as type: T.Type) -> T? {
        guard case .profile(let p) = self else { return nil }
        return p.base as? T
    }
}

// MARK: - Who acts

/// Who sends a request: a user (`as: a`) or one of the scenario's devices (`device: b-phone`), which
/// acts as its user from its installation.
public enum StepActor: Sendable, Equatable {
    case user(String)
    case device(String)

    /// The user's name for a user actor; nil for a device.
    public var userName: String? {
        if case .user(let name) = self { return name }
        return nil
    }
}

/// What an operation's response must look like, and the requirement a mismatch fails.
///
/// A request step without `expect` must answer 2xx, or the scenario stops as a harness error (it could
/// not set up what it needed); that is never charged to a requirement.
public struct ResponseExpectation: Sendable, Equatable {
    /// Acceptable statuses (any 2xx when nil, unless `anyStatus`).
    public var status: [Int]?
    /// `status: any`: the status is not judged (the body still is).
    public var anyStatus: Bool
    public var body: [PathMatcher]
    /// `bodyWhen: 2xx`: the body is judged only on a 2xx answer (a refusal the status allows has no snapshot
    /// to judge).
    public var bodyOnlyOnSuccess: Bool
    public var requirement: String?

    public init(
        status: [Int]? = nil, anyStatus: Bool = false, body: [PathMatcher] = [], bodyOnlyOnSuccess: Bool = false,
        requirement: String? = nil
    ) {
        self.status = status
        self.anyStatus = anyStatus
        self.body = body
        self.bodyOnlyOnSuccess = bodyOnlyOnSuccess
        self.requirement = requirement
    }
}

/// Fields every request step has.
public struct RequestOptions: Sendable, Equatable {
    /// Name to save the response body under.
    public var save: String?
    public var expect: ResponseExpectation?

    public init(save: String? = nil, expect: ResponseExpectation? = nil) {
        self.save = save
        self.expect = expect
    }
}

// MARK: - Request steps

public struct RegisterTokenStep: Sendable, Equatable {
    public var device: String
    /// Registers as another user than the device's own (rebinding).
    public var asUser: String?
    /// Overrides; by default the device's own token, the suite's app ID and the device's environment.
    public var token: JSONValue?
    public var appId: JSONValue?
    public var environment: VirtualDevice.Environment?
    public var options: RequestOptions
}

public struct DeleteTokenStep: Sendable, Equatable {
    public var device: String
    public var asUser: String?
    public var options: RequestOptions
}

public struct RawRequestStep: Sendable, Equatable {
    public enum Auth: String, Sendable, CaseIterable {
        /// The actor's normal credentials.
        case session
        /// No credentials at all.
        case none
        /// Credentials the backend must not accept.
        case invalid
    }
    public var actor: StepActor?
    public var auth: Auth
    public var method: String
    public var path: JSONValue
    public var headers: [String: JSONValue]
    public var body: JSONValue?
    public var options: RequestOptions
}

// MARK: - Expectations

/// Waits until every listed device has received `count` matching pushes not consumed by an earlier
/// `expectPush`, then consumes them. Pushes are matched from the scenario's start, so a push that
/// arrived before the step counts.
public struct ExpectPushStep: Sendable, Equatable {
    /// Device names; each must receive a matching push.
    public var to: [String]
    /// The push's type as the profile reads it (`PushView.type`); the profile's default type
    /// (`call.invited` for callx) when the scenario names none, any when that is nil.
    public var type: String?
    public var call: JSONValue?
    public var within: ScenarioDuration
    /// How many matching pushes each device must get, at least (default 1); they are consumed, so a
    /// later `expectNoPush` catches any extra one.
    public var count: Int
    public var match: [PathMatcher]
    public var save: String?
    public var requirement: String?
}

/// Fails when a matching push that no earlier `expectPush` consumed is captured, already or during `duration`.
public struct ExpectNoPushStep: Sendable, Equatable {
    public var to: [String]
    /// Any type when nil.
    public var type: String?
    public var call: JSONValue?
    public var duration: ScenarioDuration
    public var match: [PathMatcher]
    public var requirement: String?
    /// `from: now`: only pushes arriving once the step begins count (after an end, a push that was
    /// already on its way, or a transport-level resend of it, is no finding); default: from the
    /// scenario's start.
    public var fromNow = false
}

// MARK: - Control

public struct RaceStep: Sendable, Equatable {
    /// Request steps released together through the client's race call.
    public var steps: [ScenarioStep]
    /// How many of them must succeed (2xx).
    public var winners: Int?
    public var requirement: String?
}

/// Watches the backend's log (`backendLog` capability) for `duration` and fails if any of the
/// scenario's push tokens, the full body of any push sent to its devices, or one of `values` appears.
public struct ExpectNotLoggedStep: Sendable, Equatable {
    public var duration: ScenarioDuration
    /// More text that must not be logged (references allowed).
    public var values: [JSONValue]
    public var requirement: String?
}

public struct FaultStep: Sendable, Equatable {
    /// The device whose token the plan targets; nil for a plan on a whole mock (`mock:`).
    public var device: String?
    /// `mock` and `deviceToken` are filled in by the engine from the device when `device` is given.
    public var plan: FaultPlan
}
