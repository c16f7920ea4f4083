import Foundation
import Reports

/// A suite's requirements (`requirements.yaml`) with its identity (`suite.yaml`).
public struct RequirementCatalogue: Sendable, Equatable {
    public var suite: SuiteInfo
    /// In file order.
    public var requirements: [Requirement]

    public init(suite: SuiteInfo, requirements: [Requirement]) {
        self.suite = suite
        self.requirements = requirements
    }

    /// The requirement with `id`, if any.
    public subscript(id: String) -> Requirement? { requirements.first { $0.id == id } }

    /// All requirement IDs.
    public var ids: [String] { requirements.map(\.id) }

    /// Loads and validates `suite.yaml` and `requirements.yaml` from `suiteDirectory`: IDs unique and
    /// shaped `<SUITE>-<AREA>-<n>`, known levels, non-empty statements, every section one the suite
    /// lists and every listed section covered. Reports every problem found, not only the first.
    /// `profiles` are those suite.yaml's `profile:` may name.
    public static func load(suiteDirectory: String, profiles: ProfileRegistry) throws(SuiteLoadError)
        -> RequirementCatalogue
    {
        var errors: [SuiteError] = []
        let info = loadInfo(suiteDirectory + "/suite.yaml", profiles: profiles, &errors)
        let requirements = loadRequirements(
            suiteDirectory + "/requirements.yaml", info: info, profiles: profiles, &errors)
        guard errors.isEmpty, let info else { throw SuiteLoadError(errors: errors) }
        return RequirementCatalogue(suite: info, requirements: requirements)
    }

    // MARK: - suite.yaml

    static func loadInfo(_ path: String, profiles: ProfileRegistry, _ errors: inout [SuiteError]) -> SuiteInfo? {
        let root: YAMLNode
        do { root = try SuiteFiles.parse(path, profiles: profiles) } catch {
            errors.append(SuiteError(error))
            return nil
        }
        var d = Diagnostics(file: path)
        defer { errors += d.errors }
        let keys = ["id", "version", "title", "seed", "sections"]
        guard let fields = d.mapping(root, "", known: keys + ["profile", "idPrefix"], required: keys) else {
            return nil
        }
        let profile = profileName(fields["profile"]?.value, profiles: profiles, &d)
        let id = fields["id"].flatMap { d.nonEmptyString($0.value, "id") }
        let version = fields["version"].flatMap { d.nonEmptyString($0.value, "version") }
        let title = fields["title"].flatMap { d.nonEmptyString($0.value, "title") }
        let seed = fields["seed"].flatMap { d.nonEmptyString($0.value, "seed") }
        let sections = fields["sections"].flatMap { d.stringList($0.value, "sections") }
        guard let id, let version, let title, let seed, let sections, let profile, d.errors.isEmpty else { return nil }
        var info = SuiteInfo(id: id, version: version, title: title, seed: seed, sections: sections, profile: profile)
        if let e = fields["idPrefix"], let prefix = d.nonEmptyString(e.value, "idPrefix") {
            if prefix.contains("-") || prefix != prefix.uppercased() {
                d.error(e.value.mark, "idPrefix", "'\(prefix)' is not upper case without dashes (e.g. PUSHSVC)")
                return nil
            }
            info.idPrefix = prefix
        }
        return info
    }

    /// suite.yaml's `profile:` when it names a registered profile, the default one when it is missing;
    /// nil (with a diagnostic) for anything else.
    static func profileName(_ node: YAMLNode?, profiles: ProfileRegistry, _ d: inout Diagnostics) -> String? {
        guard let node else { return profiles.defaultProfile.name }
        guard let name = d.nonEmptyString(node, "profile") else { return nil }
        guard profiles.named(name) != nil else {
            d.error(node.mark, "profile", profiles.unknownMessage(name))
            return nil
        }
        return name
    }

    /// The profile `suite.yaml` in `suiteDirectory` names (the default when it names none or cannot be
    /// read); nil when it names one that is not registered.
    static func profile(suiteDirectory: String, profiles: ProfileRegistry) -> (any Profile)? {
        guard let root = try? SuiteFiles.parse(suiteDirectory + "/suite.yaml", profiles: profiles),
            let node = root.entries?.first(where: { $0.key == "profile" })?.value
        else { return profiles.defaultProfile }
        var d = Diagnostics(file: suiteDirectory + "/suite.yaml")
        return profileName(node, profiles: profiles, &d).flatMap(profiles.named)
    }

