import Conformance
import Reports

extension RunCommand {
    /// The shard of this run with the IDs of the whole selection it was split from (what `report merge`
    /// needs to name the scenarios of a missing shard); nil without `--shard`.
    func shardFacts(of all: [Scenario]) -> Shard? {
        guard let shard else { return nil }
        let whole = ScenarioSelection(patterns: patterns, tags: tags).apply(to: all).scenarios.map(\.id)
        return Shard(index: shard.index, count: shard.count, selection: whole)
    }

    /// The scenarios the IDs, globs, `--tag`s and `--shard` choose. A pattern or a tag that selects
    /// nothing is a usage error naming it and the closest IDs or tags; so is a combination of them
    /// that leaves nothing to run.
    func selectScenarios(from all: [Scenario]) throws -> [Scenario] {
        let name = Self.configuration.name
        let selection = ScenarioSelection(patterns: patterns, tags: tags, shard: shard)
        let (scenarios, unmatched) = selection.apply(to: all)
        let ids = all.map(\.id).sorted()
        if !unmatched.isEmpty {
            let hints = unmatched.map { p in
                let close = Self.closest(to: p.filter { $0 != "*" && $0 != "?" }, among: ids)
                return close.isEmpty ? "" : "; close to '\(Suggestion.shown(p))': \(close.joined(separator: ", "))"
            }.joined()
            let quoted = unmatched.map { Suggestion.shown($0) }.joined(separator: "', '")
            throw UsageError(
                message: "no scenario matches '\(quoted)'\(hints) (see 'ringcheck list')",
                command: name)
        }
        var known: [String] = []
        for s in all { for t in s.tags where !known.contains(t) { known.append(t) } }
        known.sort()
        let unknownTags = tags.filter { !known.contains($0) }
        if !unknownTags.isEmpty {
            let close = unknownTags.flatMap { Self.closest(to: $0, among: known) }
            let list = close.isEmpty ? known : close
            throw UsageError(
                message:
                    "no scenario has the tag '\(unknownTags.map { Suggestion.shown($0) }.joined(separator: "', '"))'; \(close.isEmpty ? "the tags are" : "close tags"): \(list.joined(separator: ", "))",
                command: name)
        }
        if scenarios.isEmpty && (!patterns.isEmpty || !tags.isEmpty) && shard == nil {
            let what = patterns.isEmpty ? "" : "'\(patterns.joined(separator: "', '"))'"
            let matched = ScenarioSelection(patterns: patterns).apply(to: all).scenarios
            var carried: [String] = []
            for s in matched { for t in s.tags where !carried.contains(t) { carried.append(t) } }
            let hint = patterns.isEmpty ? "" : "; \(what) carries the tags: \(carried.sorted().joined(separator: ", "))"
            throw UsageError(
                message:
                    "no scenario matches \(what)\(what.isEmpty ? "" : " ")with the tag '\(tags.joined(separator: "', '"))'\(hint) (see 'ringcheck list')",
                command: name)
        }
        return scenarios
    }

    /// Up to five of `candidates` closest to `word`: within a few edits, or sharing its first dotted part.
    /// A word longer than any ID could be (`Suggestion.inputLimit`) gets none, at once.
    static func closest(to word: String, among candidates: [String]) -> [String] {
        guard !word.isEmpty, word.utf8.count <= Suggestion.inputLimit else { return [] }
        let w = word.lowercased()
        let limit = max(3, w.count / 3)
        let head = w.split(separator: ".").first.map(String.init) ?? w
        let scored = candidates.compactMap { c -> (String, Int)? in
            let lower = c.lowercased()
            // Against the whole ID, and against its start as long as the word (`arbitraton.` of a glob).
            var d = [lower, String(lower.prefix(w.count))].compactMap { Suggestion.distance(w, $0, limit: limit) }.min()
            // A glob's literal part (`arbitration.` of `arbitration.*`) is a prefix of what it meant.
            if lower.hasPrefix(w) || lower.hasPrefix(head + ".") { d = min(d ?? limit, limit) }
            return d.map { (c, $0) }
        }
        return scored.sorted { ($0.1, $0.0) < ($1.1, $1.0) }.prefix(5).map(\.0)
    }
}
