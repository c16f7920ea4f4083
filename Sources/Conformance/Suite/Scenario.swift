import PushMocks

/// One scenario of a suite: who takes part, which requirements it evidences, and its steps.
public struct Scenario: Sendable, Equatable {
    /// Stable dotted ID, e.g. `arbitration.two-devices-race`.
    public var id: String
    public var title: String
    /// What the scenario does and why (for `ringcheck explain`).
    public var description: String?
    /// Requirement IDs the scenario evidences (all exist in the catalogue).
    public var requirements: [String]
    public var tags: [String]
    /// Users beyond the caller `a` and the devices' users (e.g. an outsider `c`).
    public var users: [String]
    /// Virtual devices in the order written.
    public var devices: [VirtualDevice]
    /// Capabilities the target must have; without one the scenario is not applicable.
    public var needs: [Capability]
    public var steps: [ScenarioStep]
    /// The file the scenario was read from and where it starts.
    public var file: String
    public var mark: YAMLMark

    public init(
        id: String, title: String, description: String? = nil, requirements: [String], tags: [String] = [],
        users: [String] = [], devices: [VirtualDevice] = [], needs: [Capability] = [], steps: [ScenarioStep],
        file: String = "<input>", mark: YAMLMark = YAMLMark(line: 1, column: 1)
    ) {
        self.id = id
        self.title = title
        self.description = description
        self.requirements = requirements
        self.tags = tags
        self.users = users
        self.devices = devices
        self.needs = needs
        self.steps = steps
        self.file = file
        self.mark = mark
    }

    /// Every user the scenario knows: `a` (the caller played by ringcheck), declared users, devices' users.
    public var allUsers: [String] {
        var out = ["a"]
        var seen: Set<String> = ["a"]
        for u in users + devices.map(\.user) where seen.insert(u).inserted { out.append(u) }
        return out
    }

    /// The device named `name`.
    public func device(_ name: String) -> VirtualDevice? { devices.first { $0.name == name } }
}

/// A fresh installation the engine creates for a scenario, with its own push token.
public struct VirtualDevice: Sendable, Equatable {
    /// How the device receives pushes: `apnsVoip` or `fcm`.
    public typealias Kind = PushChannel
    /// The APNs environment a VoIP token is registered for.
    public typealias Environment = APNsEnvironment

    public var name: String
    public var user: String
    public var kind: Kind
    /// For `apnsVoip` (default production); nil for `fcm`.
    public var environment: Environment?
    /// Whether the engine registers the token before the first step (default true).
    public var registered: Bool

    public init(name: String, user: String, kind: Kind, environment: Environment? = nil, registered: Bool = true) {
        self.name = name
        self.user = user
        self.kind = kind
        self.environment = kind.hasEnvironments ? (environment ?? .production) : environment
        self.registered = registered
    }
}

/// Something a target must be able to do for a scenario to apply to it.
public struct Capability: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    /// The backend sends its pushes to ringcheck's mocks, so faults can be injected.
    public static let faults = Capability(rawValue: "faults")
    /// The backend honours APNs sandbox registrations.
    public static let sandbox = Capability(rawValue: "sandbox")
    /// ringcheck can restart the backend.
    public static let restart = Capability(rawValue: "restart")
    /// ringcheck can read what the backend logs (it started the backend, or the target names the file).
    public static let backendLog = Capability(rawValue: "backendLog")

    /// The capabilities the engine itself knows (`ProfileRegistry.knownCapabilities` adds each profile's).
    static let engineKnown: [Capability] = [.faults, .sandbox, .restart, .backendLog]
}
