/// What `ringcheck report merge` joined: set on a merged result only, so a merged report says which
/// shards it holds and which it lacks. A merged run is complete only when every shard of the split is
/// there and none was interrupted; otherwise it is at best inconclusive.
public struct MergeFacts: Sendable, Equatable, Codable {
    /// How many reports were joined.
    public var reports: Int
    /// The split the reports came from (`--shard I/N`'s N); nil when they were not shards.
    public var shardCount: Int?
    /// The shards joined, ascending.
    public var shards: [Int]
    /// The split's shards no report was given for, ascending.
    public var missingShards: [Int]
    /// The joined reports a signal stopped, one line each (`shard 2/3: SIGINT`).
    public var interrupted: [String]

    public init(
        reports: Int, shardCount: Int? = nil, shards: [Int] = [], missingShards: [Int] = [], interrupted: [String] = []
    ) {
        self.reports = reports
        self.shardCount = shardCount
        self.shards = shards
        self.missingShards = missingShards
        self.interrupted = interrupted
    }

    /// Every shard of the split is there, and each ran to its end.
    public var isComplete: Bool { missingShards.isEmpty && interrupted.isEmpty }

    /// One line for the reports: `shards 1, 2 of 3 merged; missing: 3; interrupted: shard 2/3: SIGINT`.
    public var description: String {
        var text =
            shardCount.map { "shards \(shards.map(String.init).joined(separator: ", ")) of \($0) merged" }
            ?? "\(reports) report\(reports == 1 ? "" : "s") merged"
        if !missingShards.isEmpty {
            text +=
                "; missing: shard\(missingShards.count == 1 ? "" : "s") "
                + missingShards.map { "\($0)/\(shardCount ?? 0)" }.joined(separator: ", ")
        }
        if !interrupted.isEmpty { text += "; interrupted: " + interrupted.joined(separator: ", ") }
        return text
    }
}
