import Conformance

extension OptionSpec {
    /// A command's options from the rows its profiles declare (`ProfileOptionRow`: `trigger`'s, `check-payload`'s):
    /// `shared` first, each gaining the sentences the profiles declare about it (`--url`), then each profile's own
    /// rows in registry order. An option several profiles declare is one row, where the first declares it, whose
    /// help joins their sentences (`a: call or notification; b: user or voip.` for profiles a and b).
    ///
    /// ```swift
    /// let options = OptionSpec.built(
    ///     shared: [.value("url", "URL", help: "Required.")],
    ///     profiles: [("echo", [.value("message", "TEXT", help: "what to echo", default: "hello")])])
    /// // --url, then --message ("echo: what to echo.", default hello)
    /// ```
    static func built(shared: [OptionSpec], profiles: [(name: String, rows: [ProfileOptionRow])]) -> [OptionSpec] {
        var declared: [String: [(profile: String, row: ProfileOptionRow)]] = [:]
        var order: [String] = []
        for (profile, rows) in profiles {
            for row in rows {
                if declared[row.name] == nil { order.append(row.name) }
                declared[row.name, default: []].append((profile, row))
            }
        }
        let sharedNames = Set(shared.map(\.name))
        let own = order.filter { !sharedNames.contains($0) }.map { name in
            let first = declared[name]![0].row
            return OptionSpec(
                name: name, short: nil, valueName: first.valueName, help: "", defaultDescription: nil,
                repeatable: first.repeatable, number: first.number)
        }
        return (shared + own).map { joined($0, declared[$0.name] ?? []) }
    }

    /// `spec` with the profiles' sentences before its own help (`a: …; b: …. Required.`; profiles that say the
    /// same are named once before it: `a and b: …`) and their default: the one default when all give the same, else each named (`a: x; b: y`).
    static func joined(_ spec: OptionSpec, _ rows: [(profile: String, row: ProfileOptionRow)]) -> OptionSpec {
        guard !rows.isEmpty else { return spec }
        var spec = spec
        var groups: [(help: String, profiles: [String])] = []
        for row in rows {
            if let same = groups.firstIndex(where: { $0.help == row.row.help }) {
                groups[same].profiles.append(row.profile)
            } else {
                groups.append((row.row.help, [row.profile]))
            }
        }
        let sentences = groups.map { "\($0.profiles.sentenceList("and")): \($0.help)" }.joined(separator: "; ") + "."
        spec.help = spec.help.isEmpty ? sentences : sentences + " " + spec.help
        let defaults = rows.compactMap { r in r.row.defaultDescription.map { (profile: r.profile, value: $0) } }
        if spec.defaultDescription == nil, let first = defaults.first {
            spec.defaultDescription =
                defaults.count == rows.count && defaults.allSatisfy({ $0.value == first.value })
                ? first.value : defaults.map { "\($0.profile): \($0.value)" }.joined(separator: "; ")
        }
        return spec
    }
}
