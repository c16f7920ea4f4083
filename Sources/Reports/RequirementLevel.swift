/// How strongly a seed states a rule; only a failed MUST makes a backend non-conformant.
public enum RequirementLevel: String, Sendable, Hashable, Codable, CaseIterable {
    case must = "MUST"
    case should = "SHOULD"
}
