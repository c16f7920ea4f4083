/// `--shard index/count` (1-based index), and the whole selection the split was taken from, so that
/// `ringcheck report merge` can tell which shards are missing and name their scenarios.
public struct Shard: Sendable, Equatable, Codable, CustomStringConvertible {
    public var index: Int
    public var count: Int
    /// The IDs of every scenario the run's IDs, globs and tags chose before the split (all shards
    /// together), sorted; nil in reports written before ringcheck recorded it.
    public var selection: [String]?

    public init(index: Int, count: Int, selection: [String]? = nil) {
        self.index = index
        self.count = count
        self.selection = selection
    }

    public var description: String { "\(index)/\(count)" }

    /// Whether `index` names one of `count` shards (1 ≤ index ≤ count).
    public var isPossible: Bool { count >= 1 && index >= 1 && index <= count }

    /// The shard (1-based) that the scenario at `position` of the sorted selection falls to: the
    /// selection is dealt round-robin, so shards differ in size by at most one.
    public static func index(ofPosition position: Int, count: Int) -> Int { position % count + 1 }

    /// The IDs of `selection` that fall to shard `index` of `count`.
    public static func scenarios(of index: Int, count: Int, in selection: [String]) -> [String] {
        selection.sorted().enumerated().filter { Self.index(ofPosition: $0.offset, count: count) == index }.map(
            \.element)
    }
}
