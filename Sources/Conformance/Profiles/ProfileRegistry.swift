/// The profiles the engine may run, the default first: what the engine is given instead of naming any
/// profile. Whoever starts the engine builds it from its registration list (the CLI: `Profiles.registry`)
/// and hands it to the loaders: a suite's `profile:`, a target file's `profile:` and its keys, its
/// `capabilities:` and a scenario's `needs:` are read against it.
///
/// ```swift
/// let profiles = ProfileRegistry([CallxProfile(), PagerProfile()])
/// let suite = try Suite.load(directory: "suites/pager", profiles: profiles)
/// let target = try TargetFile.load(path: "pager.yaml", profiles: profiles)
/// ```
public struct ProfileRegistry: Sendable {
    /// The registered profiles, the default first.
    public let all: [any Profile]

    /// A registry of `all`, whose first is the default (what a suite or a command means when it names none).
    public init(_ all: [any Profile]) {
        precondition(!all.isEmpty, "a profile registry lists at least one profile")
        self.all = all
    }

    /// The profile a suite or command means when it names none.
    public var defaultProfile: any Profile { all[0] }

    /// The names of every registered profile.
    public var names: [String] { all.map(\.name) }

    /// The profile called `name`, if registered.
    public func named(_ name: String) -> (any Profile)? { all.first { $0.name == name } }

    /// "unknown profile 'calx' (did you mean 'callx'?; profiles: callx, dialstack)".
    public func unknownMessage(_ name: String) -> String {
        "unknown profile '\(name)'\(Diagnostics.suggestion(name, names)) (profiles: \(names.joined(separator: ", ")))"
    }

    /// Every capability a scenario may need: the engine's, then each profile's (`Profile.capabilities`) in
    /// registry order.
    public var knownCapabilities: [Capability] {
        var out = Capability.engineKnown
        for capability in all.flatMap(\.capabilities) where !out.contains(capability) { out.append(capability) }
        return out
    }
}
