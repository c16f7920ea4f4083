import Conformance
import PushMocks

/// The engine's loaders with the registered profiles (`Profiles.registry`) given: what the CLI and the tests
/// call. The engine's own forms take the registry as a parameter and name no profile.
extension Suite {
    /// `load(directory:profiles:)` with the registered profiles.
    public static func load(directory: String) throws(SuiteLoadError) -> Suite {
        try load(directory: directory, profiles: Profiles.registry)
    }

    /// The suite's profile (suite.yaml's `profile:`; loading checked that it is registered).
    public var profile: any Profile { Profiles.named(catalogue.suite.profile) ?? Profiles.defaultProfile }
}

extension RequirementCatalogue {
    /// `load(suiteDirectory:profiles:)` with the registered profiles.
    public static func load(suiteDirectory: String) throws(SuiteLoadError) -> RequirementCatalogue {
        try load(suiteDirectory: suiteDirectory, profiles: Profiles.registry)
    }
}

extension SuiteInfo {
    /// A suite of the default profile.
    public init(id: String, version: String, title: String, seed: String, sections: [String]) {
        self.init(
            id: id, version: version, title: title, seed: seed, sections: sections,
            profile: Profiles.defaultProfile.name)
    }
}

extension ScenarioDecoder {
    /// A decoder of `profile`'s scenarios (the default profile's unless given) among the registered profiles.
    init(file: String, catalogue: RequirementCatalogue?, profile: any Profile = Profiles.defaultProfile) {
        self.init(file: file, catalogue: catalogue, profile: profile, profiles: Profiles.registry)
    }
}

extension ScenarioEngine {
    /// An engine for the default profile's scenarios.
    public convenience init(
        target: Target, mocks: MockStack, catalogue: RequirementCatalogue, scenarioTimeout: Duration = .seconds(60),
        pollInterval: Duration = .milliseconds(40), inFlightMarginMs: Int64 = 1000
    ) throws {
        try self.init(
            target: target, mocks: mocks, catalogue: catalogue, profile: Profiles.defaultProfile,
            scenarioTimeout: scenarioTimeout, pollInterval: pollInterval, inFlightMarginMs: inFlightMarginMs)
    }
}

extension TargetFile {
    /// `load(path:users:profiles:)` with the registered profiles.
    public static func load(path: String, users: TargetUserNeeds = .suite) throws(SuiteLoadError) -> TargetFile {
        try load(path: path, users: users, profiles: Profiles.registry)
    }

    /// `load(text:file:directory:users:profiles:)` with the registered profiles.
    public static func load(
        text: String, file: String = "<target>", directory: String = ".", users: TargetUserNeeds = .suite
    ) throws(SuiteLoadError) -> TargetFile {
        try load(text: text, file: file, directory: directory, users: users, profiles: Profiles.registry)
    }

    /// The commented target file `ringcheck init-target` writes, with the registered profiles' lines.
    public static var template: String { template(profiles: Profiles.registry) }
}

extension EmbeddedSuites {
    /// The registered profiles' embedded suites' names, sorted (`names(in:)` with the registered profiles).
    public static var names: [String] { names(in: Profiles.registry) }

    /// `directory(_:in:)` with the registered profiles: `builtin:NAME` when profile NAME embeds a suite.
    public static func directory(_ name: String) -> String? { directory(name, in: Profiles.registry) }
}

extension SuiteFiles {
    /// `text(_:profiles:)` with the registered profiles.
    public static func text(_ path: String) -> String? { text(path, profiles: Profiles.registry) }
}
