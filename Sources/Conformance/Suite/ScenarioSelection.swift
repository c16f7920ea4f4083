import Reports

/// Which scenarios a run takes: `ringcheck run [ID or glob…] [--tag T] [--shard I/N]`.
public struct ScenarioSelection: Sendable, Equatable {
    /// IDs or globs (`*` any run of characters, `?` one); empty selects every scenario.
    public var patterns: [String]
    /// A scenario must carry at least one of these tags; empty means no tag filter.
    public var tags: [String]
    /// 1-based shard index and shard count.
    public var shard: (index: Int, count: Int)?

    public init(patterns: [String] = [], tags: [String] = [], shard: (index: Int, count: Int)? = nil) {
        self.patterns = patterns
        self.tags = tags
        self.shard = shard
    }

    public static func == (lhs: ScenarioSelection, rhs: ScenarioSelection) -> Bool {
        lhs.patterns == rhs.patterns && lhs.tags == rhs.tags && lhs.shard?.index == rhs.shard?.index
            && lhs.shard?.count == rhs.shard?.count
    }

    /// The chosen scenarios sorted by ID, and the patterns that matched none (a usage error for the CLI).
    ///
    /// Sharding is deterministic: the filtered scenarios sorted by ID are dealt round-robin, so every
    /// scenario lands in exactly one shard and shards differ in size by at most one.
    public func apply(to scenarios: [Scenario]) -> (scenarios: [Scenario], unmatchedPatterns: [String]) {
        var unmatched: [String] = []
        var chosen = scenarios
        if !patterns.isEmpty {
            for p in patterns where !scenarios.contains(where: { Self.glob(p, matches: $0.id) }) { unmatched.append(p) }
            chosen = chosen.filter { s in patterns.contains { Self.glob($0, matches: s.id) } }
        }
        if !tags.isEmpty { chosen = chosen.filter { !Set($0.tags).isDisjoint(with: tags) } }
        chosen.sort { $0.id < $1.id }
        if let shard, shard.count > 0 {
            chosen = chosen.enumerated().filter {
                Shard.index(ofPosition: $0.offset, count: shard.count) == shard.index
            }.map(\.element)
        }
        return (chosen, unmatched)
    }

    /// Parses `I/N` with 1 ≤ I ≤ N.
    public static func parseShard(_ text: String) -> (index: Int, count: Int)? {
        guard case .success(let shard) = checkShard(text) else { return nil }
        return shard
    }

    /// `I/N` as a shard, or why it is none (`the index I must be 1 to 3`): two whole numbers, N ≥ 1, 1 ≤ I ≤ N.
    public static func checkShard(_ text: String) -> Result<(index: Int, count: Int), ShardProblem> {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]) else {
            return .failure(ShardProblem("it takes I/N, two whole numbers: shard I of N"))
        }
        guard n >= 1 else { return .failure(ShardProblem("the shard count N must be at least 1")) }
        guard (1...n).contains(i) else { return .failure(ShardProblem("the index I must be 1 to \(n)")) }
        return .success((i, n))
    }

    /// Why a `--shard` value names no shard.
    public struct ShardProblem: Error, Equatable {
        public var reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// Shell-style matching of a whole ID: `*` any characters (dots included), `?` one character.
    public static func glob(_ pattern: String, matches text: String) -> Bool {
        let p = Array(pattern)
        let t = Array(text)
        var pi = 0
        var ti = 0
        var star = -1
        var mark = 0
        while ti < t.count {
            if pi < p.count, p[pi] == "?" || p[pi] == t[ti] {
                pi += 1
                ti += 1
            } else if pi < p.count, p[pi] == "*" {
                star = pi
                mark = ti
                pi += 1
            } else if star >= 0 {
                pi = star + 1
                mark += 1
                ti = mark
            } else {
                return false
            }
        }
        while pi < p.count, p[pi] == "*" { pi += 1 }
        return pi == p.count
    }
}
