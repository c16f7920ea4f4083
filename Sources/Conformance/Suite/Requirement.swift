import Reports

/// One rule of a seed document, as the suite checks it.
public struct Requirement: Sendable, Equatable {
    /// Stable ID such as `CALLX-ARB-1`.
    public var id: String
    public var level: RequirementLevel
    /// One line, in our own words.
    public var statement: String
    /// The seed section the rule comes from.
    public var section: String
    /// Why the level was chosen, or why the rule cannot be observed.
    public var note: String?
    /// Where the requirement is written.
    public var mark: YAMLMark

    public init(
        id: String, level: RequirementLevel, statement: String, section: String, note: String? = nil,
        mark: YAMLMark = YAMLMark(line: 1, column: 1)
    ) {
        self.id = id
        self.level = level
        self.statement = statement
        self.section = section
        self.note = note
        self.mark = mark
    }

    /// The area part of the ID (`ARB` in `CALLX-ARB-1`).
    public var area: String {
        let parts = id.split(separator: "-")
        return parts.count >= 3 ? String(parts[parts.count - 2]) : ""
    }
}

/// A suite's identity, from its `suite.yaml`.
public struct SuiteInfo: Sendable, Equatable {
    public var id: String
    public var version: String
    public var title: String
    /// The seed document's file name (in the seeds folder).
    public var seed: String
    /// The seed's section headings, in order.
    public var sections: [String]
    /// The name of the suite's profile (`profile:`; `callx` when the file names none).
    public var profile: String
    /// What every requirement ID starts with, before `-<AREA>-<n>` (`idPrefix:`; the upper-cased `id` when the
    /// file names none): a suite whose ID is long or has a dash names a short one (`PUSHSVC`).
    public var idPrefix: String?

    public init(
        id: String, version: String, title: String, seed: String, sections: [String], profile: String
    ) {
        self.id = id
        self.version = version
        self.title = title
        self.seed = seed
        self.sections = sections
        self.profile = profile
    }
}
