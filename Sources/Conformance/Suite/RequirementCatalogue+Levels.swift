import Reports

extension RequirementCatalogue {
    /// Each requirement's level by its ID (the first entry wins where an ID repeats).
    public var levels: [String: RequirementLevel] {
        Dictionary(requirements.map { ($0.id, $0.level) }, uniquingKeysWith: { first, _ in first })
    }

    /// The levels of `profile`'s embedded suite, read against a registry of that profile alone, so a
    /// profile's own code (its load workload, its payload judge) needs no other profile to know them.
    public static func embeddedLevels(of profile: any Profile) throws -> [String: RequirementLevel] {
        try load(suiteDirectory: EmbeddedSuites.scheme + profile.name, profiles: ProfileRegistry([profile])).levels
    }
}