    // MARK: - requirements.yaml

    static func loadRequirements(
        _ path: String, info: SuiteInfo?, profiles: ProfileRegistry, _ errors: inout [SuiteError]
    ) -> [Requirement] {
        let root: YAMLNode
        do { root = try SuiteFiles.parse(path, profiles: profiles) } catch {
            errors.append(SuiteError(error))
            return []
        }
        var d = Diagnostics(file: path)
        defer { errors += d.errors }
        guard let top = d.mapping(root, "", known: ["requirements"], required: ["requirements"]),
            let list = top["requirements"]?.value
        else { return [] }
        guard let items = list.items else {
            d.error(list.mark, "requirements", "expected a list of requirements, got \(list.kindName)")
            return []
        }
        let prefix = info.map { ($0.idPrefix ?? $0.id.uppercased()) + "-" }
        var out: [Requirement] = []
        var seen: [String: YAMLMark] = [:]
        for (i, item) in items.enumerated() {
            let path = "requirements[\(i)]"
            let keys = ["id", "level", "statement", "section", "note"]
            guard
                let fields = d.mapping(item, path, known: keys, required: ["id", "level", "statement", "section"])
            else { continue }
            let id = fields["id"].flatMap { d.nonEmptyString($0.value, path + ".id") }
            let level = fields["level"].flatMap { d.choice($0.value, path + ".level", ["MUST", "SHOULD"]) }
            let statement = fields["statement"].flatMap { d.nonEmptyString($0.value, path + ".statement") }
            let section = fields["section"].flatMap { d.nonEmptyString($0.value, path + ".section") }
            let note = fields["note"].flatMap { d.string($0.value, path + ".note") }
            if let id, let mark = fields["id"]?.value.mark {
                if !isWellFormedID(id, prefix: prefix) {
                    d.error(
                        mark, path + ".id",
                        "'\(id)' is not shaped \(prefix ?? "<SUITE>-")<AREA>-<n> (e.g. \(prefix ?? "CALLX-")ARB-1)")
                }
                if let first = seen[id] {
                    d.error(mark, path + ".id", "duplicate requirement ID '\(id)' (first at \(first))")
                }
                seen[id] = seen[id] ?? mark
            }
            if let statement, statement.contains("\n"), let mark = fields["statement"]?.value.mark {
                d.error(mark, path + ".statement", "must be one line")
            }
            if let section, let info, !info.sections.contains(section), let mark = fields["section"]?.value.mark {
                d.error(
                    mark, path + ".section",
                    "'\(section)' is not a section listed in suite.yaml\(Diagnostics.suggestion(section, info.sections))"
                )
            }
            if let id, let level = level.flatMap(RequirementLevel.init(rawValue:)), let statement, let section {
                out.append(
                    Requirement(
                        id: id, level: level, statement: statement, section: section, note: note, mark: item.mark))
            }
        }
        if let info {
            for section in info.sections where !out.contains(where: { $0.section == section }) {
                d.error(list.mark, "requirements", "no requirement comes from section '\(section)'")
            }
        }
        return out
    }

    /// `<PREFIX><AREA>-<n>`: area in capitals and digits, n a positive number without leading zeros.
    static func isWellFormedID(_ id: String, prefix: String?) -> Bool {
        var rest = Substring(id)
        if let prefix {
            guard rest.hasPrefix(prefix) else { return false }
            rest = rest.dropFirst(prefix.count)
        } else {
            guard let dash = rest.firstIndex(of: "-") else { return false }
            rest = rest[rest.index(after: dash)...]
        }
        let parts = rest.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let area = parts.first, let number = parts.last else { return false }
        let areaOK = !area.isEmpty && area.allSatisfy { ($0.isUppercase || $0.isNumber) && $0.isASCII }
        let numberOK = !number.isEmpty && number.allSatisfy { $0.isASCII && $0.isNumber } && number.first != "0"
        return areaOK && numberOK
    }
}
