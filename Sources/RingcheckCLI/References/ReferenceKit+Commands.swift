import AllProfiles
import Conformance

/// What the commands make of a profile's `ReferenceKit`: its `serve-reference --help` section, its defects
/// parsed from `--defect` and `--reference-defect` with the commands' usage errors, and the reference
/// `serve-reference` runs. Generic: it names no profile and works for any kit the registry gives.
extension ReferenceKit {
    /// One help row per defect switch: its name and summary.
    var defectRows: String {
        String(Defect.allCases.map { HelpFormatter.row($0.rawValue, $0.summary) }.joined().dropLast())
    }
    /// Its whole `serve-reference --help` section: the intro, the options it takes of its own, the heading, the
    /// defect rows.
    var helpSection: String {
        (helpIntro.isEmpty ? "" : helpIntro + "\n\n") + optionsLine + "\n\n" + defectHeading + "\n" + defectRows
    }
    /// The section's line naming the options this reference takes besides those every reference takes.
    var optionsLine: String {
        let own = serveOptions.map { "--" + $0.name }
        return
            "Options of its own: \(own.isEmpty ? "none" : own.sentenceList("and"))\n(another profile's option is refused)."
    }
    /// Whether this is the profile `serve-reference` and `run` take when none is named.
    var isDefault: Bool { name == Profiles.defaultProfile.name }

    /// `names` as this reference's defects; a usage error naming the unknown ones, the closest known
    /// one (did you mean), and every defect, as one `row` each after `list`'s words (see `DefectList`).
    func defects(_ names: [String], for command: String, context: String, list: DefectList) throws -> Set<Defect> {
        let (defects, unknown) = parseDefects(names)
        guard !unknown.isEmpty else { return defects }
        let close = unknown.compactMap { Suggestion.closest(to: $0, among: defectNames, limit: 3) }
        let hint = close.isEmpty ? "" : " (did you mean '\(close.joined(separator: "', '"))'?)"
        let all: String
        switch list {
        case .rows: all = "\n" + defectRows
        case .names: all = " " + defectNames.joined(separator: ", ")
        }
        throw UsageError(
            message: "unknown defect '\(unknown.joined(separator: "', '"))'\(context)\(hint); the defects are:\(all)",
            command: command)
    }

    /// What `serve-reference` runs for these arguments: the options it refuses (those another of `kits` declares
    /// and it does not), its defects, then its settings.
    func served(_ arguments: ParsedArguments, command: String, kits: ReferenceKits = .registered) throws
        -> any ServedReference
    {
        let own = Set(serveOptions.map(\.name))
        for option in kits.serveOptionNames where !own.contains(option) {
            guard arguments.value(option) != nil || arguments.flag(option) else { continue }
            throw UsageError(message: "--\(option) does not apply to --profile \(name)", command: command)
        }
        let defects = try defects(
            arguments.all("defect"), for: command, context: isDefault ? "" : " for --profile \(name)", list: .rows)
        return try serving(arguments, defects: defects)
    }

    /// `run --reference-defect` names as this reference's defects; a usage error naming the valid ones.
    func runDefects(_ names: [String]) throws -> Set<Defect> {
        try defects(
            names, for: RunCommand.configuration.name, context: isDefault ? "" : " for profile \(name)", list: .names)
    }

    /// Checks `run --reference-defect` names before anything starts (see `runDefects`).
    func checkRunDefects(_ names: [String]) throws { _ = try runDefects(names) }

    /// `startEmbedded` with defects by name: a usage error (with the list) for an unknown one.
    func startEmbedded(defectNames names: [String], _ start: EmbeddedStart, cleanup: any CleanupRegistry)
        async throws -> EmbeddedReference
    {
        try await startEmbedded(start, defects: runDefects(names), cleanup: cleanup)
    }

    /// `startForLoad` with defects by name: a usage error (with the list) for an unknown one.
    func startForLoad(defectNames names: [String], _ start: LoadEmbeddedStart, cleanup: any CleanupRegistry)
        async throws -> EmbeddedReference
    {
        try await startForLoad(start, defects: runDefects(names), cleanup: cleanup)
    }
}

/// How an unknown-defect error lists the defects: `serve-reference`'s help rows, or `run`'s names on one line.
enum DefectList {
    case rows
    case names
}
